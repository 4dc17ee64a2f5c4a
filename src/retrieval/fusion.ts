/**
 * Reciprocal rank fusion (Cormack et al., 2009): a chunk scores Σ 1 / (k + rank) over the
 * rankings it appears in (rank 1-based). Chosen over normalised score fusion because BM25 and
 * cosine scores live on unrelated scales whose spread changes with the query and the model; rank
 * fusion needs no calibration per model, is robust when one ranking is poor, and with k = 60 a
 * chunk near the top of either list stays near the top of the fused one.
 */
export const RRF_K = 60

export interface FusedEntry {
  readonly id: string
  readonly score: number
}

/**
 * Fuses rankings (ids best first; an id at most once per ranking). `weights[i]` scales ranking i's
 * contributions (1 when absent): weighted RRF, for a ranking known to be weaker on its own.
 * Deterministic: ties are broken by the best rank the id reached in any ranking, then by the
 * earlier ranking, then by id.
 */
export function reciprocalRankFusion(
  rankings: readonly (readonly string[])[],
  k: number = RRF_K,
  weights: readonly number[] = [],
): FusedEntry[] {
  const entries = new Map<string, { score: number; best: number; list: number }>()
  rankings.forEach((ranking, list) => {
    const weight = weights[list] ?? 1
    ranking.forEach((id, position) => {
      const entry = entries.get(id)
      const contribution = weight / (k + position + 1)
      if (!entry) entries.set(id, { score: contribution, best: position, list })
      else {
        entry.score += contribution
        if (position < entry.best) {
          entry.best = position
          entry.list = list
        }
      }
    })
  })
  return [...entries]
    .sort(
      ([ia, a], [ib, b]) => b.score - a.score || a.best - b.best || a.list - b.list || (ia < ib ? -1 : ia > ib ? 1 : 0),
    )
    .map(([id, entry]) => ({ id, score: entry.score }))
}
