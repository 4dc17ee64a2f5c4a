import { isNumeric } from './columns.js'
import type { Grounding } from './grounding/grounding.js'
import type { Intent } from './intent.js'
import { intentColumns } from './intent-columns.js'
import { type Declined, declined } from './recognition.js'
import { spanWords } from './unread-words.js'

/**
 * "the lowest host response rates": the words name `host_response_rate` best, a text column, and
 * `host_listings_count` less well (by "host"); the plan would rank the numeric column in its
 * place. The column the words name best holds no numbers, so the one computed on is a stand-in
 * the question did not name: the planner declines and says which column the words name.
 */
export function numericStandIn(g: Grounding, intent: Intent): Declined | null {
  const used = new Set(intentColumns(intent))
  for (const m of g.mentions) {
    if (m.start < 0 || used.has(m.column.name) || isNumeric(m.column)) continue
    const standIn = m.weaker?.find((c) => isNumeric(c) && used.has(c.name))
    if (!standIn) continue
    return declined(
      `"${spanWords(g, m.start, m.end)}" names "${m.column.name}", which holds no numbers; the plan would compute on "${standIn.name}", which these words name less well`,
    )
  }
  return null
}
