import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { mutoolRuns } from '../../src/ingestion/parsers/pdf-mutool.js'
import { createIsolatedDatabase } from '../support/isolated-database.js'
import { type ProcessEnv, ServeProcess, storeEnv } from '../support/processes.js'
import { pgUrl } from '../support/store-modes.js'
import { WorkerProcess } from './worker-support.js'

const isReaderLine = (line: { msg?: unknown }) => String(line.msg).startsWith('PDF text is read with')

describe('`lantern serve` says where it reads PDF text from', () => {
  const root = mkdtempSync(join(tmpdir(), 'lantern-pdf-text-'))
  afterAll(() => rmSync(root, { recursive: true, force: true }))
  let started = 0

  async function readerLine(env: ProcessEnv) {
    started += 1
    const server = await ServeProcess.start({ ...storeEnv(join(root, `data-${started}`)), ...env })
    try {
      const workers = env.LANTERN_WORKERS ?? '0'
      if (workers === '0') {
        await server.waitForOutput(/First start/)
        return server.logLines().find(isReaderLine)
      }
      return await server.waitForLog(isReaderLine)
    } finally {
      expect(await server.stop()).toBe(0)
    }
  }

  it('names pdf.js and how to read PDFs faster when no mutool is on the PATH', async () => {
    const emptyPath = mkdtempSync(join(root, 'path-'))
    const line = await readerLine({ LANTERN_WORKERS: '1', PATH: emptyPath })
    expect(line).toMatchObject({ pdfText: 'pdf.js' })
    expect(line?.msg).toMatch(/no mutool \(mupdf-tools 1\.19 or later\) was found/)
  })

  it('names pdf.js, without advice, when LANTERN_PDF_TEXT asks for it', async () => {
    const line = await readerLine({ LANTERN_WORKERS: '1', LANTERN_PDF_TEXT: 'pdfjs' })
    expect(line).toMatchObject({ pdfText: 'pdf.js', msg: 'PDF text is read with pdf.js (LANTERN_PDF_TEXT=pdfjs)' })
  })

  it.skipIf(!mutoolRuns())('names MuPDF when mutool is installed', async () => {
    const line = await readerLine({ LANTERN_WORKERS: '1' })
    expect(line).toMatchObject({ pdfText: 'mutool', msg: 'PDF text is read with MuPDF (mutool)' })
  })

  it('says nothing of it without ingestion workers', async () => {
    expect(await readerLine({ LANTERN_WORKERS: '0' })).toBeUndefined()
  })
})

describe.skipIf(!pgUrl())('`lantern worker` says where it reads PDF text from', () => {
  it('names pdf.js when LANTERN_PDF_TEXT asks for it', async () => {
    const database = await createIsolatedDatabase('pdf_text_reader')
    if (!database) throw new Error('no PostgreSQL for this run')
    const dataDir = mkdtempSync(join(tmpdir(), 'lantern-pdf-text-worker-'))
    const worker = await WorkerProcess.start({
      LANTERN_DATA_DIR: dataDir,
      LANTERN_DATABASE_URL: database.url,
      LANTERN_WORKERS: '1',
      LANTERN_PDF_TEXT: 'pdfjs',
    })
    try {
      expect(await worker.waitForLog(isReaderLine)).toMatchObject({ pdfText: 'pdf.js' })
    } finally {
      await worker.stop()
      await database.drop()
      rmSync(dataDir, { recursive: true, force: true })
    }
  })
})
