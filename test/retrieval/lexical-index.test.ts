import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { rankBm25 } from '../../src/retrieval/bm25.js'
import { LexicalRetriever } from '../../src/retrieval/lexical-retriever.js'
import { MemoryLexicalRetriever } from '../../src/retrieval/memory-lexical-retriever.js'
import type { ScoredPosting } from '../../src/storage/ports/search.js'
import { createTenant, type Tenant } from '../support/factories.js'
import { kbPath, uploadOk } from '../support/knowledge-base.js'
import { processNow, setState } from '../support/process-now.js'
import { readJsonLines, sharedData } from '../support/shared-data.js'
import { storeModes } from '../support/store-modes.js'
import { startTestApp, type TestApp } from '../support/test-app.js'

const DATA = sharedData('cacm-retrieval', 'the lexical index checks use generated abstracts')

interface Line {
  _id: string
  title?: string
  text: string
}

const VOCABULARY = (
  'computer programming language algorithm sorting numbers operating system memory management matrix ' +
  'inversion parallel processes communication data structure list compiler network storage search index ' +
  'query table record file graph tree queue stack recursion proof theorem method analysis design'
).split(' ')

/** CACM abstracts when the shared data is here; otherwise as many generated ones (fixed seed). */
function abstracts(): Line[] {
  if (DATA) return readJsonLines<Line>(DATA, 'corpus.jsonl').filter((doc) => doc.text.length > 200)
  let seed = 42
  const next = () => {
    seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648
    return seed / 2_147_483_648
  }
  const word = () => VOCABULARY[Math.floor(next() * next() * VOCABULARY.length)] as string
  return Array.from({ length: 400 }, (_, i) => ({
    _id: `g${i}`,
    title: `${word()} ${word()}`,
    text: Array.from({ length: 40 + Math.floor(next() * 80) }, word).join(' '),
  }))
}

const QUERIES = [
  'computer programming language',
  'algorithm for sorting numbers',
  'operating system memory management',
  'matrix inversion',
  'parallel processes communication',
  'the data structure of a list',
]

// The top k read best impact first must be exactly the top k of scoring every posting, and the
// statistics kept at write time must stay those of the PROCESSED chunks through every change.
describe.each(storeModes())('lexical index statistics and top-k (%s)', (mode) => {
  let t: TestApp
  let a: Tenant
  let b: Tenant
  /** Loaded at the first query and kept across every change below, as in a long-running process. */
  let memory: MemoryLexicalRetriever
  const documents = abstracts()
  /** Ids of tenant a's documents, by name, with whether they are PROCESSED. */
  const state = new Map<string, { id: string; processed: boolean }>()

  function textOf(from: number, count: number): string {
    return documents
      .slice(from, from + count)
      .map((doc) => `${doc.title ?? ''}\n\n${doc.text}`)
      .join('\n\n')
  }

  async function add(tenant: Tenant, name: string, text: string, folder: string): Promise<string> {
    const id = await uploadOk(t, tenant, name, text, { fields: { path: folder, overwrite: 'true' } })
    await processNow(t, tenant, id)
    if (tenant === a) state.set(name, { id, processed: true })
    return id
  }

  /** Exhaustive BM25 over every posting of tenant a's PROCESSED documents, from the chunk ports. */
  async function oracle(terms: readonly string[], scope: readonly string[] | null, limit: number) {
    const postings: ScoredPosting[] = []
    let chunkCount = 0
    let totalTerms = 0
    for (const { id, processed } of state.values()) {
      if (!processed) continue
      const document = await t.ctx.store.knowledgeBase.findById(a.companyId, id)
      const chunks = await t.ctx.store.chunks.listForDocument(a.companyId, id)
      const byIdx = new Map(chunks.map((chunk) => [chunk.idx, chunk]))
      chunkCount += chunks.length
      totalTerms += chunks.reduce((sum, chunk) => sum + chunk.termCount, 0)
      for (const posting of await t.ctx.store.chunks.postingsForDocument(a.companyId, id)) {
        const chunk = byIdx.get(posting.chunkIdx)
        if (!chunk) throw new Error('posting without chunk')
        postings.push({
          term: posting.term,
          tf: posting.tf,
          chunkId: chunk.id,
          documentId: id,
          termCount: chunk.termCount,
          objectName: document?.objectName ?? '',
          idx: chunk.idx,
        })
      }
    }
    const inScope = scope ? new Set(scope) : undefined
    return rankBm25(
      terms,
      postings,
      { chunkCount, averageLength: chunkCount > 0 ? totalTerms / chunkCount : 0 },
      (documentId) => !inScope || inScope.has(documentId),
      limit,
    )
  }

  async function expectExact(scope: readonly string[] | null = null): Promise<void> {
    // Tiny pages and no exhaustive scoped path: many rounds of the threshold algorithm.
    const paths = [
      new LexicalRetriever(t.ctx.store.search),
      new LexicalRetriever(t.ctx.store.search, { pageSize: 3, exhaustiveChunks: 0 }),
      memory,
      // Loaded now, from scratch.
      memoryRetriever(),
    ]
    for (const text of QUERIES) {
      for (const limit of [1, 10, 40]) {
        const expected = await oracle(
          (await paths[0]?.retrieve(a.companyId, { text, scope: { documentIds: scope }, limit, language: 'en' }))?.query
            .terms ?? [],
          scope,
          limit,
        )
        for (const retriever of paths) {
          const result = await retriever.retrieve(a.companyId, {
            text,
            scope: { documentIds: scope },
            limit,
            language: 'en',
          })
          expect(
            result.chunks.map((chunk) => [chunk.chunkId, chunk.score]),
            `${text} (limit ${limit})`,
          ).toEqual(expected.ranked.map((entry) => [entry.chunkId, entry.score]))
        }
      }
    }
  }

  function memoryRetriever(): MemoryLexicalRetriever {
    const search = t.ctx.store.search
    return new MemoryLexicalRetriever({
      repository: search,
      fallback: new LexicalRetriever(search),
      cache: { budgetBytes: 64 * 1024 * 1024 },
    })
  }

  beforeAll(async () => {
    t = await startTestApp(mode)
    a = await createTenant(t)
    b = await createTenant(t)
    memory = memoryRetriever()
    // Loaded while tenant a has no documents: everything below arrives through the change log.
    await memory.retrieve(a.companyId, { text: 'computer', scope: { documentIds: null }, limit: 1 })
    for (let i = 0; i < 8; i++) await add(a, `part-${i}.txt`, textOf(i * 12, 12), i % 2 === 0 ? '/even' : '/odd')
    // Exact copies: equal scores everywhere, so the tie-break decides.
    await add(a, 'copy-a.txt', textOf(0, 12), '/copies')
    await add(a, 'copy-b.txt', textOf(0, 12), '/copies')
    // Another company's documents must not move tenant a's statistics.
    await add(b, 'other.txt', textOf(200, 30), '/')
  }, 300_000)
  afterAll(async () => {
    await t?.close()
  })

  it('reading postings best impact first gives exactly the exhaustive top k', async () => {
    await expectExact()
  }, 120_000)

  it('honours a scope on both paths', async () => {
    const scope = [...state].filter(([name]) => /part-[0246]|copy-a/.test(name)).map(([, { id }]) => id)
    await expectExact(scope.sort())
  }, 120_000)

  it('reads the company’s postings by whole terms, whatever the page size', async () => {
    const keyOf = (p: { term: string; documentKey: number; chunkIdx: number; tf: number }) =>
      `${p.term}|${p.documentKey}|${p.chunkIdx}|${p.tf}`
    const byDocument = new Map<number, string>()
    for (const { id } of state.values()) {
      const [chunk] = await t.ctx.store.search.searchableChunks(a.companyId, [id])
      if (chunk) byDocument.set(chunk.documentKey, id)
    }
    const expected: string[] = []
    for (const [documentKey, id] of byDocument) {
      for (const posting of await t.ctx.store.chunks.postingsForDocument(a.companyId, id))
        expected.push(keyOf({ ...posting, documentKey }))
    }
    for (const limit of [1, 2, 7, 1_000_000]) {
      const read: string[] = []
      const pageOfTerm = new Map<string, number>()
      let from: string | null = null
      for (let page = 0; ; page++) {
        const { postings, next } = await t.ctx.store.search.postingsFromTerm(a.companyId, from, limit)
        for (const posting of postings) {
          expect(pageOfTerm.get(posting.term) ?? page, `${posting.term} in two pages`).toBe(page)
          pageOfTerm.set(posting.term, page)
          read.push(keyOf(posting))
        }
        if (next === null) break
        expect(next > (from ?? '')).toBe(true)
        from = next
      }
      expect(read.sort(), `pages of ${limit} blocks`).toEqual([...expected].sort())
    }
  }, 120_000)

  it('keeps the statistics right through overwrite, reprocessing, failure and deletion', async () => {
    // Overwrite: same name, other text.
    await add(a, 'part-1.txt', textOf(300, 10), '/odd')
    // Being processed again, then failed: chunks stay but are not searchable.
    const two = state.get('part-2.txt')
    const three = state.get('part-3.txt')
    if (!two || !three) throw new Error('missing documents')
    await setState(t, a, two.id, 'PROCESSING')
    two.processed = false
    await setState(t, a, three.id, 'ERROR')
    three.processed = false
    // Deleted.
    const copy = state.get('copy-b.txt')
    if (!copy) throw new Error('missing document')
    const deleted = await t.request('DELETE', kbPath(a, `/${copy.id}`), { token: a.token })
    expect(deleted.status).toBeLessThan(300)
    state.delete('copy-b.txt')
    // Another company adds and removes documents meanwhile.
    const gone = await add(b, 'gone.txt', textOf(0, 40), '/')
    expect((await t.request('DELETE', kbPath(b, `/${gone}`), { token: b.token })).status).toBeLessThan(300)
    await expectExact()

    // Processed again: back in the statistics.
    await processNow(t, a, two.id)
    two.processed = true
    await expectExact()

    // The kept document frequencies equal a count over the remaining chunks.
    const terms = ['comput', 'program', 'algorithm', 'languag', 'matrix', 'system']
    const counts = new Map<string, number>()
    for (const { id } of state.values()) {
      for (const posting of await t.ctx.store.chunks.postingsForDocument(a.companyId, id)) {
        if (terms.includes(posting.term)) counts.set(posting.term, (counts.get(posting.term) ?? 0) + 1)
      }
    }
    expect(await t.ctx.store.search.documentFrequencies(a.companyId, terms, [])).toEqual(counts)
  }, 300_000)

  it('keeps companies apart: no hit and no statistics from another company', async () => {
    const result = await new LexicalRetriever(t.ctx.store.search).retrieve(b.companyId, {
      text: 'computer program',
      scope: { documentIds: null },
      limit: 50,
    })
    const ids = new Set(
      (await t.ctx.store.chunks.listForDocument(a.companyId, state.get('part-0.txt')?.id ?? '')).map((c) => c.id),
    )
    expect(result.chunks.length).toBeGreaterThan(0)
    for (const chunk of result.chunks) expect(ids.has(chunk.chunkId)).toBe(false)
    const docs = await t.ctx.store.search.indexedDocuments(b.companyId)
    expect(docs.map((d) => d.documentId)).not.toContain(state.get('part-0.txt')?.id)
  })
})
