import { isCategory, isFlag } from './column-traits.js'
import type { Grounding } from './grounding/grounding.js'
import type { Intent } from './intent.js'
import { type Declined, declined } from './recognition.js'

/**
 * "the three players with the most rebounds" on a table of player-seasons: the player column
 * repeats, so each player's total would be ranked, while the question may as well rank the rows
 * (one season each). It says neither "total" ("sum", "combined", "overall") nor "single". A
 * column of a few shared values (a team, a weight class) is a group whose total is meant; many
 * repeated values are one entity recorded on several rows, and which reading is meant is unclear,
 * so the planner declines. A 0/1 column's total counts the flagged rows, which is meant either way.
 */
export function unaskedTotal(g: Grounding, intent: Intent): Declined | null {
  const s = intent.shape
  if (s.kind !== 'group' || s.fn !== 'sum' || !s.measure || s.returnMetric) return null
  if (isFlag(s.measure) || isCategory(s.group, g.table)) return null
  if (g.aggregates.some((a) => a.fn === 'sum')) return null
  return declined(
    `"${s.group.name}" repeats over rows, and the question does not say whether it ranks one row's "${s.measure.name}" or each one's total`,
  )
}
