import { Tiktoken } from 'js-tiktoken/lite'
import cl100k from 'js-tiktoken/ranks/cl100k_base'

/** The parts of js-tiktoken's encoder the counter reads (public at run time, internal in its types). */
interface EncoderInternals {
  readonly rankMap: Map<string, number>
}

let encoder: Tiktoken | undefined

function cl100kEncoder(): Tiktoken {
  // Building the ranks takes a few hundred milliseconds: once per process (or worker thread).
  encoder ??= new Tiktoken(cl100k)
  return encoder
}

/** The pre-tokenizer of cl100k_base: BPE runs inside each of its pieces, never across them. */
const PIECES = new RegExp(cl100k.pat_str, 'gu')
const utf8 = new TextEncoder()
/** Tokens per piece: documents repeat their words, so most pieces are counted once per thread. */
const pieceTokens = new Map<string, number>()
/** Bound of the cache; it starts over when full (pieces are short, so this is a few MB). */
const MAX_CACHED_PIECES = 200_000

/**
 * Tokens of one piece, as js-tiktoken's `encode` makes them: the whole piece when it is a token,
 * else the byte-pair merges (lowest rank first) that have a rank.
 */
function tokensOfPiece(piece: string, ranks: Map<string, number>): number {
  const bytes = utf8.encode(piece)
  if (bytes.length === 1 || ranks.has(bytes.join(','))) return 1
  const parts = Array.from({ length: bytes.length }, (_, i) => ({ start: i, end: i + 1 }))
  while (parts.length > 1) {
    let minRank = -1
    let at = -1
    for (let i = 0; i < parts.length - 1; i++) {
      const rank = ranks.get(
        bytes.slice((parts[i] as { start: number }).start, (parts[i + 1] as { end: number }).end).join(','),
      )
      if (rank !== undefined && (minRank < 0 || rank < minRank)) {
        minRank = rank
        at = i
      }
    }
    if (at < 0) break
    parts[at] = { start: (parts[at] as { start: number }).start, end: (parts[at + 1] as { end: number }).end }
    parts.splice(at + 1, 1)
  }
  let count = 0
  for (const part of parts) if (ranks.has(bytes.slice(part.start, part.end).join(','))) count++
  return count
}

/**
 * Length of `text` in cl100k_base tokens, exactly `encode(text, [], []).length` of js-tiktoken
 * (special-token markers such as `<|endoftext|>` inside a document count as ordinary text), with
 * the count of each pre-tokenizer piece cached: chunking counts the same words many times.
 */
export function countTokens(text: string): number {
  const ranks = (cl100kEncoder() as unknown as EncoderInternals).rankMap
  let count = 0
  PIECES.lastIndex = 0
  for (let match = PIECES.exec(text); match !== null; match = PIECES.exec(text)) {
    const piece = match[0]
    let tokens = pieceTokens.get(piece)
    if (tokens === undefined) {
      tokens = tokensOfPiece(piece, ranks)
      if (pieceTokens.size >= MAX_CACHED_PIECES) pieceTokens.clear()
      pieceTokens.set(piece, tokens)
    }
    count += tokens
  }
  return count
}

/** js-tiktoken's own count, without the cache: the reference countTokens must equal (tests). */
export function countTokensUncached(text: string): number {
  return cl100kEncoder().encode(text, [], []).length
}
