import {
  AND_WORDS,
  BETWEEN_WORDS,
  COMPARATOR_GAP_WORDS,
  COMPARATORS,
  type Comparison,
  NEGATIVE_WORDS,
  ORDINAL_RANGE_JOINERS,
  POSITIVE_WORDS,
} from '../lexicon/comparisons.js'
import { ordinalValue, type Token } from '../tokenise.js'
import { phraseAt } from './phrases.js'
import type { Comparator, RangeCue } from './types.js'

/** "negative", "positive": a comparison with zero, the word standing for its number. */
export function signComparatorAt(tokens: readonly Token[], i: number): Comparator | null {
  const text = tokens[i]?.text ?? ''
  if (NEGATIVE_WORDS.has(text)) return { op: '<', value: 0, percent: false, start: i, numberIndex: i, hints: [] }
  if (POSITIVE_WORDS.has(text)) return { op: '>', value: 0, percent: false, start: i, numberIndex: i, hints: [] }
  return null
}

/** "1st to 3rd", "5e au 10e" from `i`; spelled-out ordinals alone ("first and second") are not a range. */
export function ordinalRangeAt(tokens: readonly Token[], i: number): RangeCue | null {
  const low = ordinalValue(tokens[i]?.text ?? '')
  const high = ordinalValue(tokens[i + 2]?.text ?? '')
  if (low === null || high === null || !ORDINAL_RANGE_JOINERS.has(tokens[i + 1]?.text ?? '')) return null
  if (!/\d/.test((tokens[i]?.text ?? '') + (tokens[i + 2]?.text ?? ''))) return null
  return { low: Math.min(low, high), high: Math.max(low, high), start: i, end: i + 2 }
}

/** "between 5 and 10" around the number `value` at `i`. */
export function betweenAt(tokens: readonly Token[], i: number, value: number): RangeCue | null {
  const high = tokens[i + 2]?.number ?? null
  if (!BETWEEN_WORDS.has(tokens[i - 1]?.text ?? '') || !AND_WORDS.has(tokens[i + 1]?.text ?? '') || high === null)
    return null
  return { low: Math.min(value, high), high: Math.max(value, high), start: i - 1, end: i + 2 }
}

export interface ComparatorPhrase {
  readonly words: readonly string[]
  readonly op: Comparison
  /** Its first token. */
  readonly start: number
}

/** The comparator phrase right before the number at `i`; an article or a word like "score" may sit between. */
export function comparatorBefore(tokens: readonly Token[], i: number): ComparatorPhrase | null {
  let gapStart = i
  while (gapStart > 0 && COMPARATOR_GAP_WORDS.has(tokens[gapStart - 1]?.text ?? '') && i - gapStart < 2) gapStart--
  for (const [phraseText, op] of COMPARATORS) {
    const words = phraseText.split(' ')
    for (const end of [gapStart, i]) {
      if (phraseAt(tokens, end - words.length, words)) return { words, op, start: end - words.length }
    }
  }
  return null
}
