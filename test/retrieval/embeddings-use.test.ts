import { describe, expect, it } from 'vitest'
import { cosine } from '../../src/retrieval/embeddings/types.js'
import { UniversalSentenceEncoder } from '../../src/retrieval/embeddings/universal-sentence-encoder.js'

const LOAD_BUDGET_MS = 20_000

describe('LANTERN_EMBEDDINGS=use: the Universal Sentence Encoder shipped in the npm package', () => {
  it('loads offline and puts paraphrases nearer than unrelated text', async (context) => {
    const encoder = new UniversalSentenceEncoder()
    const started = Date.now()
    let timer: NodeJS.Timeout | undefined
    const vectors = await Promise.race([
      encoder.embed(['reset my password', 'change the account password', 'the cafeteria opens at noon']),
      new Promise<undefined>((resolve) => {
        timer = setTimeout(() => resolve(undefined), LOAD_BUDGET_MS)
      }),
    ])
    clearTimeout(timer)
    if (!vectors) {
      console.log(`[lantern] the sentence encoder took over ${LOAD_BUDGET_MS} ms to load: test skipped`)
      context.skip()
      return
    }
    expect(Date.now() - started).toBeLessThan(LOAD_BUDGET_MS + 1000)
    const [question, paraphrase, unrelated] = vectors as [Float32Array, Float32Array, Float32Array]
    expect(encoder.name).toBe('use:en-512')
    expect(question).toHaveLength(encoder.dimensions)
    expect(cosine(question, paraphrase)).toBeGreaterThan(cosine(question, unrelated))
    expect(cosine(question, paraphrase)).toBeGreaterThan(0.5)
  }, 60_000)
})
