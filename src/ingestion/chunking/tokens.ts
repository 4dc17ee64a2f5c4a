import { Tiktoken } from 'js-tiktoken/lite'
import cl100k from 'js-tiktoken/ranks/cl100k_base'
import { pieceEnd } from './pre-tokenizer.js'

let encoder: Tiktoken | undefined

/** js-tiktoken's encoder: the reference the counter is tested against (countTokensUncached). */
function cl100kEncoder(): Tiktoken {
  encoder ??= new Tiktoken(cl100k)
  return encoder
}

let ranks: Map<string, number> | undefined

/**
 * cl100k_base's ranks, keyed by each token's bytes as a Latin-1 string (a character a byte), read
 * from js-tiktoken's rank file once per process (or worker thread). js-tiktoken's own map, keyed
 * by the bytes' decimal values joined with commas, took 0.65 s to build at every thread start; this
 * one 0.15 s, and an ASCII piece is its own key.
 */
function cl100kRanks(): Map<string, number> {
  if (ranks) return ranks
  ranks = new Map()
  // Lines of `<prefix> <rank of the first token> <token in base64>…`, ranks consecutive.
  for (const line of cl100k.bpe_ranks.split('\n')) {
    const fields = line.split(' ')
    const first = Number.parseInt(fields[1] ?? '', 10)
    if (Number.isNaN(first)) continue
    for (let i = 2; i < fields.length; i++) {
      ranks.set(Buffer.from(fields[i] as string, 'base64').toString('latin1'), first + i - 2)
    }
  }
  return ranks
}

/** Tokens per piece: documents repeat their words, so most pieces are counted once per thread. */
const pieceTokens = new Map<string, number>()
/** Bound of the cache; it starts over when full (pieces are short, so this is a few MB). */
const MAX_CACHED_PIECES = 200_000

function isAscii(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 0x7f) return false
  return true
}

/**
 * Tokens of one piece, as js-tiktoken's `encode` makes them: the whole piece when it is a token,
 * else the byte-pair merges (lowest rank first, leftmost of equals) that have a rank. Only the
 * pairs beside a merge change rank, so only theirs are looked up again (js-tiktoken looks up every
 * pair after each merge).
 */
function tokensOfPiece(piece: string, ranks: Map<string, number>): number {
  // The piece's UTF-8 bytes, a character each.
  const bytes = isAscii(piece) ? piece : Buffer.from(piece, 'utf8').toString('latin1')
  if (bytes.length === 1 || ranks.has(bytes)) return 1
  const rankOf = (start: number, end: number): number => ranks.get(bytes.slice(start, end)) ?? Number.POSITIVE_INFINITY
  // Part i is bytes[starts[i], starts[i + 1]); pairRanks[i] is the rank of parts i and i + 1 merged.
  const starts = Array.from({ length: bytes.length + 1 }, (_, i) => i)
  const pairRanks = Array.from({ length: bytes.length - 1 }, (_, i) => rankOf(i, i + 2))
  while (pairRanks.length > 0) {
    let at = -1
    let minRank = Number.POSITIVE_INFINITY
    for (let i = 0; i < pairRanks.length; i++) {
      if ((pairRanks[i] as number) < minRank) {
        minRank = pairRanks[i] as number
        at = i
      }
    }
    if (at < 0) break
    starts.splice(at + 1, 1)
    pairRanks.splice(at, 1)
    if (at > 0) pairRanks[at - 1] = rankOf(starts[at - 1] as number, starts[at + 1] as number)
    if (at < pairRanks.length) pairRanks[at] = rankOf(starts[at] as number, starts[at + 2] as number)
  }
  let count = 0
  for (let i = 0; i + 1 < starts.length; i++) {
    if (rankOf(starts[i] as number, starts[i + 1] as number) !== Number.POSITIVE_INFINITY) count++
  }
  return count
}

/**
 * Length of `text` in cl100k_base tokens, exactly `encode(text, [], []).length` of js-tiktoken
 * (special-token markers such as `<|endoftext|>` inside a document count as ordinary text), with
 * the count of each pre-tokenizer piece cached: chunking counts the same words many times. The
 * pieces come from pieceEnd: found by hand, by the regex only next to surrogates.
 */
export function countTokens(text: string): number {
  return countTokensWithin(text, Number.POSITIVE_INFINITY)
}

/**
 * countTokens(text) when it is at most `maxTokens`; else infinity, found without counting the
 * rest (a long paragraph is measured only to learn that it must be cut into sentences).
 */
export function countTokensWithin(text: string, maxTokens: number): number {
  const ranks = cl100kRanks()
  let count = 0
  // BPE runs inside each pre-tokenizer piece, never across them.
  for (let start = 0; start < text.length; ) {
    const end = pieceEnd(text, start)
    count += cachedTokensOfPiece(text.slice(start, end), ranks)
    if (count > maxTokens) return Number.POSITIVE_INFINITY
    start = end
  }
  return count
}

function cachedTokensOfPiece(piece: string, ranks: Map<string, number>): number {
  let tokens = pieceTokens.get(piece)
  if (tokens === undefined) {
    tokens = tokensOfPiece(piece, ranks)
    if (pieceTokens.size >= MAX_CACHED_PIECES) pieceTokens.clear()
    pieceTokens.set(piece, tokens)
  }
  return tokens
}

/** js-tiktoken's own count, without the cache: the reference countTokens must equal (tests). */
export function countTokensUncached(text: string): number {
  return cl100kEncoder().encode(text, [], []).length
}

/** How far from a join a piece boundary is looked for. */
const JOIN_WINDOW = 64

/** All joinedTokens reads of the text on the left of a join: its last JOIN_WINDOW + 1 characters. */
export function endOf(text: string): string {
  return text.length > JOIN_WINDOW + 1 ? text.slice(-(JOIN_WINDOW + 1)) : text
}

/** All joinedTokens reads of the text on the right of a join: its first JOIN_WINDOW + 1 characters. */
export function startOf(text: string): string {
  return text.length > JOIN_WINDOW + 1 ? text.slice(0, JOIN_WINDOW + 1) : text
}

/** startOf(left + separator + right), given startOf(left). */
export function startOfJoined(leftStart: string, separator: string, right: string): string {
  return leftStart.length > JOIN_WINDOW ? leftStart : startOf(`${leftStart}${separator}${startOf(right)}`)
}

/** endOf(left + separator + right), given endOf(left). */
export function endOfJoined(leftEnd: string, separator: string, right: string): string {
  return right.length > JOIN_WINDOW ? endOf(right) : endOf(`${leftEnd}${separator}${right}`)
}

/**
 * Whether a pre-tokenizer piece surely starts at `at`: a space after a printable ASCII character.
 * No piece of cl100k's pattern holds a non-space followed by a space (letters, digits and
 * punctuation stop before it; whitespace runs hold no non-space), so one ends there, whatever
 * comes before or after.
 */
function pieceStartsAt(text: string, at: number): boolean {
  if (text.charCodeAt(at) !== 0x20) return false
  const before = text.charCodeAt(at - 1)
  return before > 0x20 && before < 0x7f
}

/**
 * countTokens(left + separator + right) from the counts of `left` and `right`: pieces away from
 * the join are the same in the joined text, so only the words around it (from the last piece
 * boundary of `left` to the first of `right`) are counted again. A chunk is counted from its
 * paragraphs' counts this way instead of being counted again whole. `left` may be given as its
 * endOf and `right` as its startOf (a text longer than JOIN_WINDOW is never taken to be whole);
 * undefined when there is no boundary that near the join (a long run without spaces): the caller
 * then counts the joined text itself.
 */
export function joinedTokens(
  left: string,
  leftTokens: number,
  separator: string,
  right: string,
  rightTokens: number,
): number | undefined {
  let tailStart = left.length - 1
  const tailLimit = Math.max(1, left.length - JOIN_WINDOW)
  while (tailStart >= tailLimit && !pieceStartsAt(left, tailStart)) tailStart--
  if (tailStart < tailLimit) {
    if (left.length > JOIN_WINDOW) return undefined
    tailStart = 0
  }
  let headEnd = 1
  const headLimit = Math.min(right.length, JOIN_WINDOW)
  while (headEnd < headLimit && !pieceStartsAt(right, headEnd)) headEnd++
  if (headEnd >= headLimit) {
    if (right.length > JOIN_WINDOW) return undefined
    headEnd = right.length
  }
  const tail = left.slice(tailStart)
  const head = right.slice(0, headEnd)
  return leftTokens - countTokens(tail) + countTokens(tail + separator + head) - countTokens(head) + rightTokens
}
