import { entityColumn } from './column-traits.js'
import type { Grounding } from './grounding/grounding.js'
import type { Intent } from './intent.js'
import { intentColumns } from './intent-columns.js'
import { ENTITY_HEADER } from './lexicon/headers.js'
import { type Declined, declined } from './recognition.js'
import { fold, splitHeader } from './tokenise.js'

/**
 * "Who is the customer with the highest income?" on a table without a name column: "who" is
 * answered from the text column with the most different values, a guess (a date kept as text, a
 * free-text review). When no header says it holds names and the question names no column for
 * the answer, the planner declines.
 */
export function guessedEntity(g: Grounding, intent: Intent): Declined | null {
  if (!g.who) return null
  const entity = entityColumn(g.table)
  if (!entity || ENTITY_HEADER.test(fold(splitHeader(entity.name)))) return null
  if (!intentColumns(intent).includes(entity.name)) return null
  if (g.mentions.some((m) => m.column === entity)) return null
  return declined(
    `the question asks who, and no column of the table is named or holds names ("${entity.name}" would be a guess)`,
  )
}
