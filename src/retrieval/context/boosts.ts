import { BM25_K1 } from '../bm25.js'
import type { DocumentContextIndex } from './document-context.js'
import type { DocumentSpan } from './span.js'

/**
 * How much a context match counts against a match in the chunk's own text. The context acts as
 * a field every chunk of the document shares, scored like a saturated BM25 term with the
 * context's own idf (over documents, not chunks): a company's name in one card of sixty adds
 * about what a rare word of the question found in the chunk adds.
 */
export const CONTEXT_WEIGHT = 1

/**
 * What a document whose period is the one the question asks for adds, in the same units: about a
 * rare word's worth, so that among one company's reports the right quarter's passage comes first.
 */
export const PERIOD_WEIGHT = 2

/** A question and what the context index needs of it. */
export interface ContextQuery {
  /** Distinct analysed terms, as the chunk index searched for them. */
  readonly terms: readonly string[]
  readonly scope: readonly string[] | null
  /** The documents the question names (span.ts): their period scores raise the period asked for. */
  readonly span: DocumentSpan
}

/**
 * The score each document of the scope adds to its chunks that match the question at all
 * (documents absent add nothing): its context match in the units of BM25. The same numbers for
 * every store and for the in-memory index, so rankings stay identical.
 */
export function contextBoosts(context: DocumentContextIndex, query: ContextQuery): Map<string, number> {
  const boosts = new Map<string, number>()
  const inScope = query.scope ? new Set(query.scope) : null
  for (const [id, match] of context.matches(query.terms, query.scope)) {
    boosts.set(id, CONTEXT_WEIGHT * match.weight)
  }
  // A document without a subject of its own that writes a subject's name (mentions.ts) weighs as
  // if its card held the name, unless its path already matched.
  const matched = new Set(boosts.keys())
  const asked = new Set(query.terms)
  for (const subject of query.span.subjects) {
    const weight = [...new Set(subject.name.terms)]
      .filter((term) => asked.has(term))
      .reduce((sum, term) => sum + context.weight(term), 0)
    for (const id of subject.documents) {
      if (matched.has(id) || (context.record(id)?.card?.subjects.length ?? 0) > 0) continue
      boosts.set(id, (boosts.get(id) ?? 0) + CONTEXT_WEIGHT * weight)
    }
  }
  for (const [id, score] of query.span.periodScores) {
    if (inScope && !inScope.has(id)) continue
    boosts.set(id, (boosts.get(id) ?? 0) + PERIOD_WEIGHT * score)
  }
  for (const [id, boost] of boosts) boosts.set(id, (BM25_K1 + 1) * boost)
  return boosts
}
