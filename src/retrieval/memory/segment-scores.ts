import { BM25_K1 } from '../bm25.js'
import type { Segment } from './segment.js'

/** The postings of one term in one segment: rows [start, end) of its arrays. */
export interface TermRun {
  readonly segment: Segment
  readonly start: number
  readonly end: number
}

/**
 * The runs of `term` in each segment, and its document frequency over the live chunks (`alive`
 * by chunk ordinal).
 */
export function termRuns(
  segments: readonly Segment[],
  term: string,
  alive: Uint8Array,
): { runs: TermRun[]; df: number } {
  const runs: TermRun[] = []
  let df = 0
  for (const segment of segments) {
    const row = segment.terms.get(term)
    if (row === undefined) continue
    const start = segment.offsets[row] as number
    const end = segment.offsets[row + 1] as number
    runs.push({ segment, start, end })
    if (segment.dead === 0) df += end - start
    else for (let i = start; i < end; i++) df += alive[segment.ordinals[i] as number] as number
  }
  return { runs, df }
}

/**
 * Adds one term's BM25 contribution to the score of each chunk its runs hold (only those with
 * `eligible` 1 when `eligible` is given), with the same float operations as rankWithWeights:
 * (idf × tf × (k1 + 1)) / (tf + norm).
 */
export function addTermScores(
  scores: Float64Array,
  runs: readonly TermRun[],
  weight: number,
  norms: Float64Array,
  eligible: Uint8Array | null,
): void {
  const scaled = BM25_K1 + 1
  for (const { segment, start, end } of runs) {
    const ordinals = segment.ordinals
    const tfs = segment.tfs
    if (eligible === null) {
      for (let i = start; i < end; i++) {
        const ordinal = ordinals[i] as number
        const tf = tfs[i] as number
        scores[ordinal] = (scores[ordinal] as number) + (weight * tf * scaled) / (tf + (norms[ordinal] as number))
      }
    } else {
      for (let i = start; i < end; i++) {
        const ordinal = ordinals[i] as number
        if (eligible[ordinal] === 0) continue
        const tf = tfs[i] as number
        scores[ordinal] = (scores[ordinal] as number) + (weight * tf * scaled) / (tf + (norms[ordinal] as number))
      }
    }
  }
}
