import { randomUUID } from 'node:crypto'
import { mkdirSync, mkdtempSync, rmSync, unlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ConfigError, loadConfig } from '../../src/config.js'
import type { JobRunner } from '../../src/jobs/runner.js'
import { embedderFromConfig } from '../../src/retrieval/embeddings/from-config.js'
import { OnnxEmbedder } from '../../src/retrieval/embeddings/onnx.js'
import { cosine, EmbeddingError } from '../../src/retrieval/embeddings/types.js'
import { HybridRetriever } from '../../src/retrieval/hybrid-retriever.js'
import { LexicalRetriever } from '../../src/retrieval/lexical-retriever.js'
import { eventually } from '../jobs/fixtures.js'
import { createTenant, type Tenant } from '../support/factories.js'
import { createIsolatedDatabase, type IsolatedDatabase } from '../support/isolated-database.js'
import { kbPath, uploadOk } from '../support/knowledge-base.js'
import { storeModes } from '../support/store-modes.js'
import { startTestApp, type TestApp } from '../support/test-app.js'
import { TINY_MODEL_CONCEPTS, writeTinyOnnxModel } from '../support/tiny-onnx-model.js'

const GARAGE = 'Our garage handles car repair for the company fleet. Bring the car to the mechanic on Monday.'
const CANTEEN = 'The canteen serves lunch from noon. The lunch menu changes every week with soup and salad.'
const TRAVEL = 'Train tickets are booked through the travel desk two days ahead of the trip.'

let root: string
let modelDir: string

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'lantern-onnx-'))
  modelDir = join(root, 'tiny-bert')
  writeTinyOnnxModel(modelDir)
})
afterAll(() => rmSync(root, { recursive: true, force: true }))

describe('LANTERN_EMBEDDINGS=onnx:<dir> configuration', () => {
  it('accepts a model directory and resolves it', () => {
    expect(loadConfig({ LANTERN_EMBEDDINGS: `onnx:${modelDir}` }).embeddings).toEqual({ kind: 'onnx', dir: modelDir })
    const config = loadConfig({ LANTERN_EMBEDDINGS: ` onnx:${modelDir} ` }).embeddings
    const embedder = embedderFromConfig(config)
    expect(embedder).toBeInstanceOf(OnnxEmbedder)
    expect(embedder?.name).toBe(`onnx:${modelDir}`)
  })

  it('rejects a missing or incomplete directory at start with a clear message', () => {
    expect(() => loadConfig({ LANTERN_EMBEDDINGS: 'onnx:' })).toThrow(/needs the model directory/)
    expect(() => loadConfig({ LANTERN_EMBEDDINGS: `onnx:${join(root, 'nowhere')}` })).toThrow(ConfigError)
    expect(() => loadConfig({ LANTERN_EMBEDDINGS: `onnx:${join(root, 'nowhere')}` })).toThrow(
      /the model directory .*nowhere does not exist/,
    )
    const partial = join(root, 'partial')
    writeTinyOnnxModel(partial)
    unlinkSync(join(partial, 'onnx/model.onnx'))
    expect(() => loadConfig({ LANTERN_EMBEDDINGS: `onnx:${partial}` })).toThrow(/lacks onnx\/model\.onnx/)
    expect(() => loadConfig({ LANTERN_EMBEDDINGS: 'bert' })).toThrow(/must be one of none, use, openai, onnx:<dir>/)
  })
})

describe('ONNX embedder (transformers.js, local model, remote loading off)', () => {
  it('embeds in batches, mean-pooled and normalised, one vector per text', async () => {
    const embedder = new OnnxEmbedder(modelDir)
    expect(embedder.dimensions).toBe(0)
    // More texts than one batch, blank and unknown-word texts included.
    const texts = ['automobile mend', GARAGE, CANTEEN, '', 'zzz qqq', ...Array.from({ length: 20 }, () => TRAVEL)]
    const vectors = await embedder.embed(texts)
    expect(vectors).toHaveLength(texts.length)
    expect(embedder.dimensions).toBe(TINY_MODEL_CONCEPTS.length)
    for (const vector of vectors) expect(vector).toHaveLength(TINY_MODEL_CONCEPTS.length)
    const [query, garage, canteen, blank, unknown, travel] = vectors as Float32Array[]
    // Mean of the token rows, normalised: "automobile mend" is half vehicle, half repair.
    const [vehicle, repair, ...others] = query as Float32Array
    expect(vehicle).toBeCloseTo(Math.SQRT1_2, 5)
    expect(repair).toBeCloseTo(Math.SQRT1_2, 5)
    expect(others).toEqual([0, 0, 0])
    const norm = Math.hypot(...(garage as Float32Array))
    expect(norm).toBeCloseTo(1, 5)
    expect(cosine(query as Float32Array, garage as Float32Array)).toBeGreaterThan(0.9)
    expect(cosine(query as Float32Array, canteen as Float32Array)).toBe(0)
    // Nothing known to the model: a zero vector (never NaN), which matches nothing.
    expect([...(blank as Float32Array)].every((v) => v === 0)).toBe(true)
    expect([...(unknown as Float32Array)].every((v) => v === 0)).toBe(true)
    expect(cosine(travel as Float32Array, vectors[24] as Float32Array)).toBeCloseTo(1, 6)
  }, 60_000)

  it('fails with EmbeddingError when the model cannot be loaded, and loads once it can', async () => {
    const dir = join(root, 'late')
    mkdirSync(dir)
    const embedder = new OnnxEmbedder(dir)
    await expect(embedder.embed(['car'])).rejects.toBeInstanceOf(EmbeddingError)
    await expect(embedder.embed(['car'])).rejects.toThrow(/could not be loaded/)
    writeTinyOnnxModel(dir)
    expect(await embedder.embed(['car'])).toHaveLength(1)
  }, 60_000)
})

describe.each(storeModes())('%s: hybrid retrieval with LANTERN_EMBEDDINGS=onnx:<dir>', (mode) => {
  let database: IsolatedDatabase | undefined
  let t: TestApp
  let runner: JobRunner

  beforeAll(async () => {
    // Job runners claim every company's jobs: a database of this file's own on PostgreSQL.
    database = mode === 'postgres' ? await createIsolatedDatabase(`onnx_${mode}`) : undefined
    t = await startTestApp(mode, {
      config: { databaseUrl: database?.url, embeddings: { kind: 'onnx', dir: modelDir } },
    })
    runner = t.ctx.createJobRunner({ owner: `test-${randomUUID()}`, concurrency: 2 })
    runner.start()
  })
  afterAll(async () => {
    await runner?.stop(0)
    await t?.close()
    await database?.drop()
  })

  async function processed(tenant: Tenant, id: string) {
    return eventually(async () => {
      const res = await t.request('GET', kbPath(tenant, `/${id}`), { token: tenant.token })
      const state = res.body?.processing?.embedding_state
      if (state === 'ERROR') throw new Error(`document failed: ${res.body.processing.error_details}`)
      return state === 'PROCESSED' ? res.body : undefined
    }, `document ${id} to be processed`)
  }

  function search(tenant: Tenant, query: string) {
    return t.request('POST', kbPath(tenant, '/search'), { token: tenant.token, json: { query } })
  }

  it('stores one vector per chunk and finds a document by meaning where lexical search finds nothing', async () => {
    const tenant = await createTenant(t)
    const garage = await uploadOk(t, tenant, 'garage.md', GARAGE, { fields: { path: '/fleet' } })
    const canteen = await uploadOk(t, tenant, 'canteen.md', CANTEEN, { fields: { path: '/food' } })
    const travel = await uploadOk(t, tenant, 'travel.md', TRAVEL, { fields: { path: '/travel' } })
    for (const id of [garage, canteen, travel]) await processed(tenant, id)
    for (const id of [garage, canteen, travel]) {
      const chunks = await t.ctx.store.chunks.countForDocument(tenant.companyId, id)
      expect(chunks).toBeGreaterThan(0)
      expect(await t.ctx.store.chunkVectors.countForDocument(tenant.companyId, id, `onnx:${modelDir}`)).toBe(chunks)
    }

    expect(t.ctx.retriever).toBeInstanceOf(HybridRetriever)
    const query = 'automobile mend'
    const lexical = await new LexicalRetriever(t.ctx.store.search).search(tenant.companyId, {
      text: query,
      scope: { documentIds: null },
      limit: 10,
    })
    expect(lexical).toEqual([])
    const res = await search(tenant, query)
    expect(res.status, res.text).toBe(200)
    const hits = res.body.hits as { document_id: string; usage_score: number }[]
    expect(hits[0]?.document_id).toBe(garage)
    expect(hits[0]?.usage_score).toBeGreaterThan(0.9)
    // A lexical match still leads, and another company sees none of these vectors.
    expect((await search(tenant, 'lunch menu')).body.hits[0].document_id).toBe(canteen)
    const other = await createTenant(t)
    expect((await search(other, query)).body.hits).toEqual([])
  }, 60_000)
})
