import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { ConfigError, loadConfig } from '../../src/config.js'
import { OpenAiEmbedder } from '../../src/retrieval/embeddings/openai.js'
import { cosine, type Embedder, EmbeddingError } from '../../src/retrieval/embeddings/types.js'
import { UniversalSentenceEncoder } from '../../src/retrieval/embeddings/universal-sentence-encoder.js'
import { reciprocalRankFusion } from '../../src/retrieval/fusion.js'
import { FAKE_DIMS, type FakeEmbeddingsServer, fakeVector, startFakeEmbeddings } from '../support/fake-embeddings.js'

describe('OpenAI-compatible embeddings client', () => {
  let server: FakeEmbeddingsServer
  beforeAll(async () => {
    server = await startFakeEmbeddings()
  })
  afterAll(async () => server?.close())
  beforeEach(() => {
    server.calls.length = 0
    server.shuffle = false
  })

  const embedder = (extra: Partial<ConstructorParameters<typeof OpenAiEmbedder>[0]> = {}) =>
    new OpenAiEmbedder({
      baseUrl: `${server.baseUrl}/`,
      apiKey: 'sk-test',
      model: 'fake-embed-1',
      timeoutMs: 5000,
      retryBaseMs: 1,
      ...extra,
    })

  it('posts {model, input} to {base}/embeddings with the bearer key, in batches, one vector per text', async () => {
    const e = embedder({ batchSize: 2 })
    expect(e.name).toBe('openai:fake-embed-1')
    expect(e.dimensions).toBe(0)
    const texts = ['car repair', 'fix the automobile', 'lunch menu', 'x', '']
    const vectors = await e.embed(texts)
    expect(vectors).toHaveLength(5)
    expect(e.dimensions).toBe(FAKE_DIMS)
    expect([...(vectors[0] as Float32Array)]).toEqual([...Float32Array.from(fakeVector('car repair'))])
    expect(server.calls.map((call) => call.path)).toEqual(['/v1/embeddings', '/v1/embeddings', '/v1/embeddings'])
    expect(server.calls.every((call) => call.authorization === 'Bearer sk-test')).toBe(true)
    expect(server.calls.every((call) => call.model === 'fake-embed-1')).toBe(true)
    // Empty texts are sent as a space: most servers reject empty strings.
    expect(server.calls.map((call) => call.input)).toEqual([
      ['car repair', 'fix the automobile'],
      ['lunch menu', 'x'],
      [' '],
    ])
  })

  it('orders the answer by index and sends no authorization without a key', async () => {
    server.shuffle = true
    const vectors = await embedder({ apiKey: undefined }).embed(['car', 'lunch menu'])
    expect(server.calls[0]?.authorization).toBeUndefined()
    expect([...(vectors[0] as Float32Array)]).toEqual([...Float32Array.from(fakeVector('car'))])
    expect([...(vectors[1] as Float32Array)]).toEqual([...Float32Array.from(fakeVector('lunch menu'))])
  })

  it('retries 429 and 5xx, then succeeds', async () => {
    server.failNext(429, 503)
    const vectors = await embedder().embed(['car'])
    expect(vectors).toHaveLength(1)
    expect(server.calls).toHaveLength(3)
  })

  it('fails with EmbeddingError on a 4xx, after the retries on 5xx, and on an unreachable server', async () => {
    server.failNext(400)
    await expect(embedder().embed(['car'])).rejects.toBeInstanceOf(EmbeddingError)
    expect(server.calls).toHaveLength(1)
    server.failNext(500, 500, 500)
    await expect(embedder({ maxRetries: 2 }).embed(['car'])).rejects.toThrow(/answered 500/)
    await expect(embedder({ baseUrl: 'http://127.0.0.1:1/v1', maxRetries: 0 }).embed(['car'])).rejects.toThrow(
      EmbeddingError,
    )
  })

  it('the fake model puts texts sharing a meaning near each other', () => {
    const a = Float32Array.from(fakeVector('automobile mechanic'))
    const b = Float32Array.from(fakeVector('car repair'))
    const c = Float32Array.from(fakeVector('lunch menu'))
    expect(cosine(a, b)).toBeGreaterThan(0.9)
    expect(cosine(a, c)).toBeLessThan(0.5)
  })
})

describe('reciprocal rank fusion', () => {
  it('sums 1/(60 + rank) and breaks ties deterministically', () => {
    const fused = reciprocalRankFusion([
      ['a', 'b', 'c'],
      ['c', 'd'],
    ])
    expect(fused.map((entry) => entry.id)).toEqual(['c', 'a', 'b', 'd'])
    expect(fused[0]?.score).toBeCloseTo(1 / 63 + 1 / 61, 12)
    expect(fused[1]?.score).toBeCloseTo(1 / 61, 12)
    // a and c-alone ties: best rank, then the earlier ranking, then the id.
    expect(reciprocalRankFusion([['x'], ['y']]).map((entry) => entry.id)).toEqual(['x', 'y'])
    expect(reciprocalRankFusion([['b', 'a'], []]).map((entry) => entry.id)).toEqual(['b', 'a'])
    expect(
      reciprocalRankFusion([
        ['q', 'p'],
        ['p', 'q'],
      ]).map((entry) => entry.id),
    ).toEqual(['q', 'p'])
  })
})

describe('weighted reciprocal rank fusion', () => {
  it('scales each ranking by its weight, 1 when absent', () => {
    const rankings = [
      ['a', 'b'],
      ['c', 'a'],
    ]
    expect(reciprocalRankFusion(rankings).map((entry) => entry.id)).toEqual(['a', 'c', 'b'])
    const weighted = reciprocalRankFusion(rankings, 60, [1, 0.2])
    expect(weighted.map((entry) => entry.id)).toEqual(['a', 'b', 'c'])
    expect(weighted[0]?.score).toBeCloseTo(1 / 61 + 0.2 / 62, 12)
    expect(weighted[2]?.score).toBeCloseTo(0.2 / 61, 12)
    expect(reciprocalRankFusion(rankings, 60, [1])).toEqual(reciprocalRankFusion(rankings))
  })

  it('the sentence encoder is weighted below BM25; remote and ONNX models are not', () => {
    expect(new UniversalSentenceEncoder().fusionWeight).toBeLessThan(1)
    const remote: Embedder = new OpenAiEmbedder({ baseUrl: 'http://x/v1', model: 'm', timeoutMs: 100 })
    expect(remote.fusionWeight).toBeUndefined()
  })
})

describe('LANTERN_EMBEDDINGS configuration', () => {
  it('defaults to none and validates the openai settings', () => {
    expect(loadConfig({}).embeddings).toEqual({ kind: 'none' })
    expect(loadConfig({ LANTERN_EMBEDDINGS: 'use' }).embeddings).toEqual({ kind: 'use' })
    expect(
      loadConfig({
        LANTERN_EMBEDDINGS: 'openai',
        LANTERN_EMBEDDINGS_BASE_URL: 'http://127.0.0.1:11434/v1',
        LANTERN_EMBEDDINGS_MODEL: 'nomic-embed-text',
        LANTERN_EMBEDDINGS_API_KEY: 'k',
      }).embeddings,
    ).toEqual({
      kind: 'openai',
      baseUrl: 'http://127.0.0.1:11434/v1',
      apiKey: 'k',
      model: 'nomic-embed-text',
      timeoutMs: 30_000,
    })
    expect(() => loadConfig({ LANTERN_EMBEDDINGS: 'openai', LANTERN_EMBEDDINGS_MODEL: 'm' })).toThrow(
      /LANTERN_EMBEDDINGS_BASE_URL is required/,
    )
    expect(() => loadConfig({ LANTERN_EMBEDDINGS: 'openai', LANTERN_EMBEDDINGS_BASE_URL: 'http://x/v1' })).toThrow(
      /LANTERN_EMBEDDINGS_MODEL is required/,
    )
    expect(() =>
      loadConfig({
        LANTERN_EMBEDDINGS: 'openai',
        LANTERN_EMBEDDINGS_BASE_URL: 'ftp://x',
        LANTERN_EMBEDDINGS_MODEL: 'm',
      }),
    ).toThrow(ConfigError)
    expect(() => loadConfig({ LANTERN_EMBEDDINGS: 'bert' })).toThrow(/must be one of none, use, openai/)
    expect(() => loadConfig({ LANTERN_EMBEDDINGS: 'onnx:/models/x' })).toThrow(/does not exist/)
  })
})
