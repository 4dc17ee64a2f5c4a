import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { libreOfficeRuns } from '../../src/ingestion/parsers/libreoffice.js'
import { settled, startWorkingApp } from '../jobs/fixtures.js'
import { createTenant, type Tenant } from '../support/factories.js'
import { kbPath, uploadOk } from '../support/knowledge-base.js'
import { sharedData } from '../support/shared-data.js'
import { storeModes } from '../support/store-modes.js'
import type { TestApp } from '../support/test-app.js'

const corpus = sharedData('parser-robustness', 'skipping the .msg/.doc/.epub upload tests')
const real = (name: string): Buffer => readFileSync(join(fileURLToPath(corpus as URL), name))

/**
 * Outlook, Word 97–2003 and EPUB files uploaded over HTTP and processed by the embedded workers
 * (worker threads, as in production): sniffed from their content, then PROCESSED with chunks, or
 * ERROR with a readable reason.
 */
describe.skipIf(!corpus).each(storeModes())('%s: legacy formats uploaded and processed', (mode) => {
  let app: Awaited<ReturnType<typeof startWorkingApp>>
  let t: TestApp
  beforeAll(async () => {
    app = await startWorkingApp(mode, `legacy_${mode}`)
    t = app.t
  })
  afterAll(async () => app?.close())

  async function chunksOf(tenant: Tenant, id: string) {
    const res = await t.request('GET', kbPath(tenant, `/${id}/chunks`), { token: tenant.token })
    expect(res.status).toBe(200)
    return res.body as { documents: string[]; metadatas: Record<string, unknown>[] }
  }

  /** The type sniffed at upload, as the download serves it. */
  async function storedType(tenant: Tenant, id: string): Promise<string | null> {
    const res = await t.request('GET', kbPath(tenant, `/${id}/file`), { token: tenant.token })
    expect(res.status).toBe(200)
    return res.headers.get('content-type')
  }

  it('an Outlook .msg with an attachment and a Word .doc end PROCESSED with chunks', async () => {
    const tenant = await createTenant(t)
    const msg = await uploadOk(
      t,
      tenant,
      'fake-email-attachment.msg',
      real('unstructured-example-docs/fake-email-attachment.msg'),
    )
    const doc = await uploadOk(t, tenant, 'testWORD.doc', real('tika-test-documents/testWORD.doc'))

    const mail = await settled(t, tenant, msg)
    expect(mail.processing).toMatchObject({ embedding_state: 'PROCESSED', error_details: '', doc_pages_count: 1 })
    expect(mail.processing.chunk_count).toBeGreaterThan(0)
    expect(await storedType(tenant, msg)).toBe('application/vnd.ms-outlook')
    const mailText = (await chunksOf(tenant, msg)).documents.join('\n')
    expect(mailText).toContain('Fake email with attachment')
    expect(mailText).toContain('From: Mallori Harrell <mallori@unstructured.io>')
    expect(mailText).toContain('Attachment: fake-attachment.txt')
    expect(mailText).toContain('Hey this is a fake attachment!')

    const word = await settled(t, tenant, doc)
    expect(word.processing).toMatchObject({ embedding_state: 'PROCESSED', error_details: '', doc_pages_count: 1 })
    expect(word.processing.chunk_count).toBeGreaterThan(0)
    expect(await storedType(tenant, doc)).toBe('application/msword')
    const wordChunks = await chunksOf(tenant, doc)
    expect(wordChunks.documents.join('\n')).toContain('This is a sample Microsoft Word Document.')
    // No pages in a .doc's text: no page_number on its chunks.
    expect(wordChunks.metadatas.every((m) => m.page_number === undefined)).toBe(true)

    const search = await t.request('POST', kbPath(tenant, '/search'), {
      token: tenant.token,
      json: { query: 'fake attachment' },
    })
    expect(search.body.hits[0]?.document_id).toBe(msg)
  })

  it('an EPUB ends PROCESSED with its spine position as the page of each chunk', async () => {
    const tenant = await createTenant(t)
    const id = await uploadOk(t, tenant, 'testEPUB.epub', real('tika-test-documents/testEPUB.epub'))
    const book = await settled(t, tenant, id)
    expect(book.processing).toMatchObject({ embedding_state: 'PROCESSED', error_details: '', doc_pages_count: 3 })
    expect(await storedType(tenant, id)).toBe('application/epub+zip')
    const { documents, metadatas } = await chunksOf(tenant, id)
    const chapterTwo = documents.findIndex((text) => text.includes('This is the text for chapter Two'))
    expect(chapterTwo).toBeGreaterThanOrEqual(0)
    expect(metadatas[chapterTwo]?.page_number).toBe('3')
  })

  it.skipIf(!libreOfficeRuns())(
    'an Excel 97 workbook ends PROCESSED with its sheet and rows, through LibreOffice',
    async () => {
      const tenant = await createTenant(t)
      const id = await uploadOk(t, tenant, 'book.xls', real('tika-test-documents/testEXCEL.xls'))
      const book = await settled(t, tenant, id)
      expect(book.processing).toMatchObject({ embedding_state: 'PROCESSED', error_details: '' })
      expect(await storedType(tenant, id)).toBe('application/vnd.ms-excel')
      const { documents, metadatas } = await chunksOf(tenant, id)
      expect(documents.join('\n')).toContain('Square')
      // The sheet and rows, as for an .xlsx.
      expect(metadatas[0]).toMatchObject({ category: 'table', page_number: expect.stringMatching(/^Feuil1!\d+-\d+$/) })
    },
  )

  it('an encrypted .msg and a password-protected .doc end ERROR with the reason, and the service goes on', async () => {
    const tenant = await createTenant(t)
    const msg = await uploadOk(t, tenant, 'fake-encrypted.msg', real('unstructured-example-docs/fake-encrypted.msg'))
    const doc = await uploadOk(t, tenant, 'protected.doc', real('tika-test-documents/testWORD_protected_passtika.doc'))
    expect((await settled(t, tenant, msg)).processing).toMatchObject({
      embedding_state: 'ERROR',
      error_details: 'the e-mail (MSG) is encrypted (PGP/MIME)',
      chunk_count: 0,
    })
    expect((await settled(t, tenant, doc)).processing).toMatchObject({
      embedding_state: 'ERROR',
      error_details: 'the DOC is password-protected',
      chunk_count: 0,
    })
    const after = await uploadOk(t, tenant, 'simple.doc', real('unstructured-example-docs/simple.doc'))
    expect((await settled(t, tenant, after)).processing).toMatchObject({ embedding_state: 'PROCESSED' })
  })
})
