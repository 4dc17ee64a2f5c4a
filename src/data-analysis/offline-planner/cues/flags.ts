import { DISTINCT_WORDS, NON_EMPTY_PHRASES, SHARE_PHRASES, UNSUPPORTED_WORDS } from '../lexicon/computations.js'
import { ALL_WORDS, ANY_WORDS, EXISTENCE_PHRASES, NO_ONE_PHRASES } from '../lexicon/question-forms.js'
import { type Token, words } from '../tokenise.js'
import { findPhrase, span } from './phrases.js'
import type { Reading } from './types.js'

/** The first computation the planner does not do ("correlation", "predict"), or null; `answered`: phrases a recognised computation answers. */
export function readUnsupported(tokens: readonly Token[], answered: ReadonlySet<string>): string | null {
  const text = ` ${tokens.map((token) => token.text).join(' ')} `
  return (
    UNSUPPORTED_WORDS.find((phrase) => !answered.has(phrase) && text.includes(` ${words(phrase).join(' ')} `)) ?? null
  )
}

/** "what percentage of", "quelle part de". */
export function readShare(tokens: readonly Token[]): Reading<boolean> {
  const at = findPhrase(tokens, SHARE_PHRASES)
  return at >= 0 ? { found: true, used: span(at, at + 1) } : { found: false, used: [] }
}

/** "unique", "different": never part of a column's name. */
export function readDistinct(tokens: readonly Token[]): Reading<boolean> {
  const used = tokens.flatMap((token, index) => (DISTINCT_WORDS.has(token.text) ? [index] : []))
  return { found: used.length > 0, used }
}

/** "all", "every" near the start: a yes/no question about every row. */
export function readAll(tokens: readonly Token[]): boolean {
  return tokens.some((token, index) => ALL_WORDS.has(token.text) && index < 6)
}

/** "any", "is there": existence rather than every row. */
export function readAny(tokens: readonly Token[]): boolean {
  return tokens.some((token) => ANY_WORDS.has(token.text)) || findPhrase(tokens, EXISTENCE_PHRASES) >= 0
}

/** "non-empty", "filled": the values of a column, not its rows. */
export function readNonEmpty(tokens: readonly Token[]): boolean {
  return findPhrase(tokens, NON_EMPTY_PHRASES) >= 0
}

/** "there is no …", "nobody …": the existence the question asks about is negated. */
export function readNegated(tokens: readonly Token[]): boolean {
  return findPhrase(tokens, NO_ONE_PHRASES) >= 0
}
