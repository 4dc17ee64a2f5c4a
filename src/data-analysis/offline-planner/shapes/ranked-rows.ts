import type { ColumnSchema } from '../../types.js'
import { numericOf } from '../column-traits.js'
import type { Superlative } from '../cues/types.js'
import type { Grounding } from '../grounding/grounding.js'
import { FILLERS } from '../lexicon/vague-words.js'

/** Words between "of" and the superlative that do not change what is ranked ("of the top 3 most …"). */
const BEFORE_SUPERLATIVE = new Set(['the', 'top', 'les', 'le', 'la'])

/**
 * "the city of the most expensive order", "the sellers of the 3 most reviewed items": the
 * superlative and its column qualify a noun no column names (the table's rows), and what is asked
 * for is that row's attribute ("… of the"), so single rows are ranked, not a category's total.
 */
export function ranksNamedRows(g: Grounding, superlative: Superlative, order: ColumnSchema): boolean {
  const { tokens } = g
  let before = superlative.index - 1
  while (before >= 0 && (BEFORE_SUPERLATIVE.has(tokens[before]?.text ?? '') || g.cues.used.has(before))) before--
  if (tokens[before]?.text !== 'of' && tokens[before]?.text !== 'de') return false
  const measure = g.mentions.find((m) => m.start > superlative.index && numericOf(m) === order)
  if (!measure) return false
  const next = measure.end + 1
  const noun = tokens[next]
  if (!noun || noun.number !== null || !/^\p{L}+$/u.test(noun.text) || FILLERS.has(noun.text)) return false
  const taken = (span: { start: number; end: number }) => span.start <= next && next <= span.end
  return !g.cues.used.has(next) && !g.mentions.some(taken) && !g.valueMentions.some(taken)
}
