import { AGGREGATE_WORDS_BEFORE_COUNT, COUNT_PHRASES } from '../lexicon/computations.js'
import { SUPERLATIVES } from '../lexicon/superlatives.js'
import type { Token } from '../tokenise.js'
import { findPhrase, phraseAt, span } from './phrases.js'
import type { Reading } from './types.js'

/** Where the count phrase ("how many", "nombre de") starts, or -1. */
export function readCount(tokens: readonly Token[]): Reading<number> {
  const index = findPhrase(tokens, COUNT_PHRASES)
  const before = tokens[index - 1]?.text ?? ''
  // "the highest number of goals", "the average number of …": a measure, not a count
  if (index > 0 && (SUPERLATIVES[before] !== undefined || AGGREGATE_WORDS_BEFORE_COUNT.has(before))) {
    return { found: -1, used: [] }
  }
  if (index < 0) return { found: -1, used: [] }
  const phrase = COUNT_PHRASES.find((p) => phraseAt(tokens, index, p.split(' '))) ?? ''
  return { found: index, used: span(index, index + phrase.split(' ').length - 1) }
}
