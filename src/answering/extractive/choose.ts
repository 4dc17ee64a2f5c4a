import type { DocumentSpan } from '../../retrieval/context/span.js'
import type { RetrievedChunk } from '../../retrieval/types.js'
import type { Candidate } from './candidate.js'
import type { ExtractiveOptions } from './options.js'

function overlap(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size === 0 || b.size === 0) return 0
  let shared = 0
  for (const term of a) if (b.has(term)) shared++
  return shared / Math.min(a.size, b.size)
}

/**
 * The best passages (`candidates` best first), near-duplicates skipped, far weaker ones (under half
 * the best) left out.
 */
export function bestCandidates(candidates: readonly Candidate[], options: ExtractiveOptions): Candidate[] {
  const best = candidates[0]
  if (!best) return []
  const chosen: Candidate[] = []
  for (const candidate of candidates) {
    if (chosen.length === options.maxSentences) break
    if (candidate.score < best.score * 0.5) break
    const terms = candidate.passage.terms
    if (chosen.some((kept) => overlap(kept.passage.terms, terms) > options.duplicateOverlap)) continue
    chosen.push(candidate)
  }
  return chosen
}

/**
 * One passage per document of a span over several documents, in the span's order; undefined when
 * the question spans one document, or fewer than two of its documents have a passage to quote.
 */
export function spreadCandidates(
  candidates: readonly Candidate[],
  sources: readonly RetrievedChunk[],
  span: DocumentSpan | undefined,
  maxSpread: number,
): Candidate[] | undefined {
  if (!span?.spread) return undefined
  const chosen: Candidate[] = []
  for (const documentId of span.documents) {
    const best = candidates.find((candidate) => sources[candidate.source]?.documentId === documentId)
    if (best) chosen.push(best)
    if (chosen.length === maxSpread) break
  }
  return chosen.length >= 2 ? chosen : undefined
}
