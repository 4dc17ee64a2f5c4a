import { basename, dirname, resolve } from 'node:path'
import type { Embedder } from './types.js'
import { EmbeddingError } from './types.js'

/** What the feature-extraction pipeline of transformers.js returns: a [texts, dims] tensor. */
interface PooledTensor {
  readonly data: ArrayLike<number>
  readonly dims: readonly number[]
}

type Extractor = (texts: string[], options: { pooling: 'mean'; normalize: boolean }) => Promise<PooledTensor>

const BATCH = 16

/**
 * A sentence-embedding model in ONNX format read from a local directory (LANTERN_EMBEDDINGS=onnx:<dir>)
 * and run by transformers.js on onnxruntime-node: the directory holds a Hugging Face model export
 * (`config.json`, `tokenizer.json`, `tokenizer_config.json`, `onnx/model.onnx`, e.g. as published for
 * all-MiniLM-L6-v2 or multilingual-e5-small). Remote loading is off: nothing is ever downloaded.
 * Token vectors are mean-pooled over the attention mask and L2-normalised. The model is loaded on
 * the first call, once. `name` is `onnx:<absolute dir>`, so pointing at another model directory
 * embeds every document again.
 */
export class OnnxEmbedder implements Embedder {
  readonly name: string
  private dims = 0
  private readonly dir: string
  private extractor: Promise<Extractor> | undefined

  constructor(dir: string) {
    this.dir = resolve(dir)
    this.name = `onnx:${this.dir}`
  }

  get dimensions(): number {
    return this.dims
  }

  async embed(texts: readonly string[], signal?: AbortSignal): Promise<Float32Array[]> {
    const extract = await this.load()
    const vectors: Float32Array[] = []
    for (let start = 0; start < texts.length; start += BATCH) {
      if (signal?.aborted) throw new EmbeddingError('embedding was aborted', { cause: signal.reason })
      const batch = texts.slice(start, start + BATCH).map((text) => (text.trim() === '' ? ' ' : text))
      let output: PooledTensor
      try {
        output = await extract(batch, { pooling: 'mean', normalize: true })
      } catch (error) {
        throw new EmbeddingError(`the ONNX model failed: ${(error as Error).message}`, { cause: error })
      }
      const width = output.dims.at(-1) ?? 0
      if (output.dims.length !== 2 || output.dims[0] !== batch.length || width === 0) {
        throw new EmbeddingError(`the ONNX model returned a tensor of shape [${output.dims.join(', ')}]`)
      }
      for (let row = 0; row < batch.length; row++) {
        const vector = Float32Array.from({ length: width }, (_, i) => output.data[row * width + i] as number)
        // A text of unknown tokens only pools to zeros, which normalisation turns into NaN.
        if (vector.some((v) => !Number.isFinite(v))) vector.fill(0)
        vectors.push(vector)
      }
      this.dims = width
    }
    return vectors
  }

  private load(): Promise<Extractor> {
    this.extractor ??= (async () => {
      const { env, pipeline } = await import('@huggingface/transformers')
      env.allowRemoteModels = false
      env.allowLocalModels = true
      env.localModelPath = `${dirname(this.dir)}/`
      const extractor = await pipeline('feature-extraction', basename(this.dir), { dtype: 'fp32' })
      return extractor as unknown as Extractor
    })().catch((error: unknown) => {
      this.extractor = undefined
      throw new EmbeddingError(`the ONNX model in ${this.dir} could not be loaded: ${(error as Error).message}`, {
        cause: error,
      })
    })
    return this.extractor
  }
}
