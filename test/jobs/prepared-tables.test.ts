import { Readable } from 'node:stream'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { preparedTablesKey } from '../../src/data-analysis/table-preparation.js'
import type { DocumentRecord } from '../../src/storage/ports/knowledge-base.js'
import { expectProblem } from '../support/assertions.js'
import { analystChat, createTenant, type Tenant } from '../support/factories.js'
import { kbPath, uploadOk } from '../support/knowledge-base.js'
import { storeModes } from '../support/store-modes.js'
import type { TestApp } from '../support/test-app.js'
import { settled, startWorkingApp } from './fixtures.js'

const ORDERS = ['order;status;amount', 'A1;late;"1.200,50"', 'A2;ok;20', 'A3;late;30', 'A4;ok;5'].join('\n')
const WIDE = ['a,b,c', ...Array.from({ length: 30 }, (_, i) => `${i},${i},${i}`)].join('\n')

async function exists(t: TestApp, key: string): Promise<boolean> {
  const stream = await t.ctx.blobs.open(key)
  stream?.destroy()
  return stream !== undefined
}

describe.each(storeModes())('%s: tables prepared while a table document is processed', (mode) => {
  let app: Awaited<ReturnType<typeof startWorkingApp>>
  let t: TestApp
  let tenant: Tenant
  let chatId: string
  beforeAll(async () => {
    // 30 rows × 3 columns = 90 cells: wide.csv is over the limit, orders.csv is not.
    app = await startWorkingApp(mode, 'prepared_tables', { analysisMaxCells: 60 })
    t = app.t
    tenant = await createTenant(t)
    chatId = await analystChat(t, tenant)
  }, 60_000)
  afterAll(() => app?.close())

  const documentOf = async (id: string): Promise<DocumentRecord> => {
    const document = await t.ctx.store.knowledgeBase.findById(tenant.companyId, id)
    if (document?.kind !== 'document') throw new Error(`no document ${id}`)
    return document
  }
  const preparedKey = (document: DocumentRecord) =>
    preparedTablesKey(document.blobKey, document.processing.startedAt ?? 'none')
  const ask = (documentId: string, message: string) =>
    t.request('POST', `/chat/${chatId}/messages`, {
      token: tenant.token,
      json: { message, data_analysis: true, document_ids: [documentId] },
    })

  it('stores the typed tables beside the document, and questions start from them, not from the document', async () => {
    const id = await uploadOk(t, tenant, 'orders.csv', ORDERS, { fields: { path: '/sales' } })
    expect((await settled(t, tenant, id)).processing.embedding_state).toBe('PROCESSED')
    const document = await documentOf(id)
    expect(await exists(t, preparedKey(document))).toBe(true)

    const opened = vi.spyOn(t.ctx.blobs, 'open')
    try {
      const answer = await ask(id, 'What is the total amount?')
      expect(answer.status).toBe(200)
      expect(answer.body.analysis).toMatchObject({ result: 1255.5, result_type: 'number' })
      const keys = opened.mock.calls.map(([key]) => key)
      expect(keys).toContain(preparedKey(document))
      expect(keys).not.toContain(document.blobKey)
    } finally {
      opened.mockRestore()
    }
  })

  it('prepares again when the document is reprocessed, and removes the earlier run’s tables', async () => {
    const id = await uploadOk(t, tenant, 'orders2.csv', ORDERS, { fields: { path: '/sales', csv_delimiter: 'comma' } })
    await settled(t, tenant, id)
    const first = await documentOf(id)
    const patched = await t.request('PATCH', kbPath(tenant, `/${id}/metadata`), {
      token: tenant.token,
      json: { csv_delimiter: 'semicolon' },
    })
    expect(patched.status).toBe(200)
    await settled(t, tenant, id)
    const second = await documentOf(id)
    expect(second.processing.startedAt).not.toBe(first.processing.startedAt)
    expect(await exists(t, preparedKey(second))).toBe(true)
    expect(await exists(t, preparedKey(first))).toBe(false)
    // Read with semicolons now: the amount column exists, with its decimal comma.
    const answer = await ask(id, 'What is the total amount?')
    expect(answer.status).toBe(200)
    expect(answer.body.analysis).toMatchObject({ result: 1255.5 })
  })

  it('removes the prepared tables with the document', async () => {
    const id = await uploadOk(t, tenant, 'orders3.csv', ORDERS, { fields: { path: '/sales' } })
    await settled(t, tenant, id)
    const key = preparedKey(await documentOf(id))
    expect(await exists(t, key)).toBe(true)
    const deleted = await t.request('DELETE', kbPath(tenant, `/${id}`), { token: tenant.token })
    expect(deleted.status).toBeLessThan(300)
    expect(await exists(t, key)).toBe(false)
  })

  it('processes a table over the cell limit without preparing it, and says so when asked', async () => {
    const id = await uploadOk(t, tenant, 'wide.csv', WIDE, { fields: { path: '/archive' } })
    expect((await settled(t, tenant, id)).processing.embedding_state).toBe('PROCESSED')
    expect(await exists(t, preparedKey(await documentOf(id)))).toBe(false)
    expectProblem(await ask(id, 'How many rows are there?'), 400, 'table_too_large')
  })

  it('loads from the document when the stored tables are unreadable', async () => {
    const id = await uploadOk(t, tenant, 'orders4.csv', ORDERS, { fields: { path: '/sales' } })
    await settled(t, tenant, id)
    const document = await documentOf(id)
    const key = preparedKey(document)
    await t.ctx.blobs.deleteDerived(document.blobKey)
    await t.ctx.blobs.put(key, Readable.from([Buffer.from('not a DuckDB file')]))
    const answer = await ask(id, 'What is the total amount?')
    expect(answer.status).toBe(200)
    expect(answer.body.analysis).toMatchObject({ result: 1255.5 })
  })

  it('does not prepare anything for a document that is not a table', async () => {
    const id = await uploadOk(t, tenant, 'notes.md', '# Notes\n\nNothing to count here.\n', { fields: { path: '/n' } })
    await settled(t, tenant, id)
    const document = await documentOf(id)
    expect(await exists(t, preparedKey(document))).toBe(false)
  })
})
