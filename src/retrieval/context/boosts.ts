import { BM25_K1 } from '../bm25.js'
import type { DocumentContextIndex } from './document-context.js'

/**
 * How much a context match counts against a match in the chunk's own text. The context acts as
 * a field every chunk of the document shares, scored like a saturated BM25 term with the
 * context's own idf (over documents, not chunks): a company's name in one card of sixty adds
 * about what a rare word of the question found in the chunk adds.
 */
export const CONTEXT_WEIGHT = 1

/** A question and what the context index needs of it. */
export interface ContextQuery {
  /** Distinct analysed terms, as the chunk index searched for them. */
  readonly terms: readonly string[]
  readonly scope: readonly string[] | null
}

/**
 * The score each document of the scope adds to its chunks that match the question at all
 * (documents absent add nothing): its context match in the units of BM25. The same numbers for
 * every store and for the in-memory index, so rankings stay identical.
 */
export function contextBoosts(context: DocumentContextIndex, query: ContextQuery): Map<string, number> {
  const boosts = new Map<string, number>()
  for (const [id, match] of context.matches(query.terms, query.scope)) {
    boosts.set(id, CONTEXT_WEIGHT * (BM25_K1 + 1) * match.weight)
  }
  return boosts
}
