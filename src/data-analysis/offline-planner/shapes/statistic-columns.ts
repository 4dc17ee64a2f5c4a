import type { ColumnSchema } from '../../types.js'
import { numericOf } from '../column-traits.js'
import type { ColumnMention } from '../columns.js'
import { namedBySlots, wordsOf } from '../cues/slots.js'
import type { StatisticCue } from '../cues/types.js'
import type { Grounding } from '../grounding/grounding.js'
import {
  EXPLANATORY_WORDS,
  GROUPING_WORDS,
  PERIODIC_GROWTH_WORDS,
  RATE_UNITS,
  type Statistic,
  TIME_HEADER,
} from '../lexicon/statistics.js'
import { splitHeader } from '../tokenise.js'

/**
 * Which columns a statistics question's values are computed over: the measured column of each
 * statistic, the pair of a correlation or regression, the column grouped by, the time column of a
 * growth (docs/data-analysis.md, "Statistics").
 */

/** Words allowed between "for each" and the column it names ("for each passenger class"). */
const GROUP_GAP = 3

/** Statistics of two columns: the explained one first. */
export const PAIRED: ReadonlySet<Statistic> = new Set(['correlation', 'covariance', 'slope', 'intercept', 'r2'])
export const REGRESSION: readonly Statistic[] = ['slope', 'intercept', 'r2']
/** Statistics of any column, text included. */
const ANY_TYPE: ReadonlySet<Statistic> = new Set(['mode', 'missing'])

/** The words that say "a column" without naming one. */
const COLUMN_WORDS = new Set(['column', 'columns', 'col', 'colonne', 'colonnes', 'field', 'variable'])

/** A mention made of nothing but the word "column" ("the Limit and Balance columns" naming a header "Column 1"). */
export function onlyColumnWord(g: Grounding, mention: ColumnMention): boolean {
  return g.tokens.slice(mention.start, mention.end + 1).every((token) => COLUMN_WORDS.has(token.text))
}

/**
 * The column "for each …", "per …" or "by …" groups by: the one named right after those words.
 * Null when the question does not group; undefined when it groups by something it does not name.
 */
export function groupColumn(g: Grounding): ColumnSchema | null | undefined {
  if (g.byMention) return g.byMention.column
  // "GDP per capita" is a rate, not a grouping: a grouping word inside a column's name or before a rate's unit is none.
  const at = g.tokens.findIndex(
    (token, i) =>
      GROUPING_WORDS.has(token.text) &&
      !RATE_UNITS.has(g.tokens[i + 1]?.text ?? '') &&
      !g.mentions.some((m) => m.start <= i && i <= m.end),
  )
  if (at < 0) return null
  const next = g.mentions.find((m) => m.start > at && m.start <= at + GROUP_GAP && !onlyColumnWord(g, m))
  return next ? next.column : undefined
}

/**
 * The column a growth runs along: a time column the question names, else the table's only
 * date column. A growth over periods ("annual growth", "CAGR") has several readings: declined.
 */
export function timeColumn(
  g: Grounding,
  subjects: readonly ColumnMention[],
  measured: ColumnSchema,
): ColumnSchema | string {
  if (g.tokens.some((token) => PERIODIC_GROWTH_WORDS.has(token.text)))
    return 'a growth rate per period (annual, compound) has several readings; ask for the change from the first to the last'
  const isTime = (column: ColumnSchema) =>
    column.type === 'date' || column.type === 'timestamp' || TIME_HEADER.test(splitHeader(column.name))
  const named = subjects.map((m) => m.column).find((column) => column !== measured && isTime(column))
  if (named) return named
  const dated = g.table.columns.filter((column) => column.type === 'date' || column.type === 'timestamp')
  if (dated.length === 1 && dated[0]) return dated[0]
  return 'the question asks for a growth but names no time column to order the rows by'
}

/** A statistic word inside a column's name ("Mean Temp") names the column, not a statistic. */
export function insideMention(cue: StatisticCue, mentions: readonly ColumnMention[]): boolean {
  return mentions.some((m) => m.start <= cue.index && cue.end <= m.end)
}

/** The column a mention gives a statistic: a numeric one, or any column for a mode or missing values. */
function columnFor(stat: Statistic, mention: ColumnMention): ColumnSchema | null {
  return ANY_TYPE.has(stat) ? (numericOf(mention) ?? mention.column) : numericOf(mention)
}

/** Distinct columns of the mentions, in question order. */
export function distinctColumns(mentions: readonly ColumnMention[], stat: Statistic): ColumnSchema[] {
  const columns: ColumnSchema[] = []
  for (const mention of mentions) {
    const column = columnFor(stat, mention)
    if (column && !columns.includes(column)) columns.push(column)
  }
  return columns
}

/**
 * The column a one-column statistic is about: the only one the question names, else the first
 * named after its words ("the mean and the median of Fare"), else the last named before them.
 */
export function singleColumn(cue: StatisticCue, mentions: readonly ColumnMention[]): ColumnSchema | null {
  const all = distinctColumns(mentions, cue.stat)
  if (all.length <= 1) return all[0] ?? null
  const after = mentions.find((m) => m.start > cue.end && columnFor(cue.stat, m))
  if (after) return columnFor(cue.stat, after)
  const before = [...mentions].reverse().find((m) => m.end < cue.index && columnFor(cue.stat, m))
  return before ? columnFor(cue.stat, before) : null
}

/**
 * The two columns of a correlation or regression: the two named after its words, else the two the
 * question names. For a regression the explained column comes first, which only "Y on X"
 * ("regress price on area", "price against area") says; otherwise the planner declines.
 */
export function pairedColumns(
  g: Grounding,
  subjects: readonly ColumnMention[],
  cue: StatisticCue,
): [ColumnSchema, ColumnSchema] | string {
  const after = subjects.filter((m) => m.start > cue.end && numericOf(m))
  const source = distinctColumns(after, cue.stat).length >= 2 ? after : subjects
  const columns = distinctColumns(source, cue.stat)
  if (columns.length !== 2) {
    return `the ${cue.stat} needs two numeric columns, and the question names ${columns.length === 0 ? 'none' : columns.map((c) => `"${c.name}"`).join(', ')}`
  }
  const [first, second] = columns as [ColumnSchema, ColumnSchema]
  if (!REGRESSION.includes(cue.stat)) return [first, second]
  const firstMention = source.find((m) => numericOf(m) === first)
  const secondMention = source.find((m) => numericOf(m) === second)
  const between = g.tokens.slice((firstMention?.end ?? 0) + 1, secondMention?.start ?? 0)
  if (between.some((token) => EXPLANATORY_WORDS.has(token.text))) return [first, second]
  return 'the question does not say which column the regression explains ("Y on X")'
}

/** A pair's name as one word (`X` and `Y` → `xy`), as an answer format writes it (`correlation_XY`). */
export function joinedName(columns: readonly ColumnSchema[]): string {
  return columns.map((column) => wordsOf(column.name).at(-1) ?? '').join('')
}

/**
 * "The correlations between X and Y, and between X and Z" with slots `@correlation_XY[…]
 * @correlation_XZ[…]`: each slot that asks for the statistic names its two columns, among the
 * numeric columns the question names, as one word (`xy`) or as two of its words. Null unless
 * every such slot names exactly one pair.
 */
export function slotPairs(
  subjects: readonly ColumnMention[],
  cue: StatisticCue,
  slots: readonly string[],
): [ColumnSchema, ColumnSchema][] | null {
  const columns = distinctColumns(subjects, cue.stat)
  const pairs: [ColumnSchema, ColumnSchema][] = []
  for (const slot of slots.filter((name) => namedBySlots([name], cue.stat))) {
    const words = new Set(wordsOf(slot))
    const named = columns.flatMap((first, i) =>
      columns.slice(i + 1).flatMap((second): [ColumnSchema, ColumnSchema][] => {
        const both = [first, second]
        const joined = words.has(joinedName(both)) || words.has(joinedName([second, first]))
        const apart = both.every((column) =>
          wordsOf(column.name).every((word, k, all) => k === all.length - 1 || words.has(word)),
        )
        return joined || apart ? [[first, second]] : []
      }),
    )
    if (named.length !== 1) return null
    pairs.push(named[0] as [ColumnSchema, ColumnSchema])
  }
  return pairs.length > 0 ? pairs : null
}
