/** Turns texts into dense vectors (LANTERN_EMBEDDINGS). */
export interface Embedder {
  /**
   * Identifies the model and its settings (`openai:text-embedding-3-small`, `use:en-512`). Stored
   * with each vector: a vector of another name is never compared with this embedder's vectors,
   * and a changed name makes the backfill embed every document again.
   */
  readonly name: string
  /** Length of the vectors; 0 until the first call when the model does not say beforehand. */
  readonly dimensions: number
  /**
   * Weight of this model's ranking in the fusion with BM25, whose weight is 1; 1 when absent
   * (plain reciprocal rank fusion). Lower for a model measured weaker than BM25 on the dev sets,
   * so that hybrid search does not rank below lexical search (docs/benchmarks.md).
   */
  readonly fusionWeight?: number
  /**
   * One vector per text, in order, all of the same length. Batches internally. Throws
   * EmbeddingError when the model cannot answer (the caller retries later).
   */
  embed(texts: readonly string[], signal?: AbortSignal): Promise<Float32Array[]>
}

/** The embedding model failed or answered something unusable. Retryable: not `permanent`. */
export class EmbeddingError extends Error {
  override readonly name = 'EmbeddingError'
}

/** Cosine similarity; 0 when either vector is null or the lengths differ. */
export function cosine(a: Float32Array, b: Float32Array): number {
  if (a.length !== b.length) return 0
  let dot = 0
  let na = 0
  let nb = 0
  for (let i = 0; i < a.length; i++) {
    const x = a[i] as number
    const y = b[i] as number
    dot += x * y
    na += x * x
    nb += y * y
  }
  return na > 0 && nb > 0 ? dot / Math.sqrt(na * nb) : 0
}
