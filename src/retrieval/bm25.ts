import type { ScoredPosting } from '../storage/ports/search.js'

/** Okapi BM25 parameters (the usual defaults). */
export const BM25_K1 = 1.2
export const BM25_B = 0.75

/** Corpus statistics the scores are relative to. */
export interface CorpusStatistics {
  /** Number of chunks (N). */
  readonly chunkCount: number
  /** Average `term_count` (avgdl). */
  readonly averageLength: number
}

/** One ranked chunk: its BM25 score and the keys of the tie-break. */
export interface RankedChunk {
  readonly chunkId: string
  readonly documentId: string
  readonly objectName: string
  readonly idx: number
  readonly score: number
}

export interface Bm25Ranking {
  readonly ranked: RankedChunk[]
  /**
   * The highest score a chunk could reach for these terms (every term present, saturated): the sum
   * of idf × (k1 + 1). Dividing a score by it gives a value in [0, 1] that says how much of the
   * query a chunk matches, comparable across queries.
   */
  readonly maxScore: number
}

/** Robertson–Spärck Jones idf with the +1 that keeps it positive (as Lucene): ln(1 + (N − df + 0.5) / (df + 0.5)). */
export function idf(chunkCount: number, documentFrequency: number): number {
  return Math.log(1 + (chunkCount - documentFrequency + 0.5) / (documentFrequency + 0.5))
}

/** Byte-order-like comparison of plain strings: the same result on every run and store. */
function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}

/** Best first: score descending, then object_name ascending, then chunk idx ascending. */
export function compareRanked(a: RankedChunk, b: RankedChunk): number {
  return b.score - a.score || compareText(a.objectName, b.objectName) || a.idx - b.idx
}

/**
 * Ranks chunks by BM25 for the distinct `terms`. Document frequencies are counted over all
 * `postings` (the corpus the statistics describe); only chunks `inScope` accepts are scored.
 *
 * The result depends only on the values given, never on the order the postings arrive in: each
 * chunk's score sums its per-term contributions in the order of `terms`, so floating-point results
 * are bit-identical whichever store returned the postings.
 */
export function rankBm25(
  terms: readonly string[],
  postings: readonly ScoredPosting[],
  stats: CorpusStatistics,
  inScope: (documentId: string) => boolean,
  limit: number,
): Bm25Ranking {
  const termIndex = new Map(terms.map((term, index) => [term, index]))
  const frequencies = new Array<number>(terms.length).fill(0)
  for (const posting of postings) {
    const index = termIndex.get(posting.term)
    if (index !== undefined) frequencies[index] = (frequencies[index] ?? 0) + 1
  }
  const weights = frequencies.map((df) => idf(stats.chunkCount, df))
  const maxScore = weights.reduce((sum, weight) => sum + weight * (BM25_K1 + 1), 0)

  const averageLength = stats.averageLength > 0 ? stats.averageLength : 1
  // Sparse (term index, contribution) pairs: long queries must not cost terms × chunks memory.
  const perChunk = new Map<string, { posting: ScoredPosting; contributions: [number, number][] }>()
  for (const posting of postings) {
    const index = termIndex.get(posting.term)
    if (index === undefined || !inScope(posting.documentId)) continue
    const norm = BM25_K1 * (1 - BM25_B + (BM25_B * posting.termCount) / averageLength)
    const contribution = ((weights[index] ?? 0) * posting.tf * (BM25_K1 + 1)) / (posting.tf + norm)
    let entry = perChunk.get(posting.chunkId)
    if (!entry) {
      entry = { posting, contributions: [] }
      perChunk.set(posting.chunkId, entry)
    }
    entry.contributions.push([index, contribution])
  }

  const ranked: RankedChunk[] = []
  for (const [chunkId, { posting, contributions }] of perChunk) {
    contributions.sort((a, b) => a[0] - b[0])
    let score = 0
    for (const [, contribution] of contributions) score += contribution
    ranked.push({ chunkId, documentId: posting.documentId, objectName: posting.objectName, idx: posting.idx, score })
  }
  ranked.sort(compareRanked)
  return { ranked: ranked.slice(0, Math.max(0, limit)), maxScore }
}
