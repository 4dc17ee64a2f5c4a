import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { DatabaseHandle } from '../../src/storage/database.js'
import { ISO_MICROS } from '../support/assertions.js'
import { createTenant } from '../support/factories.js'
import { kbPath, tinyPdf, uploadOk } from '../support/knowledge-base.js'
import { storeModes } from '../support/store-modes.js'
import type { TestApp } from '../support/test-app.js'
import { eventually, manyPagesPdf, metadata, settled, startWorkingApp } from './fixtures.js'

const HANDBOOK = [
  '# Travel policy',
  '',
  '## Booking',
  '',
  ...Array.from(
    { length: 40 },
    (_, i) => `Rule ${i}: employees book train tickets through the travel desk at least ${i + 2} days ahead.`,
  ),
  '',
  '## Expenses',
  '',
  'Receipts are submitted within thirty days of the trip.',
  '',
].join('\n')

function jobsOf(db: DatabaseHandle, documentId: string) {
  return db.db
    .selectFrom('jobs')
    .select(['state', 'attempts', 'last_error'])
    .where('subject_id', '=', documentId)
    .orderBy('created_at')
    .execute()
}

describe.each(storeModes())('%s: ingestion by embedded workers', (mode) => {
  let app: Awaited<ReturnType<typeof startWorkingApp>>
  let t: TestApp
  beforeAll(async () => {
    app = await startWorkingApp(mode, `ingest_${mode}`)
    t = app.t
  })
  afterAll(async () => app?.close())

  it('an uploaded document reaches PROCESSED with chunks, page count, timestamps and duration', async () => {
    const tenant = await createTenant(t)
    const id = await uploadOk(t, tenant, 'travel.md', HANDBOOK, { fields: { path: '/policies/' } })
    const body = await settled(t, tenant, id)
    expect(body.processing).toEqual({
      embedding_state: 'PROCESSED',
      error_details: '',
      chunk_count: expect.any(Number),
      doc_pages_count: 1,
      start_timestamp: expect.stringMatching(ISO_MICROS),
      end_timestamp: expect.stringMatching(ISO_MICROS),
      duration: expect.any(Number),
      progress: { done: expect.any(Number), total: expect.any(Number) },
    })
    const p = body.processing
    expect(p.chunk_count).toBeGreaterThan(0)
    expect(p.end_timestamp > p.start_timestamp).toBe(true)
    expect(p.duration).toBeGreaterThan(0)
    expect(p.duration).toBeLessThan(60)
    expect(p.progress.done).toBe(p.progress.total)
    expect(body.document_type).toBe('text')
    // auto_description defaults to on: a generated description from the content.
    expect(body.description_type).toBe('ai')
    expect(body.description).toMatch(/travel|train|booking/i)

    const chunks = await t.request('GET', kbPath(tenant, `/${id}/chunks`), { token: tenant.token })
    expect(chunks.status).toBe(200)
    expect(chunks.body.documents).toHaveLength(p.chunk_count)
    expect(chunks.body.ids).toHaveLength(p.chunk_count)
    expect(chunks.body.documents.join('\n')).toContain('Receipts are submitted within thirty days')
    expect(chunks.body.documents.join('\n')).toContain('Rule 39')

    expect(await jobsOf(app.db, id)).toEqual([{ state: 'done', attempts: 1, last_error: null }])
  })

  it('a damaged file ends in ERROR with readable details, and the service keeps working', async () => {
    const tenant = await createTenant(t)
    const truncated = tinyPdf('Quarterly report').subarray(0, 200)
    const broken = await uploadOk(t, tenant, 'report.pdf', truncated)
    const failed = await settled(t, tenant, broken)
    expect(failed.processing).toMatchObject({
      embedding_state: 'ERROR',
      error_details: 'the PDF file is damaged or truncated: Invalid PDF structure',
      chunk_count: 0,
      end_timestamp: expect.stringMatching(ISO_MICROS),
    })
    expect(failed.processing.error_details).not.toMatch(/\n\s+at /)
    // Permanent: no retry.
    expect(await jobsOf(app.db, broken)).toEqual([
      { state: 'failed', attempts: 1, last_error: 'the PDF file is damaged or truncated: Invalid PDF structure' },
    ])

    const unsupported = await uploadOk(t, tenant, 'data.bin', Buffer.from([0, 1, 2, 3, 0, 255, 254, 0, 9, 7]))
    expect((await settled(t, tenant, unsupported)).processing).toMatchObject({
      embedding_state: 'ERROR',
      error_details: 'unsupported file type: application/octet-stream',
    })

    const good = await uploadOk(t, tenant, 'after.txt', 'The office reopens on Monday at nine.\n')
    expect((await settled(t, tenant, good)).processing).toMatchObject({ embedding_state: 'PROCESSED', chunk_count: 1 })
  })

  it('a PDF reports its pages and progress and keeps page numbers on its chunks', async () => {
    const tenant = await createTenant(t)
    const id = await uploadOk(t, tenant, 'handbook.pdf', await manyPagesPdf(12))
    const body = await settled(t, tenant, id)
    expect(body.processing).toMatchObject({
      embedding_state: 'PROCESSED',
      doc_pages_count: 12,
      progress: { done: 12, total: 12 },
    })
    const chunks = await t.request('GET', kbPath(tenant, `/${id}/chunks`), { token: tenant.token })
    const pages = chunks.body.metadatas.map((m: Record<string, unknown>) => String(m.page_number ?? m.page))
    expect(pages).toContain('12')
  })

  it('an upload that replaces a document being processed wins: the stale result is dropped', async () => {
    const tenant = await createTenant(t)
    const id = await uploadOk(t, tenant, 'notes.pdf', await manyPagesPdf(300, 'vacation'))
    await eventually(
      async () => (await metadata(t, tenant, id)).processing.embedding_state === 'PROCESSING',
      'processing to start',
    )
    const replaced = await uploadOk(t, tenant, 'notes.pdf', tinyPdf('Replacement text about parking permits'), {
      fields: { overwrite: 'true' },
    })
    expect(replaced).toBe(id)
    const body = await settled(t, tenant, id, 60_000)
    expect(body.processing).toMatchObject({ embedding_state: 'PROCESSED', doc_pages_count: 1, chunk_count: 1 })
    // Once both jobs are over, the document still holds the replacement's chunks only.
    await eventually(
      async () => (await jobsOf(app.db, id)).every((job) => job.state === 'done' || job.state === 'cancelled'),
      'both jobs to end',
      60_000,
    )
    const chunks = await t.request('GET', kbPath(tenant, `/${id}/chunks`), { token: tenant.token })
    expect(chunks.body.documents).toHaveLength(1)
    expect(chunks.body.documents[0]).toContain('parking permits')
    expect((await metadata(t, tenant, id)).processing).toMatchObject({ embedding_state: 'PROCESSED', chunk_count: 1 })
  })

  it('a document deleted while it is processed leaves no chunks behind', async () => {
    const tenant = await createTenant(t)
    const id = await uploadOk(t, tenant, 'gone.pdf', await manyPagesPdf(150, 'parking'))
    await eventually(
      async () => (await metadata(t, tenant, id)).processing.embedding_state === 'PROCESSING',
      'processing to start',
    )
    const deleted = await t.request('DELETE', kbPath(tenant, `/${id}`), { token: tenant.token })
    expect(deleted.status).toBeLessThan(300)
    await eventually(async () => (await jobsOf(app.db, id)).every((job) => job.state === 'done'), 'the job to end')
    expect(await t.ctx.store.chunks.countForDocument(tenant.companyId, id)).toBe(0)
  })
})

describe.each(storeModes())('%s: per-document time budget', (mode) => {
  let app: Awaited<ReturnType<typeof startWorkingApp>>
  beforeAll(async () => {
    app = await startWorkingApp(mode, `budget_${mode}`, { docTimeBudgetMs: 300 })
  })
  afterAll(async () => app?.close())

  it('a document that takes longer than LANTERN_DOC_TIME_BUDGET_MS ends in ERROR, without retries', async () => {
    const t = app.t
    const tenant = await createTenant(t)
    const id = await uploadOk(t, tenant, 'long.pdf', await manyPagesPdf(300))
    const body = await settled(t, tenant, id, 60_000)
    expect(body.processing).toMatchObject({
      embedding_state: 'ERROR',
      error_details: 'limit exceeded: processing took longer than 0.3 s',
      chunk_count: 0,
    })
    expect(await jobsOf(app.db, id)).toEqual([
      { state: 'failed', attempts: 1, last_error: 'limit exceeded: processing took longer than 0.3 s' },
    ])
  })
})
