import { describe, expect, it } from 'vitest'
import { rankBm25 } from '../../src/retrieval/bm25.js'
import { CompanyIndex } from '../../src/retrieval/memory/company-index.js'
import type { ChunkPosting, IndexedChunk, ScoredPosting } from '../../src/storage/ports/search.js'

const VOCABULARY = 'alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi'.split(' ')

/** A deterministic pseudo-random sequence (fixed seed per test). */
function sequence(seed: number): () => number {
  let state = seed
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648
    return state / 2_147_483_648
  }
}

/** Integer keys of the documents, as the store gives them (kept across revisions). */
const documentKeys = new Map<string, number>()
function keyOf(documentId: string): number {
  let key = documentKeys.get(documentId)
  if (key === undefined) {
    key = documentKeys.size + 1
    documentKeys.set(documentId, key)
  }
  return key
}

interface Version {
  readonly chunks: IndexedChunk[]
  readonly postings: ChunkPosting[]
}

/** A document version: a few chunks of skewed random terms, ids unique per version. */
function version(documentId: string, revision: number, next: () => number): Version {
  const chunks: IndexedChunk[] = []
  const postings: ChunkPosting[] = []
  const count = 1 + Math.floor(next() * 12)
  for (let idx = 0; idx < count; idx++) {
    const chunkId = `${documentId}-r${revision}-c${String(idx).padStart(3, '0')}`
    const tfs = new Map<string, number>()
    const length = 5 + Math.floor(next() * 60)
    for (let i = 0; i < length; i++) {
      const term = VOCABULARY[Math.floor(next() * next() * VOCABULARY.length)] as string
      tfs.set(term, (tfs.get(term) ?? 0) + 1)
    }
    const ref = { documentKey: keyOf(documentId), chunkIdx: idx }
    chunks.push({ chunkId, documentId, ...ref, termCount: length, language: next() < 0.8 ? 'en' : 'fr' })
    for (const [term, tf] of tfs) postings.push({ ...ref, term, tf })
  }
  return { chunks, postings }
}

/** Every chunk's exhaustive BM25 score (rankBm25 over the current postings), by chunk id. */
function exhaustive(
  current: ReadonlyMap<string, Version>,
  terms: readonly string[],
  scope: ReadonlySet<string> | null,
) {
  const postings: ScoredPosting[] = []
  let chunkCount = 0
  let totalTerms = 0
  for (const [documentId, { chunks, postings: list }] of current) {
    const byIdx = new Map(chunks.map((chunk, idx) => [chunk.chunkIdx, { chunk, idx }]))
    chunkCount += chunks.length
    totalTerms += chunks.reduce((sum, chunk) => sum + chunk.termCount, 0)
    for (const posting of list) {
      const found = byIdx.get(posting.chunkIdx)
      if (!found) throw new Error('posting without chunk')
      postings.push({
        term: posting.term,
        tf: posting.tf,
        chunkId: found.chunk.chunkId,
        documentId,
        termCount: found.chunk.termCount,
        objectName: documentId,
        idx: found.idx,
      })
    }
  }
  const ranking = rankBm25(
    terms,
    postings,
    { chunkCount, averageLength: chunkCount > 0 ? totalTerms / chunkCount : 0 },
    (documentId) => !scope || scope.has(documentId),
    Number.MAX_SAFE_INTEGER,
  )
  return new Map(ranking.ranked.map((entry) => [entry.chunkId, entry.score]))
}

// The in-memory index against the exhaustive scorer through many replacements and removals: its
// segments are merged, rewritten and renumbered on the way, and the scores stay bit-identical.
describe('in-memory company index', () => {
  it('scores exactly as the exhaustive BM25 through replacements, removals, merges and renumbering', () => {
    const next = sequence(7)
    const index = new CompanyIndex(0)
    const current = new Map<string, Version>()
    const revisions = new Map<string, number>()
    const documents = Array.from({ length: 30 }, (_, i) => `doc-${String(i).padStart(2, '0')}`)
    let compared = 0
    for (let round = 0; round < 150; round++) {
      // One to three documents change per round: a new version, or removal.
      const changed = documents.filter(() => next() < 0.07)
      const batchChunks: IndexedChunk[] = []
      const batchPostings: ChunkPosting[] = []
      for (const id of changed) {
        if (current.has(id) && next() < 0.2) {
          current.delete(id)
          continue
        }
        const revision = (revisions.get(id) ?? 0) + 1
        revisions.set(id, revision)
        const fresh = version(id, revision, next)
        current.set(id, fresh)
        batchChunks.push(...fresh.chunks)
        batchPostings.push(...fresh.postings)
      }
      index.apply({ documentIds: changed, chunks: batchChunks, postings: batchPostings, contexts: [] })
      expect(index.chunkCount).toBe([...current.values()].reduce((sum, v) => sum + v.chunks.length, 0))

      if (round % 10 !== 9) continue
      for (const terms of [['alpha'], ['beta', 'omicron', 'pi'], ['kappa', 'alpha', 'nu', 'zeta']]) {
        for (const scope of [null, new Set(documents.filter((_, i) => i % 3 === 0))]) {
          for (const limit of [1, 5, 50]) {
            const scores = exhaustive(current, terms, scope)
            const sorted = [...scores.values()].sort((a, b) => b - a)
            const cut = sorted[Math.min(limit, sorted.length) - 1] ?? Number.NEGATIVE_INFINITY
            const { contenders } = index.score(terms, scope ? [...scope] : null, limit)
            const expected = [...scores].filter(([, score]) => score >= cut).sort()
            expect(contenders.map((c) => [c.chunkId, c.score]).sort(), `round ${round}`).toEqual(expected)
            compared += expected.length
          }
        }
      }
    }
    expect(compared).toBeGreaterThan(500)
    // Many more chunk versions were written than are alive: ordinals were renumbered on the way.
    expect([...revisions.values()].reduce((sum, n) => sum + n, 0)).toBeGreaterThan(documents.length * 3)
  })

  it('keeps the corpus statistics of the live chunks per language', () => {
    const index = new CompanyIndex(0)
    const chunk = (documentId: string, n: number, language: string, termCount: number): IndexedChunk => ({
      chunkId: `${documentId}-${n}`,
      documentId,
      documentKey: keyOf(documentId),
      chunkIdx: n,
      termCount,
      language,
    })
    index.apply({
      documentIds: ['a', 'b'],
      chunks: [chunk('a', 0, 'en', 10), chunk('a', 1, 'en', 20), chunk('b', 0, 'fr', 5)],
      postings: [{ documentKey: keyOf('a'), chunkIdx: 0, term: 'x', tf: 1 }],
      contexts: [],
    })
    expect(index.corpus()).toEqual([
      { language: 'en', chunkCount: 2, totalTerms: 30 },
      { language: 'fr', chunkCount: 1, totalTerms: 5 },
    ])
    // b removed (no chunks in its batch), a replaced.
    index.apply({ documentIds: ['a', 'b'], chunks: [chunk('a', 2, 'en', 7)], postings: [], contexts: [] })
    expect(index.corpus()).toEqual([{ language: 'en', chunkCount: 1, totalTerms: 7 }])
    expect(index.score(['x'], null, 10).contenders).toEqual([])
  })
})
