import type { ScoredPosting } from '../storage/ports/search.js'

/** Okapi BM25 parameters (the usual defaults). */
export const BM25_K1 = 1.2
export const BM25_B = 0.75

/**
 * BM25's length normalisation for a chunk of `termCount` terms in a corpus whose chunks average
 * `averageLength` terms: k1 · (1 − b + b · termCount / avgdl). A term's part of the score is then
 * tf · (k1 + 1) / (tf + norm).
 */
export function lengthNorm(termCount: number, averageLength: number): number {
  return BM25_K1 * (1 - BM25_B + (BM25_B * termCount) / averageLength)
}

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
 * Chunk length the stored `impact` of a posting is computed for. Any value is correct (the top-k
 * search bounds scores by `impact × max(1, avgdl / IMPACT_REFERENCE_LENGTH)`); one near the usual
 * average length keeps that bound tight.
 */
export const IMPACT_REFERENCE_LENGTH = 200

/**
 * The term-frequency part of BM25 for a chunk of `termCount` terms at the reference length: the
 * order in which a term's postings are read (best first). Migration 0006 computes the same in SQL.
 */
export function impactOf(tf: number, termCount: number): number {
  return (tf * (BM25_K1 + 1)) / (tf + lengthNorm(termCount, IMPACT_REFERENCE_LENGTH))
}

/**
 * Upper bound of a posting's term-frequency part at average length `averageLength` when its
 * impact is at most `impact`: the denominators differ only in the length term, so the ratio is at
 * most max(1, averageLength / reference). A relative margin covers rounding of stored values.
 */
export function tfBound(impact: number, averageLength: number): number {
  const ratio = Math.max(1, (averageLength > 0 ? averageLength : 1) / IMPACT_REFERENCE_LENGTH)
  return Math.min(BM25_K1 + 1, impact * ratio * (1 + 1e-9))
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
  return rankWithWeights(terms, weights, postings, stats.averageLength, inScope, limit)
}

/** Sum of idf × (k1 + 1) over the terms: the highest score a chunk could reach. */
export function maxScoreOf(weights: readonly number[]): number {
  return weights.reduce((sum, weight) => sum + weight * (BM25_K1 + 1), 0)
}

/**
 * Ranks the chunks of `postings` by BM25 with the idf `weights` of `terms` (same order) given:
 * the scoring of rankBm25 when the document frequencies come from elsewhere (kept statistics).
 * `postings` must hold, for every chunk it names, all of that chunk's postings of `terms`. A
 * chunk's document boost (`boostOf`, none by default) is added after its contributions.
 */
export function rankWithWeights(
  terms: readonly string[],
  weights: readonly number[],
  postings: readonly ScoredPosting[],
  averageLengthOfCorpus: number,
  inScope: (documentId: string) => boolean,
  limit: number,
  boostOf: (documentId: string) => number = () => 0,
): Bm25Ranking {
  const termIndex = new Map(terms.map((term, index) => [term, index]))
  const maxScore = maxScoreOf(weights)

  const averageLength = averageLengthOfCorpus > 0 ? averageLengthOfCorpus : 1
  // Sparse (term index, contribution) pairs: long queries must not cost terms × chunks memory.
  const perChunk = new Map<string, { posting: ScoredPosting; contributions: [number, number][] }>()
  for (const posting of postings) {
    const index = termIndex.get(posting.term)
    if (index === undefined || !inScope(posting.documentId)) continue
    const norm = lengthNorm(posting.termCount, averageLength)
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
    score += boostOf(posting.documentId)
    ranked.push({ chunkId, documentId: posting.documentId, objectName: posting.objectName, idx: posting.idx, score })
  }
  ranked.sort(compareRanked)
  return { ranked: ranked.slice(0, Math.max(0, limit)), maxScore }
}
