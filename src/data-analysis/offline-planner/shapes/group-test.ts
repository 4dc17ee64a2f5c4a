import type { ColumnSchema } from '../../types.js'
import { isIdLike } from '../column-traits.js'
import { isNumeric } from '../columns.js'
import type { Grounding } from '../grounding/grounding.js'
import type { Filter, StatisticItem, StatisticsMethod, StatisticsTest } from '../intent.js'
import { TEST_STATISTICS } from '../lexicon/statistics.js'
import { declined, type Recognition } from '../recognition.js'
import { onlyColumnWord } from './statistic-columns.js'
import { slotOwners } from './statistic-slots.js'
import { chosenVerdict } from './statistic-tests.js'

/**
 * A test between groups the question names (docs/data-analysis.md, "Tests"): a two-sample t-test
 * (Student's, or Welch's), a one-way ANOVA of a numeric column across the groups of another, or a
 * chi-square test of independence of two categorical columns. The groups are the values of a
 * column the question names ("between Paris and Lyon": those two, in that order; else every value
 * of the grouping column it names). Gives the test's p-value, statistic and verdict, each where
 * the answer format asks; declines when the columns' roles are not clear (two numeric columns, no
 * grouping column), a t-test has other than two groups, or a slot asks for anything else.
 */

/** A grouping column: text or true/false, or whole numbers with few values (a class, a 0/1 flag). */
const MAX_CODE_VALUES = 10
function categorical(column: ColumnSchema): boolean {
  return (
    column.type === 'text' ||
    column.type === 'boolean' ||
    (column.type === 'integer' && column.distinctCount <= MAX_CODE_VALUES)
  )
}

/** A condition naming one value of a column: `= 'Paris'`, or `= 1` on a flag. */
function namedValue(filter: Filter): string | null {
  if (filter.kind === 'equals' && !filter.negated) return filter.value
  if (filter.kind === 'compare' && filter.op === '=') return String(filter.value)
  return null
}

/** The values "between A and B" names: two or more equality conditions on one column, with that column. */
function namedGroups(filters: readonly Filter[]): { column: ColumnSchema; values: string[] } | null {
  const byColumn = new Map<ColumnSchema, string[]>()
  for (const filter of filters) {
    const value = namedValue(filter)
    if (value === null) continue
    const values = byColumn.get(filter.column) ?? []
    if (!values.includes(value)) byColumn.set(filter.column, [...values, value])
  }
  const grouped = [...byColumn].filter(([, values]) => values.length >= 2)
  const [only, other] = grouped
  return only && !other ? { column: only[0], values: only[1] } : null
}

interface Roles {
  readonly columns: ColumnSchema[]
  readonly filters: readonly Filter[]
  readonly groups: readonly string[] | null
}

/**
 * The test's columns (measured and grouping, or the two categorical ones) among the columns the
 * question names, the conditions left once the named groups are taken out; a reason to decline
 * when the roles are not clear.
 */
function rolesOf(
  kind: 'ttest' | 'welch' | 'anova' | 'chisquare',
  named: ReturnType<typeof namedGroups>,
  subjects: readonly ColumnSchema[],
  filters: readonly Filter[],
  by: ColumnSchema | null,
): Roles | string {
  const rest = named ? filters.filter((f) => !(namedValue(f) !== null && f.column === named.column)) : filters
  if (kind === 'chisquare') {
    const pair = [...new Set([...(named ? [named.column] : []), ...subjects.filter(categorical)])]
    if (pair.length !== 2) return 'a chi-square test of independence needs exactly two categorical columns'
    return { columns: pair, filters: rest, groups: null }
  }
  // A text column groups before a code column (a whole number with few values may be what is measured).
  const group =
    named?.column ??
    by ??
    onlyOne(subjects.filter((column) => categorical(column) && !isNumeric(column))) ??
    onlyOne(subjects.filter(categorical))
  if (!group) return 'a test between groups needs the one column whose values are the groups'
  const measured = subjects.filter((column) => column !== group && isNumeric(column) && !isIdLike(column))
  const [only, other] = measured
  if (!only || other) return 'a test between groups needs exactly one numeric column to compare'
  const groups = named ? named.values.length : group.distinctCount
  if ((kind === 'ttest' || kind === 'welch') && groups !== 2)
    return `a t-test compares two groups, and "${group.name}" has ${groups}: name the two to compare`
  return { columns: [only, group], filters: rest, groups: named?.values ?? null }
}

export function recogniseGroupTest(g: Grounding): Recognition | null {
  const cue = g.cues.test
  if (!cue || !(cue.kind === 'ttest' || cue.kind === 'welch' || cue.kind === 'anova' || cue.kind === 'chisquare'))
    return null
  if (cue.alpha === null) return declined('the question states two significance levels')
  const named = namedGroups(g.filters)
  const subjects = [...new Set(g.subjects.filter((m) => !onlyColumnWord(g, m)).map((m) => m.column))].filter(
    (column) => column !== named?.column,
  )
  const by = g.byMention?.column ?? null
  let roles = rolesOf(cue.kind, named, subjects, g.filters, by)
  // A flag named once ("with the express flag") reads as a condition; in a test between groups it is the grouping.
  const flags = g.filters.filter((f) => namedValue(f) !== null && f.column !== named?.column && categorical(f.column))
  if (typeof roles === 'string' && flags.length > 0) {
    const unflagged = g.filters.filter((f) => !flags.includes(f))
    roles = rolesOf(cue.kind, named, [...subjects, ...flags.map((f) => f.column)], unflagged, by)
  }
  if (typeof roles === 'string') return declined(roles)
  const { columns, filters, groups } = roles

  const verdict = chosenVerdict(g, cue.kind)
  if (typeof verdict === 'string') return declined(verdict)
  // What a test between groups answers; other statistics asked beside it are declined by the slots or here.
  const others = g.cues.statistics.requested.filter((c) => !TEST_STATISTICS.includes(c.stat) && c.stat !== 'mean')
  if (g.cues.slots.length === 0 && others.length > 0)
    return declined(`the question asks for the ${others[0]?.stat} beside the test; ask for it alone`)
  const items: StatisticItem[] = TEST_STATISTICS.map((stat) => ({
    slot: stat === 'pvalue' ? 'p_value' : stat === 'test_statistic' ? 'test_statistic' : 'verdict',
    stat,
    columns,
    percentile: null,
    ...(stat === 'verdict' ? { verdict } : {}),
  }))
  const slotted = g.cues.slots.length > 0 ? slotOwners(g.cues.slots, items, g.cues.slotOptions) : items
  if (typeof slotted === 'string') return declined(slotted)
  const test: StatisticsTest = {
    kind: cue.kind,
    alpha: cue.alpha,
    alphaSaid: cue.alphaSaid,
    ...(groups ? { groups } : {}),
  }
  const method: StatisticsMethod = {
    population: false,
    biasedMoments: false,
    correlation: 'pearson',
    outliers: null,
    decimals: g.cues.decimals,
    test,
  }
  const single = slotted.length === 1 ? slotted[0] : undefined
  return {
    kind: 'intent',
    intent: {
      table: g.table,
      filters: [...filters],
      shape: { kind: 'statistics', items: slotted, method, group: null },
      check: null,
      resultType: !single ? 'values' : single.stat === 'verdict' ? 'category' : 'number',
    },
  }
}

function onlyOne<T>(values: readonly T[]): T | undefined {
  return values.length === 1 ? values[0] : undefined
}
