import { type Embedder, EmbeddingError } from './types.js'

/** How to reach an OpenAI-compatible embeddings endpoint (OpenAI, Azure, Mistral, vLLM, Ollama…). */
export interface OpenAiEmbedderOptions {
  /** Up to and including the version, e.g. `https://api.openai.com/v1`; `/embeddings` is appended. */
  readonly baseUrl: string
  /** Sent as `Authorization: Bearer <key>` when set. */
  readonly apiKey?: string
  readonly model: string
  /** Budget of one request, retries included. */
  readonly timeoutMs: number
  /** Texts per request (default 64). */
  readonly batchSize?: number
  /** Retries after a 429, a 5xx or a network error (default 2). */
  readonly maxRetries?: number
  /** First backoff delay, doubled on each retry (default 250 ms). */
  readonly retryBaseMs?: number
  readonly fetch?: typeof fetch
}

interface EmbeddingsResponse {
  data?: { index?: number; embedding?: unknown }[]
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason)
    const timer = setTimeout(resolve, ms)
    signal.addEventListener('abort', () => {
      clearTimeout(timer)
      reject(signal.reason)
    })
  })
}

/**
 * An Embedder over `POST {baseUrl}/embeddings` with `{model, input: string[]}`, reading
 * `data[i].embedding` (ordered by `index`). Guarantees one vector per text, all of one length;
 * throws EmbeddingError on any failure after retrying those that can pass (429, 5xx, network).
 */
export class OpenAiEmbedder implements Embedder {
  readonly name: string
  private dims = 0
  private readonly url: string
  private readonly fetchImpl: typeof fetch

  constructor(private readonly options: OpenAiEmbedderOptions) {
    this.name = `openai:${options.model}`
    this.url = `${options.baseUrl.replace(/\/+$/, '')}/embeddings`
    this.fetchImpl = options.fetch ?? fetch
  }

  get dimensions(): number {
    return this.dims
  }

  async embed(texts: readonly string[], signal?: AbortSignal): Promise<Float32Array[]> {
    const size = this.options.batchSize ?? 64
    const vectors: Float32Array[] = []
    for (let start = 0; start < texts.length; start += size) {
      vectors.push(...(await this.request(texts.slice(start, start + size), signal)))
    }
    return vectors
  }

  private async request(texts: readonly string[], outer?: AbortSignal): Promise<Float32Array[]> {
    const timeout = AbortSignal.timeout(this.options.timeoutMs)
    const signal = outer ? AbortSignal.any([outer, timeout]) : timeout
    const maxRetries = this.options.maxRetries ?? 2
    const base = this.options.retryBaseMs ?? 250
    // Most servers reject empty strings; a blank chunk still needs its vector.
    const input = texts.map((text) => (text.trim() === '' ? ' ' : text))
    for (let attempt = 0; ; attempt++) {
      let retryable = true
      let message: string
      try {
        const response = await this.fetchImpl(this.url, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            ...(this.options.apiKey ? { authorization: `Bearer ${this.options.apiKey}` } : {}),
          },
          body: JSON.stringify({ model: this.options.model, input }),
          signal,
        })
        if (response.ok) return this.parse((await response.json()) as EmbeddingsResponse, texts.length)
        retryable = response.status === 429 || response.status >= 500
        message = `embeddings endpoint answered ${response.status}`
        await response.body?.cancel()
      } catch (error) {
        if (error instanceof EmbeddingError) throw error
        if (signal.aborted) throw new EmbeddingError('embeddings request timed out or was aborted', { cause: error })
        message = `embeddings endpoint unreachable: ${(error as Error).message}`
      }
      if (!retryable || attempt >= maxRetries) throw new EmbeddingError(message)
      try {
        await sleep(base * 2 ** attempt, signal)
      } catch (error) {
        throw new EmbeddingError('embeddings request timed out or was aborted', { cause: error })
      }
    }
  }

  private parse(body: EmbeddingsResponse, count: number): Float32Array[] {
    const data = Array.isArray(body.data) ? body.data : []
    if (data.length !== count)
      throw new EmbeddingError(`embeddings endpoint returned ${data.length} of ${count} vectors`)
    const ordered = data.every((item) => typeof item.index === 'number')
      ? [...data].sort((a, b) => (a.index as number) - (b.index as number))
      : data
    const vectors = ordered.map((item) => {
      const values = item.embedding
      if (!Array.isArray(values) || values.length === 0 || !values.every((v) => typeof v === 'number')) {
        throw new EmbeddingError('embeddings endpoint returned a malformed vector')
      }
      return Float32Array.from(values as number[])
    })
    const dims = vectors[0]?.length ?? this.dims
    if (vectors.some((vector) => vector.length !== dims) || (this.dims !== 0 && dims !== this.dims)) {
      throw new EmbeddingError('embeddings endpoint returned vectors of different lengths')
    }
    this.dims = dims
    return vectors
  }
}
