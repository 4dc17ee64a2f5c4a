import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { indexWritesFor } from '../../src/ingestion/jobs/grouped-writes.js'
import { StagedChunks, StaleResult } from '../../src/ingestion/jobs/staged-chunks.js'
import { BATCH_CHUNKS, processDocument } from '../../src/ingestion/pipeline/process-document.js'
import { systemClock } from '../../src/lib/clock.js'
import { LIMITS } from '../ingestion/text-formats-support.js'
import { createTenant, type Tenant } from '../support/factories.js'
import { kbPath, upload, uploadOk } from '../support/knowledge-base.js'
import { storeModes } from '../support/store-modes.js'
import { startTestApp, type TestApp } from '../support/test-app.js'
import { metadata, settled, startWorkingApp } from './fixtures.js'

/** A CSV of `rows` orders. */
function orders(rows: number, city = 'Lyon'): string {
  const lines = ['order_id,city,product,amount']
  for (let i = 1; i <= rows; i++)
    lines.push(`${i},${i === rows ? 'Zanzibar' : city},widget ${i % 13},${(i * 7) % 1000}.25`)
  return `${lines.join('\n')}\n`
}

/** Chunks holding each term, counted from the document's postings as stored. */
async function frequenciesOf(t: TestApp, tenant: Tenant, documentId: string): Promise<Map<string, number>> {
  const counts = new Map<string, number>()
  for (const posting of await t.ctx.store.chunks.postingsForDocument(tenant.companyId, documentId)) {
    counts.set(posting.term, (counts.get(posting.term) ?? 0) + 1)
  }
  return counts
}

describe.each(storeModes())('%s: a large document is written in batches as it is processed', (mode) => {
  let app: Awaited<ReturnType<typeof startWorkingApp>>
  let t: TestApp
  beforeAll(async () => {
    // Small chunks: a few thousand rows make more than one batch of 500.
    app = await startWorkingApp(mode, `staged_${mode}`, { chunkTokens: 48, chunkOverlapTokens: 8 })
    t = app.t
  })
  afterAll(async () => app?.close())

  it('ends PROCESSED with every chunk in order, searchable, counted in the statistics exactly once', async () => {
    const tenant = await createTenant(t)
    const id = await uploadOk(t, tenant, 'orders.csv', orders(10_000))
    const body = await settled(t, tenant, id, 120_000)
    expect(body.processing.embedding_state).toBe('PROCESSED')
    const count = body.processing.chunk_count as number
    expect(count).toBeGreaterThan(BATCH_CHUNKS)

    const chunks = await t.request('GET', kbPath(tenant, `/${id}/chunks`), { token: tenant.token })
    expect(chunks.body.documents).toHaveLength(count)
    expect(chunks.body.metadatas.map((m: { idx: number }) => m.idx)).toEqual(Array.from({ length: count }, (_, i) => i))
    expect(chunks.body.documents.at(-1)).toContain('Zanzibar')

    const found = await t.request('POST', kbPath(tenant, '/search'), {
      token: tenant.token,
      json: { query: 'Zanzibar' },
    })
    expect(found.status, found.text).toBe(200)
    expect(found.body.hits[0]).toMatchObject({ document_id: id })
    expect(JSON.stringify(found.body.hits[0])).toContain('Zanzibar')

    const [indexed] = (await t.ctx.store.search.indexedDocuments(tenant.companyId)).filter((d) => d.documentId === id)
    expect(indexed).toMatchObject({ chunkCount: count, searchable: true })
    const expected = await frequenciesOf(t, tenant, id)
    const terms = ['zanzibar', 'lyon', 'widget', '4000']
    const stored = await t.ctx.store.search.documentFrequencies(tenant.companyId, terms, [])
    for (const term of terms) expect(stored.get(term), term).toBe(expected.get(term))
  }, 180_000)

  it('a reprocessed document that now fails keeps none of its chunks, and leaves the statistics', async () => {
    const tenant = await createTenant(t)
    const id = await uploadOk(t, tenant, 'report.csv', orders(50, 'Grenoble'))
    expect((await settled(t, tenant, id)).processing.embedding_state).toBe('PROCESSED')
    const replaced = await upload(t, tenant, 'report.csv', Buffer.from([0x25, 0x50, 0x44, 0x46, 0x2d, 0, 1, 2]), {
      fields: { overwrite: 'true' },
    })
    expect(replaced.status).toBe(200)
    const body = await settled(t, tenant, id)
    expect(body.processing).toMatchObject({ embedding_state: 'ERROR', chunk_count: 0 })
    expect(await t.ctx.store.chunks.countForDocument(tenant.companyId, id)).toBe(0)
    expect((await t.ctx.store.search.indexedDocuments(tenant.companyId)).map((d) => d.documentId)).not.toContain(id)
    const stats = await t.ctx.store.search.documentFrequencies(tenant.companyId, ['grenoble'], [])
    expect(stats.get('grenoble')).toBeUndefined()
    expect((await metadata(t, tenant, id)).processing.error_details).not.toBe('')
  }, 60_000)
})

describe.each(storeModes())('%s: staged chunks', (mode) => {
  let t: TestApp
  beforeAll(async () => {
    // No job runner: the test plays the ingest job's part.
    t = await startTestApp(mode)
  })
  afterAll(async () => t?.close())

  /** An uploaded document put in PROCESSING under a run of the test's own, and its chunks. */
  async function processing(tenant: Tenant, name: string, text: string) {
    const id = await uploadOk(t, tenant, name, text)
    const run = systemClock.now()
    await t.ctx.store.knowledgeBase.updateProcessing(tenant.companyId, id, 'any', {
      state: 'PROCESSING',
      startedAt: run,
    })
    const processed = await processDocument(
      {
        companyId: tenant.companyId,
        documentId: id,
        objectName: `/${name}`,
        filename: name,
        mimeType: 'text/markdown',
        filePath: await writeTemp(text),
        options: { loaderType: 'STANDARD', csvDelimiter: null, imageMinSizeRatio: 0.1 },
        limits: LIMITS,
        ocrLanguages: ['eng'],
        mutool: null,
        soffice: null,
        autoDescription: false,
        chunkTokens: 40,
        chunkOverlapTokens: 0,
      },
      () => {},
    )
    const staged = new StagedChunks(
      { store: t.ctx.store, clock: systemClock, writes: indexWritesFor(t.ctx.store, BATCH_CHUNKS) },
      { companyId: tenant.companyId, documentId: id, run },
    )
    return { id, run, processed, staged }
  }

  it('are listed with their document but stay out of the statistics until published', async () => {
    const tenant = await createTenant(t)
    const { id, run, processed, staged } = await processing(tenant, 'notes.md', paragraphs('heron', 12))
    const half = Math.ceil(processed.chunks.length / 2)
    await staged.add(processed.chunks.slice(0, half), processed.language)
    await staged.add(processed.chunks.slice(half), processed.language)
    expect(staged.count).toBe(processed.chunks.length)
    expect(await t.ctx.store.chunks.countForDocument(tenant.companyId, id)).toBe(processed.chunks.length)
    expect((await metadata(t, tenant, id)).processing.chunk_count).toBe(processed.chunks.length)
    expect(await t.ctx.store.search.indexedDocuments(tenant.companyId)).toEqual([])
    expect((await t.ctx.store.search.documentFrequencies(tenant.companyId, ['heron'], [])).get('heron')).toBeUndefined()

    await t.ctx.store.transaction(async (tx) => {
      await staged.publish(tx)
      await tx.knowledgeBase.updateProcessing(tenant.companyId, id, { run }, { state: 'PROCESSED' })
    })
    const [indexed] = await t.ctx.store.search.indexedDocuments(tenant.companyId)
    expect(indexed).toMatchObject({ documentId: id, chunkCount: processed.chunks.length, searchable: true })
    const heron = (await frequenciesOf(t, tenant, id)).get('heron')
    expect(heron).toBeGreaterThan(1)
    expect((await t.ctx.store.search.documentFrequencies(tenant.companyId, ['heron'], [])).get('heron')).toBe(heron)
  })

  it('a batch of a run that was overtaken is refused and writes nothing', async () => {
    const tenant = await createTenant(t)
    const { id, processed, staged } = await processing(tenant, 'old.md', paragraphs('falcon', 6))
    await t.ctx.store.knowledgeBase.updateProcessing(tenant.companyId, id, 'any', { startedAt: systemClock.now() })
    await expect(staged.add(processed.chunks, processed.language)).rejects.toBeInstanceOf(StaleResult)
    expect(staged.count).toBe(0)
    expect(await t.ctx.store.chunks.countForDocument(tenant.companyId, id)).toBe(0)
  })

  it('a failed run discards what it wrote, unless a newer run owns the document', async () => {
    const tenant = await createTenant(t)
    const failed = await processing(tenant, 'failed.md', paragraphs('kestrel', 6))
    await failed.staged.add(failed.processed.chunks, failed.processed.language)
    await failed.staged.discard()
    expect(await t.ctx.store.chunks.countForDocument(tenant.companyId, failed.id)).toBe(0)
    expect((await metadata(t, tenant, failed.id)).processing.chunk_count).toBe(0)
    // Nothing more is written for a discarded run.
    await expect(failed.staged.add(failed.processed.chunks, failed.processed.language)).rejects.toBeInstanceOf(
      StaleResult,
    )

    const overtaken = await processing(tenant, 'overtaken.md', paragraphs('kestrel', 6))
    await overtaken.staged.add(overtaken.processed.chunks, overtaken.processed.language)
    // A newer run started (and, as far as this test goes, wrote these chunks as its own).
    await t.ctx.store.knowledgeBase.updateProcessing(tenant.companyId, overtaken.id, 'any', {
      startedAt: systemClock.now(),
    })
    await overtaken.staged.discard()
    expect(await t.ctx.store.chunks.countForDocument(tenant.companyId, overtaken.id)).toBe(
      overtaken.processed.chunks.length,
    )
  })

  it('deleting a document with staged chunks leaves the statistics of the others exact', async () => {
    const tenant = await createTenant(t)
    const published = await processing(tenant, 'kept.md', paragraphs('osprey', 6))
    await published.staged.add(published.processed.chunks, published.processed.language)
    await t.ctx.store.transaction((tx) => published.staged.publish(tx))
    const before = (await t.ctx.store.search.documentFrequencies(tenant.companyId, ['osprey'], [])).get('osprey')
    expect(before).toBeGreaterThan(0)

    const dropped = await processing(tenant, 'dropped.md', paragraphs('osprey', 6))
    await dropped.staged.add(dropped.processed.chunks, dropped.processed.language)
    const deleted = await t.request('DELETE', kbPath(tenant, `/${dropped.id}`), { token: tenant.token })
    expect(deleted.status).toBeLessThan(300)
    expect(await t.ctx.store.chunks.countForDocument(tenant.companyId, dropped.id)).toBe(0)
    expect((await t.ctx.store.search.documentFrequencies(tenant.companyId, ['osprey'], [])).get('osprey')).toBe(before)
  })
})

function paragraphs(word: string, count: number): string {
  return Array.from(
    { length: count },
    (_, i) => `Paragraph ${i} tells how the ${word} hunts along the river bank at dawn, season after season.`,
  ).join('\n\n')
}

const tempDir = mkdtempSync(join(tmpdir(), 'lantern-staged-'))
afterAll(() => rmSync(tempDir, { recursive: true, force: true }))
let tempFiles = 0

async function writeTemp(text: string): Promise<string> {
  const path = join(tempDir, `doc-${tempFiles++}.md`)
  writeFileSync(path, text)
  return path
}
