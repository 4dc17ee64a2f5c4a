import type { TableSchema } from '../../types.js'
import { slotsNameStatistics } from '../cues/slots.js'
import type { Cues } from '../cues/types.js'
import { type Declined, declined, isDeclined } from '../recognition.js'
import { readConditions } from './conditions.js'
import type { Grounding } from './grounding.js'
import { findMentions } from './mentions.js'
import { readRoles } from './roles.js'
import { chooseTable } from './table.js'

/**
 * Maps the question onto one table: the columns and values its words name, the table they name
 * most (or the join of two), the conditions they set on its rows, and the roles the rest play.
 * Declines when a word that sets a condition cannot be tied to a column: it never guesses one.
 */
export function ground(cues: Cues, tables: readonly TableSchema[]): Grounding | Declined {
  if (tables.length === 0) return declined('no table is loaded')
  // "Perform a distribution analysis…" whose answer format asks only for statistics asks for those.
  const descriptive = cues.unsupported === 'distribution' && slotsNameStatistics(cues.slots)
  // Normality asked without a test the planner computes: the tests disagree near the level, so which one is said.
  if (
    cues.test?.kind === 'unnamed' &&
    !descriptive &&
    !/^(?:kolmogorov|anderson|lilliefors|jarque)/.test(cues.unsupported ?? '')
  )
    return declined(
      "the question asks whether values are normally distributed without naming the test; the planner computes Shapiro-Wilk and D'Agostino's normaltest",
    )
  if (cues.unsupported && !descriptive)
    return declined(`the question asks for "${cues.unsupported}", which the offline planner does not compute`)
  const named = findMentions(cues, tables)
  // "Number of Stores", "Average Price": the cue words of a column's name are not cues
  const inColumn = (index: number) => index >= 0 && named.columns.some((m) => m.start <= index && index <= m.end)
  const aggregates = cues.aggregates.filter((a) => !inColumn(a.index))
  const count = inColumn(cues.count) ? -1 : cues.count

  const choice = chooseTable(named, tables)
  if (isDeclined(choice)) return choice
  if (choice.kind === 'joined') return ground(cues, [choice.table])
  const { table } = choice
  const mentions = named.columns.filter((m) => m.table === table)
  const valueMentions = named.values.filter((v) => v.table === table)
  const conditions = readConditions({
    cues,
    tokens: cues.tokens,
    table,
    mentions,
    values: valueMentions,
    searched: named.searched,
    count,
    aggregates,
  })
  if (isDeclined(conditions)) return conditions
  return {
    cues,
    tokens: cues.tokens,
    table,
    mentions,
    valueMentions,
    filters: conditions.filters,
    valueFilters: conditions.valueFilters,
    count,
    aggregates,
    checkComparator: conditions.checkComparator,
    checkMeasure: conditions.checkMeasure,
    countComparator: conditions.countComparator,
    rowsPerGroup: conditions.rowsPerGroup,
    ...readRoles(cues, mentions, conditions.consumed, aggregates),
  }
}
