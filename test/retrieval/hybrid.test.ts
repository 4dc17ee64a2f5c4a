import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { enqueueEmbeddingBackfill } from '../../src/ingestion/jobs/embed-job.js'
import type { JobRunner } from '../../src/jobs/runner.js'
import { OpenAiEmbedder } from '../../src/retrieval/embeddings/openai.js'
import { HybridRetriever } from '../../src/retrieval/hybrid-retriever.js'
import { LexicalRetriever } from '../../src/retrieval/lexical-retriever.js'
import { eventually } from '../jobs/fixtures.js'
import { createTenant, type Tenant } from '../support/factories.js'
import { type FakeEmbeddingsServer, startFakeEmbeddings } from '../support/fake-embeddings.js'
import { createIsolatedDatabase, type IsolatedDatabase } from '../support/isolated-database.js'
import { kbPath, uploadOk } from '../support/knowledge-base.js'
import { processNow } from '../support/process-now.js'
import { storeModes } from '../support/store-modes.js'
import { startTestApp, type TestApp } from '../support/test-app.js'

const GARAGE = 'Our garage handles car repair for the company fleet. Bring the car to the mechanic on Monday.'
const CANTEEN = 'The canteen serves lunch from noon. The lunch menu changes every week with soup and salad.'
const TRAVEL = 'Train tickets are booked through the travel desk two days ahead of the trip.'
const MODEL = 'fake-embed-1'

describe.each(storeModes())('%s: hybrid retrieval (BM25 + dense vectors)', (mode) => {
  let server: FakeEmbeddingsServer
  let database: IsolatedDatabase | undefined
  let t: TestApp
  let runner: JobRunner

  beforeAll(async () => {
    server = await startFakeEmbeddings()
    // Job runners claim every company's jobs: a database of this file's own on PostgreSQL.
    database = mode === 'postgres' ? await createIsolatedDatabase(`hybrid_${mode}`) : undefined
    t = await startTestApp(mode, {
      config: {
        databaseUrl: database?.url,
        embeddings: { kind: 'openai', baseUrl: server.baseUrl, apiKey: 'sk-fake', model: MODEL, timeoutMs: 5000 },
      },
    })
    runner = t.ctx.createJobRunner({ owner: `test-${randomUUID()}`, concurrency: 2 })
    runner.start()
  })
  afterAll(async () => {
    await runner?.stop(0)
    await t?.close()
    await database?.drop()
    await server?.close()
  })

  async function processed(tenant: Tenant, id: string) {
    return eventually(async () => {
      const res = await t.request('GET', kbPath(tenant, `/${id}`), { token: tenant.token })
      const state = res.body?.processing?.embedding_state
      if (state === 'ERROR') throw new Error(`document failed: ${res.body.processing.error_details}`)
      return state === 'PROCESSED' ? res.body : undefined
    }, `document ${id} to be processed`)
  }

  const vectorRows = (companyId: string, documentId: string) =>
    t.ctx.store.chunkVectors.countForDocument(companyId, documentId, `openai:${MODEL}`)

  async function corpus() {
    const tenant = await createTenant(t)
    const garage = await uploadOk(t, tenant, 'garage.md', GARAGE, { fields: { path: '/fleet' } })
    const canteen = await uploadOk(t, tenant, 'canteen.md', CANTEEN, { fields: { path: '/food' } })
    const travel = await uploadOk(t, tenant, 'travel.md', TRAVEL, { fields: { path: '/travel' } })
    for (const id of [garage, canteen, travel]) await processed(tenant, id)
    return { tenant, garage, canteen, travel }
  }

  function search(tenant: Tenant, query: string) {
    return t.request('POST', kbPath(tenant, '/search'), { token: tenant.token, json: { query } })
  }

  it('ingestion stores one vector per chunk, computed by the configured endpoint', async () => {
    const c = await corpus()
    for (const id of [c.garage, c.canteen, c.travel]) {
      const chunks = await t.ctx.store.chunks.countForDocument(c.tenant.companyId, id)
      expect(chunks).toBeGreaterThan(0)
      expect(await vectorRows(c.tenant.companyId, id)).toBe(chunks)
    }
    const ingestCall = server.calls.find(
      (call) => Array.isArray(call.input) && (call.input as string[]).some((text) => text.includes('garage')),
    )
    expect(ingestCall).toMatchObject({ path: '/v1/embeddings', authorization: 'Bearer sk-fake', model: MODEL })
  })

  it('finds a document by meaning when no query word matches it, where lexical search finds nothing', async () => {
    const c = await corpus()
    const query = 'automobile mend'
    const lexical = await new LexicalRetriever(t.ctx.store.search).search(c.tenant.companyId, {
      text: query,
      scope: { documentIds: null },
      limit: 10,
    })
    expect(lexical).toEqual([])

    const res = await search(c.tenant, query)
    expect(res.status, res.text).toBe(200)
    const hits = res.body.hits as { document_id: string; score: number; usage_score: number }[]
    expect(hits[0]?.document_id).toBe(c.garage)
    expect(hits[0]?.score).toBeGreaterThan(0)
    expect(hits[0]?.usage_score).toBeGreaterThan(0.5)
    expect(hits[0]?.usage_score).toBeLessThanOrEqual(1)
    for (const hit of hits.slice(1)) expect(hit.score).toBeLessThanOrEqual(hits[0]?.score ?? 0)

    // A lexical match still leads: fusion keeps what BM25 found on top.
    const lunch = await search(c.tenant, 'lunch menu')
    expect(lunch.body.hits[0].document_id).toBe(c.canteen)
  })

  it('fusion is deterministic and honours the scope', async () => {
    const c = await corpus()
    const retriever = t.ctx.retriever
    expect(retriever).toBeInstanceOf(HybridRetriever)
    const query = { text: 'car lunch train', scope: { documentIds: null }, limit: 10 }
    const first = await retriever.search(c.tenant.companyId, query)
    const second = await retriever.search(c.tenant.companyId, query)
    expect(first.map((chunk) => [chunk.chunkId, chunk.score])).toEqual(
      second.map((chunk) => [chunk.chunkId, chunk.score]),
    )
    expect(new Set(first.map((chunk) => chunk.documentId))).toEqual(new Set([c.garage, c.canteen, c.travel]))
    const scoped = await retriever.search(c.tenant.companyId, { ...query, scope: { documentIds: [c.travel] } })
    expect(new Set(scoped.map((chunk) => chunk.documentId))).toEqual(new Set([c.travel]))
    expect(await retriever.search(c.tenant.companyId, { ...query, scope: { documentIds: [] } })).toEqual([])
    // Another company's vectors are never scored.
    const other = await createTenant(t)
    expect(await retriever.search(other.companyId, query)).toEqual([])
  })

  it('a deleted document takes its vectors with it', async () => {
    const c = await corpus()
    expect(await vectorRows(c.tenant.companyId, c.garage)).toBeGreaterThan(0)
    const res = await t.request('DELETE', kbPath(c.tenant, `/${c.garage}`), { token: c.tenant.token })
    expect(res.status, res.text).toBeLessThan(300)
    expect(await vectorRows(c.tenant.companyId, c.garage)).toBe(0)
    const hits = (await search(c.tenant, 'automobile mend')).body.hits as { document_id: string }[]
    expect(hits.some((hit) => hit.document_id === c.garage)).toBe(false)
  })

  it('the backfill embeds documents processed before embeddings were enabled', async () => {
    const tenant = await createTenant(t)
    // Indexed without the job (as an earlier version with LANTERN_EMBEDDINGS=none did): no vectors.
    const id = await uploadOk(t, tenant, 'garage.md', GARAGE, { fields: { path: '/old' } })
    await eventually(async () => (await t.ctx.store.jobs.countOpen(tenant.companyId, id)) === 0, 'the upload job')
    await processNow(t, tenant, id)
    expect(await vectorRows(tenant.companyId, id)).toBe(0)
    expect(await t.ctx.store.chunkVectors.documentsMissing(tenant.companyId, `openai:${MODEL}`)).toEqual([id])

    const embedder = new OpenAiEmbedder({ baseUrl: server.baseUrl, apiKey: 'sk-fake', model: MODEL, timeoutMs: 5000 })
    expect(await enqueueEmbeddingBackfill(t.ctx.store, embedder, t.ctx.clock)).toBeGreaterThanOrEqual(1)
    const chunks = await t.ctx.store.chunks.countForDocument(tenant.companyId, id)
    await eventually(async () => (await vectorRows(tenant.companyId, id)) === chunks, 'the backfilled vectors')
    expect(await t.ctx.store.chunkVectors.documentsMissing(tenant.companyId, `openai:${MODEL}`)).toEqual([])
    const hits = (await search(tenant, 'automobile mend')).body.hits as { document_id: string }[]
    expect(hits[0]?.document_id).toBe(id)
  })

  it('an embeddings endpoint failing at ingestion makes the job retry, and the retry stores the vectors', async () => {
    const tenant = await createTenant(t)
    // The client's own retries (2) are used up, so the ingest job fails once and is queued again.
    const before = server.calls.length
    server.failNext(503, 503, 503)
    const id = await uploadOk(t, tenant, 'travel.md', TRAVEL, { fields: { path: '/retry' } })
    const body = await processed(tenant, id)
    expect(body.processing.chunk_count).toBeGreaterThan(0)
    expect(await vectorRows(tenant.companyId, id)).toBe(body.processing.chunk_count)
    // Three failed requests (one job attempt), then the retried attempt's successful one.
    expect(server.calls.length - before).toBe(4)
  }, 40_000)

  it('an unreachable embeddings endpoint leaves search lexical, not broken', async () => {
    const c = await corpus()
    const broken = new HybridRetriever({
      lexical: new LexicalRetriever(t.ctx.store.search),
      embedder: new OpenAiEmbedder({ baseUrl: 'http://127.0.0.1:1/v1', model: MODEL, timeoutMs: 2000, maxRetries: 0 }),
      vectors: t.ctx.store.chunkVectors,
      search: t.ctx.store.search,
    })
    const hits = await broken.search(c.tenant.companyId, { text: 'lunch', scope: { documentIds: null }, limit: 5 })
    expect(hits.map((hit) => hit.documentId)).toEqual([c.canteen])
  })
})
