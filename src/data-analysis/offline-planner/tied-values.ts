import type { Grounding } from './grounding/grounding.js'
import type { Intent } from './intent.js'
import { intentColumns } from './intent-columns.js'
import { type Declined, declined } from './recognition.js'
import { spanWords } from './unread-words.js'

/**
 * "How many respondents answered **often**?" where `often` is a value of several columns and the
 * question names none of them: the column with the fewest distinct values would be taken, a coin
 * toss between conditions on different questions of a survey. The planner declines and names them.
 */
export function tiedValue(g: Grounding, intent: Intent): Declined | null {
  const used = new Set(intentColumns(intent))
  const tied = g.valueMentions.find((v) => (v.ties?.length ?? 0) > 0 && used.has(v.column.name))
  const other = tied?.ties?.[0]
  if (!tied || !other) return null
  return declined(
    `"${spanWords(g, tied.start, tied.end)}" is a value of "${tied.column.name}" and of "${other.name}" alike, and the question names neither`,
  )
}
