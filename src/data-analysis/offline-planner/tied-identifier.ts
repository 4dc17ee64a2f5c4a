import { isIdLike } from './column-traits.js'
import type { Grounding } from './grounding/grounding.js'
import type { Intent } from './intent.js'
import { intentColumns } from './intent-columns.js'
import { type Declined, declined } from './recognition.js'

/** Answers that are a column's own values (names, categories), not a number computed from them. */
const VALUE_RESULTS = new Set(['category', 'list[category]'])

/**
 * "Who are the sellers …" names `seller_id` and `seller_name` exactly as well: the shorter header
 * wins the tie, and an identifier is then answered where a name was asked for. Counting them
 * is safe (one per subject either way); answering with their values is not, so the planner
 * declines and says which columns the word named.
 */
export function tiedIdentifierAnswer(g: Grounding, intent: Intent): Declined | null {
  if (!VALUE_RESULTS.has(intent.resultType)) return null
  const used = new Set(intentColumns(intent))
  for (const mention of g.mentions) {
    if (!used.has(mention.column.name) || !isIdLike(mention.column)) continue
    const named = mention.ties?.find((column) => !isIdLike(column))
    if (!named) continue
    const words = g.tokens
      .slice(mention.start, mention.end + 1)
      .map((t) => t.text)
      .join(' ')
    return declined(
      `"${words}" names the identifier "${mention.column.name}" and "${named.name}" equally, and the question asks for values`,
    )
  }
  return null
}
