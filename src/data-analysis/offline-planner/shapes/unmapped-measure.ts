import type { Superlative } from '../cues/types.js'
import type { Grounding } from '../grounding/grounding.js'
import { ROW_COUNT_NOUNS } from '../lexicon/limits.js'
import { QUANTITY_SUPERLATIVES } from '../lexicon/superlatives.js'
import { FILLERS, GENERIC_WORDS } from '../lexicon/vague-words.js'
import { isTableRowWord } from '../row-noun.js'

/**
 * The word a superlative ranks by when no column took it: "the post with the most words" ranks
 * by a count the table may not hold, and "the highest shipping prices" by something the later
 * column `price` is not. Reading either as the number of rows or as that later column answers
 * another question. Null when the word right after the superlative
 * is a column's, a value's, a cue's, a vague word or no plain word.
 */
export function unmappedRankedWord(g: Grounding, superlative: Superlative): string | null {
  if (superlative.mode) return null
  // only the word right after it: "the most in the dataset", "the most to the list" rank by rows
  let at = superlative.index + 1
  // "the lowest minimum temperature", "the highest average price": a second superlative or an
  // aggregate word says how, the word after it what is ranked
  const how = (i: number) => g.aggregates.some((a) => a.index === i) || g.cues.superlatives.some((s) => s.index === i)
  while (how(at)) at++
  const token = g.tokens[at]
  if (!token || token.number !== null || !/^\p{L}+$/u.test(token.text) || g.cues.used.has(at)) return null
  // "the highest number of …" counts rows
  if (GENERIC_WORDS.has(token.text) || FILLERS.has(token.text)) return null
  // "the most entries", "the most Pokémon" (over `051_Pokemon.csv`): the rows themselves
  const quantity = QUANTITY_SUPERLATIVES.has(g.tokens[superlative.index]?.text ?? '')
  if (quantity && (ROW_COUNT_NOUNS.has(token.text) || isTableRowWord(g.table, token.text))) return null
  const taken = (span: { start: number; end: number }) => span.start <= at && at <= span.end
  if (g.mentions.some(taken) || g.valueMentions.some(taken)) return null
  return token.text
}
