import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { countTokens } from '../../src/ingestion/chunking/tokens.js'
import { indexDocument } from '../../src/ingestion/pipeline/index-document.js'
import type { ProcessedDocument } from '../../src/ingestion/pipeline/pipeline-types.js'
import type { ChunkRecord, DocumentPosting } from '../../src/storage/ports/chunks.js'
import { EMPTY_CARD } from '../../src/storage/ports/document-card.js'
import { analyze } from '../../src/text/analysis.js'
import { expectProblem, UUID } from '../support/assertions.js'
import { createTenant, type Tenant } from '../support/factories.js'
import { documentOf, kbPath, mkdir, uploadOk } from '../support/knowledge-base.js'
import { processNow } from '../support/process-now.js'
import { type StoreMode, storeModes } from '../support/store-modes.js'
import { startTestApp, type TestApp } from '../support/test-app.js'

const HANDBOOK = [
  '# Leave policy',
  '',
  '## Annual leave',
  '',
  ...Array.from(
    { length: 30 },
    (_, i) => `Rule ${i}: employees accrue annual leave every month and the line manager approves each café request.`,
  ),
  '',
  '## Sick leave',
  '',
  'Employees on sick leave send a medical certificate after three days.',
  '',
].join('\n')

/** What one store wrote for the handbook, ids left out: compared across stores at the end. */
const written = new Map<StoreMode, { chunks: unknown[]; postings: DocumentPosting[] }>()

describe.each(storeModes())('%s: GET …/knowledge-base/<object_id>/chunks', (mode) => {
  let t: TestApp
  beforeAll(async () => {
    t = await startTestApp(mode)
  })
  afterAll(() => t.close())

  function getChunks(tenant: Tenant, id: string, token = tenant.token) {
    return t.request('GET', kbPath(tenant, `/${id}/chunks`), { token })
  }

  it('returns the chunks of a processed document as parallel arrays ordered by idx', async () => {
    const tenant = await createTenant(t)
    const id = await uploadOk(t, tenant, 'handbook.md', HANDBOOK, { fields: { path: '/hr' } })
    const processed = await processNow(t, tenant, id)
    expect(processed.chunks.map((chunk) => chunk.language)).toContain('en')
    expect(processed.chunks.length).toBeGreaterThan(3)

    const res = await getChunks(tenant, id)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toMatch(/^application\/json/)
    expect(Object.keys(res.body)).toEqual(['documents', 'ids', 'included', 'metadatas'])
    const { documents, ids, included, metadatas } = res.body
    expect(included).toEqual(['documents', 'metadatas'])
    expect(documents).toEqual(processed.chunks.map((chunk) => chunk.text))
    expect(ids).toHaveLength(documents.length)
    expect(metadatas).toHaveLength(documents.length)
    expect(new Set(ids).size).toBe(ids.length)
    for (const chunkId of ids) expect(chunkId).toMatch(UUID)

    expect(documents[0].startsWith('Leave policy > Annual leave\nRule 0: employees accrue annual leave')).toBe(true)
    expect(documents.at(-1)).toBe(
      'Leave policy > Sick leave\nEmployees on sick leave send a medical certificate after three days.',
    )
    metadatas.forEach((metadata: Record<string, unknown>, idx: number) => {
      // Exactly the spec 2.9 keys of a text chunk of a format without pages, nothing dropped.
      expect(metadata).toEqual({
        document_type: 'text',
        filename: 'handbook.md',
        filetype: 'text/markdown',
        category: 'text',
        idx,
        source: '/hr/handbook.md',
        academy_file: false,
        lantern_document_id: id,
      })
      expect(countTokens(documents[idx])).toBeLessThanOrEqual(120)
    })

    // The stored rows behind the response: postings from the same analysis the queries use.
    const stored = await t.ctx.store.chunks.listForDocument(tenant.companyId, id)
    expect(stored.map((chunk) => chunk.id)).toEqual(ids)
    const postings = await t.ctx.store.chunks.postingsForDocument(tenant.companyId, id)
    for (const chunk of stored) {
      const terms = analyze(chunk.text, 'en')
      // BM25's length counts words, not figures.
      expect(chunk.termCount).toBe(terms.filter((term) => !/^\d/.test(term)).length)
      expect(chunk.tokenCount).toBe(countTokens(chunk.text))
      expect(chunk.language).toBe('en')
      const mine = postings.filter((posting) => posting.chunkIdx === chunk.idx)
      expect(mine.reduce((sum, posting) => sum + posting.tf, 0)).toBe(terms.length)
      expect(new Set(mine.map((posting) => posting.term))).toEqual(new Set(terms))
    }
    // Folded and stemmed: "café" is indexed as "cafe"; "employees" as "employe".
    expect(postings.some((posting) => posting.term === 'cafe')).toBe(true)
    expect(postings.some((posting) => posting.term === 'employe')).toBe(true)
    expect(await t.ctx.store.chunks.countForDocument(tenant.companyId, id)).toBe(ids.length)

    written.set(mode, {
      chunks: stored.map(({ id: _id, documentId: _d, companyId: _c, createdAt: _t, metadata, ...rest }) => ({
        ...rest,
        metadata: { ...metadata, lantern_document_id: 'ID' },
      })),
      postings,
    })
  })

  it('answers empty arrays for a document not processed yet', async () => {
    const tenant = await createTenant(t)
    const id = await uploadOk(t, tenant, 'notes.txt', 'Some notes.')
    const res = await getChunks(tenant, id)
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ documents: [], ids: [], included: ['documents', 'metadatas'], metadatas: [] })
  })

  it('keeps the old chunks while an overwritten or re-configured document waits for processing', async () => {
    const tenant = await createTenant(t)
    const id = await uploadOk(t, tenant, 'notes.txt', 'First version of the notes.')
    await processNow(t, tenant, id)
    const before = (await getChunks(tenant, id)).body
    expect(before.documents).toEqual(['First version of the notes.'])

    expect(await uploadOk(t, tenant, 'notes.txt', 'Second version.', { fields: { overwrite: 'true' } })).toBe(id)
    const patched = await t.request('PATCH', kbPath(tenant, `/${id}/metadata`), {
      token: tenant.token,
      json: { loader_type: 'ADVANCED' },
    })
    expect(patched.status).toBe(200)
    expect((await documentOf(t, tenant, id)).processing.state).toBe('PENDING')
    expect((await getChunks(tenant, id)).body).toEqual(before)

    // The new version replaces them atomically when it is indexed.
    await processNow(t, tenant, id)
    const after = (await getChunks(tenant, id)).body
    expect(after.documents).toEqual(['Second version.'])
    expect(after.ids[0]).not.toBe(before.ids[0])
    const postings = await t.ctx.store.chunks.postingsForDocument(tenant.companyId, id)
    expect(postings.map((posting) => posting.term)).toEqual(['second', 'version'])
  })

  it('answers 400 not_a_file for a folder', async () => {
    const tenant = await createTenant(t)
    const folder = await mkdir(t, tenant, '/hr')
    expectProblem(await getChunks(tenant, folder), 400, 'not_a_file')
  })

  it("answers 404 for unknown ids and for another company's document, exactly alike", async () => {
    const owner = await createTenant(t)
    const intruder = await createTenant(t)
    const id = await uploadOk(t, owner, 'secret.md', '# Secret\n\nThe launch date is in May.')
    await processNow(t, owner, id)
    expectProblem(await getChunks(intruder, id), 404, 'not_found')
    expectProblem(await getChunks(intruder, '00000000-0000-4000-8000-000000000000'), 404, 'not_found')
    expectProblem(await getChunks(intruder, 'not-a-uuid'), 404, 'not_found')
    // The owner's company id in the path with the intruder's token.
    expectProblem(await t.request('GET', kbPath(owner, `/${id}/chunks`), { token: intruder.token }), 404, 'not_found')
    expect((await getChunks(owner, id)).body.documents).toEqual(['Secret\nThe launch date is in May.'])
  })

  it('answers 401 without a token', async () => {
    const tenant = await createTenant(t)
    const id = await uploadOk(t, tenant, 'a.txt', 'A.')
    expectProblem(await t.request('GET', kbPath(tenant, `/${id}/chunks`)), 401, 'unauthenticated')
  })

  it('removes chunks and postings with the document, and with a deleted folder', async () => {
    const tenant = await createTenant(t)
    const single = await uploadOk(t, tenant, 'single.txt', 'Alpha beta gamma.')
    const inside = await uploadOk(t, tenant, 'inside.txt', 'Delta epsilon.', { fields: { path: '/archive/2024' } })
    const kept = await uploadOk(t, tenant, 'kept.txt', 'Zeta eta.', { fields: { path: '/current' } })
    for (const id of [single, inside, kept]) await processNow(t, tenant, id)
    const { chunks } = t.ctx.store

    expect((await t.request('DELETE', kbPath(tenant, `/${single}`), { token: tenant.token })).status).toBe(204)
    expect(await chunks.countForDocument(tenant.companyId, single)).toBe(0)
    expect(await chunks.postingsForDocument(tenant.companyId, single)).toEqual([])
    expectProblem(await getChunks(tenant, single), 404, 'not_found')

    const archive = await t.request('GET', kbPath(tenant, '?path=/'), { token: tenant.token })
    const folderId = archive.body.find((entry: { object_name: string }) => entry.object_name === '/archive/').id
    expect((await t.request('DELETE', kbPath(tenant, `/${folderId}`), { token: tenant.token })).status).toBe(204)
    expect(await chunks.countForDocument(tenant.companyId, inside)).toBe(0)
    expect(await chunks.postingsForDocument(tenant.companyId, inside)).toEqual([])

    // Other documents keep theirs.
    expect(await chunks.countForDocument(tenant.companyId, kept)).toBe(1)
    expect((await chunks.postingsForDocument(tenant.companyId, kept)).map((p) => p.term)).toEqual(['eta', 'zeta'])
  })

  it('does not index a document deleted while it was processed', async () => {
    const tenant = await createTenant(t)
    const id = await uploadOk(t, tenant, 'gone.txt', 'Soon gone.')
    const document = await documentOf(t, tenant, id)
    expect((await t.request('DELETE', kbPath(tenant, `/${id}`), { token: tenant.token })).status).toBe(204)
    const processed: ProcessedDocument = {
      chunks: [{ idx: 0, text: 'Soon gone.', tokenCount: 3, pageNumber: null, rowIdx: null, metadata: { idx: 0 } }],
      pageCount: 1,
      documentType: 'text',
      language: 'en',
      description: null,
      card: EMPTY_CARD,
    }
    const indexed = await t.ctx.store.transaction((tx) => indexDocument(tx, tenant.companyId, document.id, processed))
    expect(indexed).toBe(false)
    expect(await t.ctx.store.chunks.countForDocument(tenant.companyId, id)).toBe(0)
  })

  it('stores metadata of any shape and returns it whole', async () => {
    const tenant = await createTenant(t)
    const id = await uploadOk(t, tenant, 'sheet.txt', 'x')
    const metadata = {
      document_type: 'text',
      filename: 'sheet.xlsx',
      filetype: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      category: 'table',
      idx: 0,
      page_number: 'Sales!2-40',
      row: 2,
      source: '/sheet.xlsx',
      academy_file: false,
      lantern_document_id: id,
      image_id: 'p1-img1',
      future_key: 'kept',
    }
    await t.ctx.store.transaction(async (tx) =>
      indexDocument(tx, tenant.companyId, id, {
        chunks: [
          { idx: 0, text: 'Region | Amount', tokenCount: 4, pageNumber: 'Sales!2-40', rowIdx: '2-40', metadata },
        ],
        pageCount: 1,
        documentType: 'text',
        language: 'en',
        description: null,
        card: EMPTY_CARD,
      }),
    )
    const res = await getChunks(tenant, id)
    expect(res.body.metadatas).toEqual([metadata])
    const [stored] = await t.ctx.store.chunks.listForDocument(tenant.companyId, id)
    expect(stored).toMatchObject<Partial<ChunkRecord>>({ pageNumber: 'Sales!2-40', rowIdx: '2-40', idx: 0 })
  })
})

describe('chunks and postings on both stores', () => {
  it.skipIf(storeModes().length < 2)('are identical on SQLite and PostgreSQL for the same file', () => {
    const sqlite = written.get('sqlite')
    const postgres = written.get('postgres')
    expect(sqlite).toBeDefined()
    expect(postgres).toEqual(sqlite)
    expect(sqlite?.postings.length).toBeGreaterThan(50)
  })
})
