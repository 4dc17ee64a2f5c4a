import { isWhitespace } from '../../lib/whitespace.js'
import { sentenceSegments } from '../../text/segments.js'
import { countTokens, countTokensWithin } from './tokens.js'

/** Longest run without spaces that is counted whole; longer ones are cut by bytes (BPE is quadratic in a run). */
const LONG_RUN = 100

/** Whether `text` has more than LONG_RUN code units in a row that are not whitespace (/\S{101}/, in one pass). */
function hasLongRun(text: string): boolean {
  let run = 0
  for (let i = 0; i < text.length; i++) {
    if (isWhitespace(text.charCodeAt(i))) run = 0
    else if (++run > LONG_RUN) return true
  }
  return false
}

/**
 * Tokens of `text` when it fits in `maxTokens`; else infinity: without counting when it is
 * certainly too long or holds a run without spaces too long to count quickly, else as soon as the
 * count passes `maxTokens`. The caller then cuts it.
 */
export function measure(text: string, maxTokens: number): number {
  if (text.length > maxTokens * 8 || hasLongRun(text)) return Number.POSITIVE_INFINITY
  return countTokensWithin(text, maxTokens)
}

const sentenceSegmenter = new Intl.Segmenter(undefined, { granularity: 'sentence' })

/** The sentences of a text, trimmed, lazily (a huge paragraph is never copied whole). */
export function* sentences(text: string): Generator<string> {
  for (const { segment } of sentenceSegments(sentenceSegmenter, text)) {
    const sentence = segment.trim()
    if (sentence) yield sentence
  }
}

/**
 * A word (or a run without spaces, such as CJK text or an encoded blob) longer than the budget, cut
 * into pieces of at most `maxTokens` UTF-8 bytes: every token holds at least one byte, so each
 * piece fits without being counted (counting long runs is slow).
 */
function* splitLongWord(word: string, maxTokens: number): Generator<string> {
  let piece = ''
  let bytes = 0
  for (const char of word) {
    const size = Buffer.byteLength(char)
    if (piece && bytes + size > maxTokens) {
      yield piece
      piece = ''
      bytes = 0
    }
    piece += char
    bytes += size
  }
  if (piece) yield piece
}

/** A sentence longer than the budget, cut between words into pieces that fit. */
function* splitLongSentence(sentence: string, maxTokens: number): Generator<string> {
  let current: string[] = []
  let currentTokens = 0
  for (const word of sentence.split(/\s+/)) {
    if (!word) continue
    const tokens = measure(` ${word}`, maxTokens)
    if (tokens > maxTokens) {
      if (current.length) yield current.join(' ')
      current = []
      currentTokens = 0
      yield* splitLongWord(word, maxTokens)
      continue
    }
    if (current.length && currentTokens + tokens > maxTokens) {
      yield* fitted(current.join(' '), maxTokens)
      current = []
      currentTokens = 0
    }
    current.push(word)
    currentTokens += tokens
  }
  if (current.length) yield* fitted(current.join(' '), maxTokens)
}

/** Word token counts are summed, so a joined piece can be off by one: re-split what overflows. */
function* fitted(piece: string, maxTokens: number): Generator<string> {
  if (countTokens(piece) <= maxTokens) {
    yield piece
    return
  }
  const words = piece.split(' ')
  const half = Math.ceil(words.length / 2)
  if (words.length < 2) {
    yield* splitLongWord(piece, maxTokens)
    return
  }
  yield* fitted(words.slice(0, half).join(' '), maxTokens)
  yield* fitted(words.slice(half).join(' '), maxTokens)
}

/** A piece of text with its length in tokens. */
export interface Measured {
  readonly text: string
  readonly tokens: number
}

/**
 * Text cut at sentence boundaries (then between words, then inside over-long words) into pieces
 * of at most `maxTokens` tokens each, in order. Pieces are sentences: the caller packs them.
 */
export function* splitToBudget(text: string, maxTokens: number): Generator<Measured> {
  for (const sentence of sentences(text)) {
    const tokens = measure(sentence, maxTokens)
    if (tokens <= maxTokens) {
      yield { text: sentence, tokens }
      continue
    }
    for (const piece of splitLongSentence(sentence, maxTokens)) yield { text: piece, tokens: countTokens(piece) }
  }
}

/** The start of `text` within `maxTokens` tokens, cut between words. */
export function truncateToTokens(text: string, maxTokens: number): string {
  if (measure(text, maxTokens) <= maxTokens) return text
  for (const piece of splitLongSentence(text, maxTokens)) return piece
  return ''
}

/**
 * The end of `text` within `maxTokens` tokens: whole trailing sentences when they fit, else the
 * trailing words of the last sentence. Used for the overlap between consecutive chunks.
 */
export function tailWithin(text: string, maxTokens: number): string {
  if (maxTokens <= 0) return ''
  const all = [...sentences(text)]
  const taken: string[] = []
  let used = 0
  for (let i = all.length - 1; i >= 0; i--) {
    const sentence = all[i] ?? ''
    const tokens = countTokens(sentence) + (taken.length ? 1 : 0)
    if (used + tokens > maxTokens) {
      if (taken.length === 0) return trailingWords(sentence, maxTokens)
      break
    }
    taken.unshift(sentence)
    used += tokens
  }
  return taken.join(' ')
}

function trailingWords(sentence: string, maxTokens: number): string {
  const words = sentence.split(/\s+/).filter(Boolean)
  const taken: string[] = []
  let used = 0
  for (let i = words.length - 1; i >= 0; i--) {
    const word = words[i] ?? ''
    const tokens = countTokens(` ${word}`)
    if (used + tokens > maxTokens) break
    taken.unshift(word)
    used += tokens
  }
  const tail = taken.join(' ')
  return countTokens(tail) <= maxTokens ? tail : taken.slice(1).join(' ')
}
