import type { ColumnSchema } from '../../types.js'
import type { OutlierMethod, StatisticCue } from '../cues/types.js'
import type { Grounding } from '../grounding/grounding.js'
import { REMOVAL_NEGATIONS, REMOVAL_WORDS } from '../lexicon/statistics.js'
import { singleColumn } from './statistic-columns.js'

/** Statistics after removing a column's outliers (docs/data-analysis.md, "Statistics"): which column, by which rule. */

/**
 * The column whose outliers are removed before the statistics, with the rule: the column named
 * with the outlier words. Declined per group and over joined tables.
 */
export function outlierRemoval(
  g: Grounding,
  cue: StatisticCue | undefined,
  subjects: Grounding['subjects'],
  group: ColumnSchema | null,
): { column: ColumnSchema; rule: OutlierMethod } | string {
  const rule = g.cues.statistics.outliers
  if (!rule || !cue) return 'the question removes outliers without saying by which rule'
  if (group) return 'statistics after removing outliers are not computed per group'
  if (g.table.sqlName.startsWith('(')) return 'statistics after removing outliers are not computed over joined tables'
  const column = singleColumn(cue, subjects)
  return column ? { column, rule } : 'the question removes outliers but names no column to find them in'
}

/** "remove", "excluding", never negated ("do not remove any data", "without removing"). */
export function removesRows(g: Grounding): boolean {
  return g.tokens.some(
    (token, i) =>
      REMOVAL_WORDS.has(token.text) &&
      !g.tokens.slice(Math.max(0, i - 2), i).some((before) => REMOVAL_NEGATIONS.has(before.text)),
  )
}
