import type { ColumnSchema } from '../../types.js'
import { findPhrase } from '../cues/phrases.js'
import { namedBySlots } from '../cues/slots.js'
import type { StatisticCue } from '../cues/types.js'
import type { Grounding } from '../grounding/grounding.js'
import type { StatisticItem, StatisticsMethod } from '../intent.js'
import {
  EVERY_COLUMN_PHRASES,
  OWN_STATISTICS,
  REMAINING_WORDS,
  type Statistic,
  TEST_STATISTICS,
  WHOLE_TABLE_WORDS,
} from '../lexicon/statistics.js'
import { declined, type Recognition } from '../recognition.js'
import { aggregateOf } from '../statistics-sql.js'
import { outlierRemoval, removesRows } from './outlier-removal.js'
import {
  distinctColumns,
  groupColumn,
  insideMention,
  onlyColumnWord,
  PAIRED,
  pairedColumns,
  REGRESSION,
  singleColumn,
  slotPairs,
  timeColumn,
} from './statistic-columns.js'
import { slotOwners } from './statistic-slots.js'
import { testedItems } from './statistic-tests.js'

/** The name a value gets when no answer format names it. */
const SLOT_NAMES: Readonly<Record<Statistic, string>> = {
  mean: 'mean',
  median: 'median',
  mode: 'mode',
  std: 'standard_deviation',
  variance: 'variance',
  skewness: 'skewness',
  kurtosis: 'kurtosis',
  percentile: 'percentile',
  iqr: 'interquartile_range',
  missing: 'missing_values',
  correlation: 'correlation',
  covariance: 'covariance',
  outliers: 'outliers',
  slope: 'slope',
  intercept: 'intercept',
  r2: 'r_squared',
  min: 'minimum',
  max: 'maximum',
  sum: 'sum',
  range: 'range',
  growth: 'growth_percent',
  pvalue: 'p_value',
  test_statistic: 'test_statistic',
  verdict: 'verdict',
}

/** The statistics asked for, a regression asked as such made its slope, intercept and r², a test its p-value, statistic and verdict. */
function requestedCues(g: Grounding): StatisticCue[] {
  const { statistics, test } = g.cues
  const cues = statistics.requested.filter((cue) => !insideMention(cue, g.mentions))
  const regression = statistics.regression
  if (regression && !cues.some((cue) => REGRESSION.includes(cue.stat))) {
    cues.push(...REGRESSION.map((stat) => ({ ...regression, stat })))
  }
  if (test && test.kind !== 'unnamed') {
    const at = cues.find((cue) => cue.stat === 'pvalue') ?? { index: -1, end: -1, percentile: null }
    for (const stat of TEST_STATISTICS) {
      if (stat === 'test_statistic' && test.kind === 'correlation') continue
      if (!cues.some((cue) => cue.stat === stat)) cues.push({ ...at, stat })
    }
  }
  return cues.filter((cue) => !TEST_STATISTICS.includes(cue.stat) || (test && test.kind !== 'unnamed'))
}

/** Whether the answer format asks for a statistic: a verdict by a slot with two answers, the others by their words in the other slots' names. */
function namedByFormat(g: Grounding, stat: Statistic): boolean {
  const { slots, slotOptions } = g.cues
  if (stat === 'verdict') return slots.some((slot) => slotOptions.has(slot))
  return namedBySlots(
    slots.filter((slot) => !slotOptions.has(slot)),
    stat,
  )
}

/**
 * "The mean, median and standard deviation of Fare", "the Pearson correlation between Age and
 * Fare", "how many outliers (z-score above 3) in Price", "the 90th percentile of Income": named
 * statistics over the rows the conditions keep, one value each (docs/data-analysis.md,
 * "Statistics"). Declines rather than guess: a statistic with no column for it, a column named
 * but never used, a percentile without its number, outliers without their rule, a regression
 * whose explained column is not said, an answer format slot no statistic fills.
 */
export function recogniseStatistics(g: Grounding): Recognition | null {
  const { statistics, slots, decimals } = g.cues
  // With an answer format, what its slots name is what is asked ("ignore outliers" asks for none).
  const cues = requestedCues(g).filter((cue) => slots.length === 0 || namedByFormat(g, cue.stat))
  if (cues.length === 0) return null
  const kinds = new Set(cues.map((cue) => cue.stat))
  const own = [...kinds].some((stat) => OWN_STATISTICS.has(stat))
  if (!own && kinds.size < 2 && slots.length === 0) return null
  // A plain aggregate that ranks ("the month with the highest average") is another shape's.
  if (!own && (g.superlative || g.mostFrequent)) return null
  const everyColumn = missingInEveryColumn(g, cues)
  if (everyColumn) return everyColumn
  const group = groupColumn(g)
  if (group === undefined)
    return declined('the question asks for statistics per group without naming the column to group by')
  if (group && slots.length > 0) return declined('an answer format with statistics per group is not supported')
  if (statistics.kendall) return declined('Kendall correlation is not computed; Pearson and Spearman are')
  const subjects = g.subjects.filter((m) => !onlyColumnWord(g, m) && m.column !== group)
  // "Remove the outliers (z-score above 3) of X, then give the mean": the outlier words state the rule, not a count.
  // Only the outliers asked ("remove the outliers: how many are removed?"): they are counted, unless the rows left are asked.
  const removing = statistics.outliers !== null && removesRows(g)
  const onlyOutliers = cues.every((cue) => cue.stat === 'outliers')
  if (removing && onlyOutliers && g.tokens.some((t) => REMAINING_WORDS.has(t.text)))
    return declined('the rows left after removing the outliers are not counted; the outliers can be')
  const outlierCue = requestedCues(g).find((cue) => cue.stat === 'outliers')
  const removal = removing && !onlyOutliers ? outlierRemoval(g, outlierCue, subjects, group) : null
  if (typeof removal === 'string') return declined(removal)
  const computed = removal ? cues.filter((cue) => cue.stat !== 'outliers') : cues

  const items: StatisticItem[] = []
  for (const cue of computed) {
    if (cue.stat === 'percentile' && cue.percentile === null)
      return declined('the question asks for a percentile or quartile without saying which')
    if (cue.stat === 'outliers' && !statistics.outliers)
      return declined('the question asks for outliers without the rule that finds them (IQR or z-score)')
    let columns: readonly ColumnSchema[]
    if (TEST_STATISTICS.includes(cue.stat) && g.cues.test?.kind === 'correlation') {
      // The correlation's own columns, set once it is read.
      columns = []
    } else if (PAIRED.has(cue.stat)) {
      const pair = pairedColumns(g, subjects, cue)
      // More than two columns: an answer format may name the pairs, one per slot (`correlation_XY`).
      const pairs =
        typeof pair === 'string' && slots.length > 0 && !REGRESSION.includes(cue.stat)
          ? slotPairs(subjects, cue, slots)
          : null
      if (pairs) {
        for (const named of pairs) {
          const item = { slot: SLOT_NAMES[cue.stat], stat: cue.stat, columns: named, percentile: null }
          if (!items.some((known) => sameItem(known, item))) items.push(item)
        }
        continue
      }
      if (typeof pair === 'string') return declined(pair)
      columns = pair
    } else {
      const column = singleColumn(cue, subjects)
      if (!column) return declined(`the question asks for the ${cue.stat} but names no column to compute it on`)
      columns = [column]
      if (cue.stat === 'growth') {
        const time = timeColumn(g, subjects, column)
        if (typeof time === 'string') return declined(time)
        columns = [column, time]
      }
    }
    const item = { slot: SLOT_NAMES[cue.stat], stat: cue.stat, columns, percentile: cue.percentile }
    if (!items.some((known) => sameItem(known, item))) items.push(item)
  }

  const tested = testedItems(g, items)
  if (typeof tested === 'string') return declined(tested)
  const named = slots.length > 0 ? slotOwners(slots, tested.items, g.cues.slotOptions) : withDistinctNames(tested.items)
  if (typeof named === 'string') return declined(named)
  if (slots.length === 0) {
    const used = new Set([...named.flatMap((item) => item.columns), ...(removal ? [removal.column] : [])])
    const unused = distinctColumns(subjects, 'mean').filter((column) => !used.has(column))
    if (unused.length > 0)
      return declined(`the question names "${unused[0]?.name}" but asks for no statistic the planner could tie to it`)
  }
  const method: StatisticsMethod = {
    population: statistics.population ?? false,
    biasedMoments: statistics.biasedMoments,
    correlation: statistics.correlation,
    outliers: statistics.outliers,
    decimals,
    ...(tested.test ? { test: tested.test } : {}),
    ...(removal ? { withoutOutliers: removal } : {}),
  }
  const perGroupless = group ? named.find((item) => aggregateOf(item, method) === null) : undefined
  if (perGroupless) return declined(`the ${perGroupless.stat} is not computed per group; ask for one group at a time`)
  const single = named.length === 1 ? named[0] : undefined
  const resultType = group
    ? 'table'
    : !single
      ? 'values'
      : (single.stat === 'mode' && single.columns[0]?.type === 'text') || single.stat === 'verdict'
        ? 'category'
        : 'number'
  return {
    kind: 'intent',
    intent: {
      table: g.table,
      filters: [...g.filters],
      shape: { kind: 'statistics', items: named, method, group },
      check: null,
      resultType,
    },
  }
}

/**
 * "How many missing values are there in each column?": one count per column of the table, named
 * after it; "… in the dataset": one count over them all. Only when missing values are all that is
 * asked and no column is named.
 */
function missingInEveryColumn(g: Grounding, cues: readonly StatisticCue[]): Recognition | null {
  if (cues.length === 0 || cues.some((cue) => cue.stat !== 'missing')) return null
  if (g.subjects.some((m) => !onlyColumnWord(g, m))) return null
  const perColumn = findPhrase(g.tokens, EVERY_COLUMN_PHRASES) >= 0
  const whole = !perColumn && g.tokens.some((token) => WHOLE_TABLE_WORDS.has(token.text))
  if (!perColumn && !whole) return null
  const columns = g.table.columns
  const items: StatisticItem[] = perColumn
    ? columns.map((column) => ({ slot: column.name, stat: 'missing', columns: [column], percentile: null }))
    : [{ slot: 'missing_values', stat: 'missing', columns, percentile: null }]
  const method: StatisticsMethod = {
    population: false,
    biasedMoments: false,
    correlation: 'pearson',
    outliers: null,
    decimals: null,
  }
  return {
    kind: 'intent',
    intent: {
      table: g.table,
      filters: [...g.filters],
      shape: { kind: 'statistics', items, method, group: null },
      check: null,
      resultType: perColumn ? 'values' : 'number',
    },
  }
}

function sameItem(a: StatisticItem, b: StatisticItem): boolean {
  return (
    a.stat === b.stat &&
    a.percentile === b.percentile &&
    a.columns.length === b.columns.length &&
    a.columns.every((column, i) => column === b.columns[i])
  )
}

/** Names without an answer format: the statistic's, with the percentile or the column when two values share it. */
function withDistinctNames(items: readonly StatisticItem[]): StatisticItem[] {
  return items.map((item) => {
    const base = item.stat === 'percentile' ? `percentile_${item.percentile}` : item.slot
    const shared = items.filter(
      (other) =>
        other !== item && (other.stat === 'percentile' ? `percentile_${other.percentile}` : other.slot) === base,
    )
    const suffix = shared.length > 0 ? `_${item.columns.map((column) => column.name).join('_')}` : ''
    return { ...item, slot: `${base}${suffix}` }
  })
}
