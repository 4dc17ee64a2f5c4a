import type { EmbeddingsConfig } from '../../config.js'
import { OnnxEmbedder } from './onnx.js'
import { OpenAiEmbedder } from './openai.js'
import type { Embedder } from './types.js'
import { UniversalSentenceEncoder } from './universal-sentence-encoder.js'

/** The embedder LANTERN_EMBEDDINGS names; undefined for `none` (lexical retrieval only). */
export function embedderFromConfig(config: EmbeddingsConfig): Embedder | undefined {
  switch (config.kind) {
    case 'none':
      return undefined
    case 'use':
      return new UniversalSentenceEncoder()
    case 'onnx':
      return new OnnxEmbedder(config.dir)
    case 'openai':
      return new OpenAiEmbedder({
        baseUrl: config.baseUrl,
        apiKey: config.apiKey,
        model: config.model,
        timeoutMs: config.timeoutMs,
      })
  }
}
