import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type AppContext, buildAppContext } from '../../src/app-context.js'
import { loadConfig } from '../../src/config.js'
import { LexicalRetriever } from '../../src/retrieval/lexical-retriever.js'
import { MemoryLexicalRetriever } from '../../src/retrieval/memory-lexical-retriever.js'
import type { SearchQuery } from '../../src/retrieval/types.js'
import type { SearchRepository } from '../../src/storage/ports/search.js'
import { createTenant, type Tenant } from '../support/factories.js'
import { kbPath, uploadOk } from '../support/knowledge-base.js'
import { processNow, setState } from '../support/process-now.js'
import { storeModes } from '../support/store-modes.js'
import { startTestApp, type TestApp } from '../support/test-app.js'

const TEXTS = [
  'The compiler translates the programming language into machine code for the processor.',
  'Operating systems manage memory, processes and files on behalf of the programs they run.',
  'A sorting algorithm orders numbers; quicksort and mergesort are the usual examples of it.',
  'Matrix inversion and linear systems are solved by numerical methods on the computer.',
]

function query(text: string, documentIds: readonly string[] | null = null, limit = 10): SearchQuery {
  return { text, scope: { documentIds }, limit, language: 'en' }
}

function memoryRetriever(search: SearchRepository, budgetBytes = 64 * 1024 * 1024): MemoryLexicalRetriever {
  return new MemoryLexicalRetriever({
    repository: search,
    fallback: new LexicalRetriever(search),
    cache: { budgetBytes },
  })
}

// The in-memory index of one API process must answer exactly as the store does, and see every
// change made through any process on its next query.
describe.each(storeModes())('in-memory lexical index (%s)', (mode) => {
  let t: TestApp
  /** A second API process on the same database: its own context, its own in-memory indexes. */
  let other: AppContext
  let a: Tenant
  let b: Tenant
  /** Tenant a's documents of TEXTS, in order. */
  const textIds: string[] = []

  async function add(tenant: Tenant, name: string, text: string): Promise<string> {
    const id = await uploadOk(t, tenant, name, text, { fields: { path: '/docs', overwrite: 'true' } })
    await processNow(t, tenant, id)
    return id
  }

  /** The other process's hits, checked against the store-based scorer on the same data. */
  async function hits(tenant: Tenant, text: string, scope: readonly string[] | null = null): Promise<string[]> {
    const [fromMemory, fromStore] = [
      await other.retriever.retrieve(tenant.companyId, query(text, scope)),
      await new LexicalRetriever(other.store.search).retrieve(tenant.companyId, query(text, scope)),
    ]
    expect(fromMemory.chunks.map((c) => [c.chunkId, c.score])).toEqual(
      fromStore.chunks.map((c) => [c.chunkId, c.score]),
    )
    return fromMemory.chunks.map((chunk) => chunk.documentId)
  }

  beforeAll(async () => {
    t = await startTestApp(mode)
    const config = loadConfig({}, { ...t.ctx.config, logLevel: 'silent' })
    other = await buildAppContext(config, { migrate: false })
    a = await createTenant(t)
    b = await createTenant(t)
    for (const [i, text] of TEXTS.entries()) textIds.push(await add(a, `a-${i}.txt`, text))
    await add(b, 'b-0.txt', `${TEXTS[0]} ${TEXTS[1]}`)
  }, 120_000)
  afterAll(async () => {
    await other?.close()
    await t?.close()
  })

  it('is what the service searches with', () => {
    expect(other.retriever).toBeInstanceOf(MemoryLexicalRetriever)
  })

  it('sees uploads, reprocessing, failures and deletes made by another process on the next query', async () => {
    // Loaded here, before the changes.
    expect(await hits(a, 'compiler memory')).toHaveLength(2)
    expect(await hits(a, 'zeppelin')).toEqual([])

    const added = await add(a, 'new.txt', 'A zeppelin is a rigid airship; the compiler has nothing to do with it.')
    expect(await hits(a, 'zeppelin')).toEqual([added])

    // Being processed again: not searchable, and out of the statistics.
    await setState(t, a, added, 'PROCESSING')
    expect(await hits(a, 'zeppelin')).toEqual([])
    expect(await hits(a, 'compiler')).toHaveLength(1)

    // Reprocessed with other content: the old terms are gone, the new ones found.
    await uploadOk(t, a, 'new.txt', 'A hovercraft rides on a cushion of air.', {
      fields: { path: '/docs', overwrite: 'true' },
    })
    await processNow(t, a, added)
    expect(await hits(a, 'zeppelin')).toEqual([])
    expect(await hits(a, 'hovercraft')).toEqual([added])

    await setState(t, a, added, 'ERROR')
    expect(await hits(a, 'hovercraft')).toEqual([])
    await processNow(t, a, added)
    expect(await hits(a, 'hovercraft')).toEqual([added])

    const deleted = await t.request('DELETE', kbPath(a, `/${added}`), { token: a.token })
    expect(deleted.status).toBeLessThan(300)
    expect(await hits(a, 'hovercraft')).toEqual([])
    expect(await hits(a, 'compiler air')).toHaveLength(1)
  }, 120_000)

  it('applies the other way round: a change through the second process, seen by the first', async () => {
    expect((await t.ctx.retriever.retrieve(a.companyId, query('quokka'))).chunks).toEqual([])
    const id = await uploadOk(t, a, 'quokka.txt', 'The quokka is a small marsupial.', { fields: { path: '/docs' } })
    const document = await other.store.knowledgeBase.findById(a.companyId, id)
    expect(document?.kind).toBe('document')
    // Marked processed by the second process's store.
    await processNow(t, a, id)
    await other.store.knowledgeBase.updateProcessing(a.companyId, id, 'any', { state: 'PROCESSING' })
    expect((await t.ctx.retriever.retrieve(a.companyId, query('quokka'))).chunks).toEqual([])
    await other.store.knowledgeBase.updateProcessing(a.companyId, id, 'any', { state: 'PROCESSED' })
    expect((await t.ctx.retriever.retrieve(a.companyId, query('quokka'))).chunks.map((c) => c.documentId)).toEqual([id])
  })

  it('reloads the whole company when changes it has not read were dropped from the log', async () => {
    const search = t.ctx.store.search
    // A change log whose two oldest entries after any version are gone (as after pruning).
    const pruned = new Proxy(search, {
      get(target, property, receiver) {
        if (property === 'indexChangesSince') {
          return async (companyId: string, version: number) =>
            (await target.indexChangesSince(companyId, version)).filter((change) => change.version > version + 2)
        }
        const value = Reflect.get(target, property, receiver)
        return typeof value === 'function' ? value.bind(target) : value
      },
    }) as SearchRepository
    const retriever = memoryRetriever(pruned)
    expect((await retriever.retrieve(a.companyId, query('walrus'))).chunks).toEqual([])
    // Two changes name the new document (chunks written, then PROCESSED): both dropped; only a
    // later change of another document is read.
    const id = await add(a, 'walrus.txt', 'The walrus lives in the Arctic Ocean.')
    const other = await uploadOk(t, a, 'seal.txt', 'The seal swims.', { fields: { path: '/docs' } })
    await setState(t, a, other, 'ERROR')
    const found = await retriever.retrieve(a.companyId, query('walrus'))
    expect(found.chunks.map((chunk) => chunk.documentId)).toEqual([id])
    expect(retriever.cache.companies).toEqual([a.companyId])
  })

  it('honours a scope', async () => {
    // The compiler text and the sorting one.
    const two = [textIds[0] as string, textIds[2] as string]
    const found = await hits(a, 'compiler memory numbers matrix', two)
    expect(found.length).toBeGreaterThan(0)
    expect(new Set(found)).toEqual(new Set(two))
  })

  it('keeps companies apart: hits and statistics of one company only', async () => {
    const ofB = await other.retriever.retrieve(b.companyId, query('compiler memory', null, 50))
    const fromStore = await new LexicalRetriever(other.store.search).retrieve(
      b.companyId,
      query('compiler memory', null, 50),
    )
    expect(ofB.chunks.length).toBeGreaterThan(0)
    // Same scores as the store's: tenant a's chunks do not count in b's document frequencies.
    expect(ofB.chunks.map((c) => [c.chunkId, c.score])).toEqual(fromStore.chunks.map((c) => [c.chunkId, c.score]))
    const ofA = new Set((await other.store.search.indexedDocuments(a.companyId)).map((document) => document.documentId))
    for (const chunk of ofB.chunks) expect(ofA.has(chunk.documentId)).toBe(false)
  })

  it('stays within its memory budget: least recently used company dropped, too large served by the store', async () => {
    const probe = memoryRetriever(t.ctx.store.search)
    await probe.retrieve(a.companyId, query('compiler'))
    const sizeOfA = probe.cache.bytes
    await probe.retrieve(b.companyId, query('compiler'))
    const sizeOfBoth = probe.cache.bytes
    expect(sizeOfBoth).toBeGreaterThan(sizeOfA)

    // Room for the larger of the two only: each load drops the other.
    const small = memoryRetriever(t.ctx.store.search, Math.max(sizeOfA, sizeOfBoth - sizeOfA) + 1)
    await small.retrieve(a.companyId, query('compiler'))
    expect(small.cache.companies).toEqual([a.companyId])
    await small.retrieve(b.companyId, query('compiler'))
    expect(small.cache.companies).toEqual([b.companyId])
    const again = await small.retrieve(a.companyId, query('compiler memory'))
    expect(small.cache.companies).toEqual([a.companyId])
    expect(small.cache.bytes).toBeLessThanOrEqual(Math.max(sizeOfA, sizeOfBoth - sizeOfA) + 1)
    const store = await new LexicalRetriever(t.ctx.store.search).retrieve(a.companyId, query('compiler memory'))
    expect(again.chunks.map((c) => [c.chunkId, c.score])).toEqual(store.chunks.map((c) => [c.chunkId, c.score]))

    // Nothing fits: nothing kept, the store answers, the same ranking.
    const tiny = memoryRetriever(t.ctx.store.search, 1024)
    const served = await tiny.retrieve(a.companyId, query('compiler memory'))
    expect(tiny.cache.companies).toEqual([])
    expect(served.chunks.map((c) => [c.chunkId, c.score])).toEqual(store.chunks.map((c) => [c.chunkId, c.score]))
    expect(served.chunks.length).toBeGreaterThan(0)
  })
})
