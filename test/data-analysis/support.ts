import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Readable } from 'node:stream'
import ExcelJS from 'exceljs'
import { TableCache } from '../../src/data-analysis/table-cache.js'
import { libreOfficeRuns } from '../../src/ingestion/parsers/libreoffice.js'
import { FileBlobStore } from '../../src/storage/blobs/file-blob-store.js'
import type { CsvDelimiter, DocumentRecord } from '../../src/storage/ports/knowledge-base.js'
import { LIMITS } from '../ingestion/text-formats-support.js'

export const ENGINE = { memoryLimit: '256MB', threads: 2 } as const
export const SANDBOX_LIMITS = { ...ENGINE, timeoutMs: 3_000, rowLimit: 1_000 } as const

/** A real file blob store and a table cache over a fresh temp dir. */
export function tableWorld(maxCells = 1_000_000, maxBytes = 512 * 1024 * 1024) {
  const dir = mkdtempSync(join(tmpdir(), 'lantern-analysis-'))
  const blobs = new FileBlobStore(join(dir, 'blobs'))
  const cache = new TableCache(blobs, {
    directory: join(dir, 'cache'),
    maxCells,
    maxBytes,
    engine: ENGINE,
    ingestLimits: LIMITS,
    soffice: libreOfficeRuns() ? 'soffice' : null,
  })
  let n = 0
  return {
    dir,
    blobs,
    cache,
    /** Stores `content` as a document of `mimeType` and returns its record. */
    async document(
      objectName: string,
      mimeType: string,
      content: string | Uint8Array,
      csvDelimiter: CsvDelimiter | null = null,
    ): Promise<DocumentRecord> {
      n++
      const blobKey = `company/doc-${n}`
      await blobs.put(
        blobKey,
        Readable.from([typeof content === 'string' ? Buffer.from(content) : Buffer.from(content)]),
      )
      return {
        kind: 'document',
        id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
        companyId: 'company',
        objectName,
        size: content.length,
        mimeType,
        sha256: '',
        blobKey,
        description: `${objectName} description`,
        descriptionType: 'manual',
        documentType: 'text',
        loaderType: 'STANDARD',
        autoDescription: false,
        csvDelimiter,
        imageMinSizeRatio: null,
        card: null,
        cardType: 'ai',
        processing: {
          state: 'PROCESSED',
          errorDetails: '',
          chunkCount: 1,
          docPagesCount: 1,
          startedAt: '2026-11-22T09:00:00.000000',
          endedAt: null,
          duration: null,
          progressDone: 1,
          progressTotal: 1,
        },
        createdAt: '2026-11-22T09:00:00.000000',
        updatedAt: '2026-11-22T09:00:00.000000',
      }
    },
    async close() {
      await cache.close()
      rmSync(dir, { recursive: true, force: true })
    },
    file(name: string, content: string | Uint8Array): string {
      const path = join(dir, name)
      writeFileSync(path, content)
      return path
    },
  }
}

export const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'
export const ODS = 'application/vnd.oasis.opendocument.spreadsheet'

/** A workbook with two sheets: Sales (a title row above the header) and Staff. */
export async function twoSheetWorkbook(): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook()
  const sales = workbook.addWorksheet('Sales')
  sales.addRow(['Region', 'Amount', 'Date', 'Paid'])
  sales.getRow(1).font = { bold: true }
  sales.addRow(['North', 1200.5, new Date(Date.UTC(2024, 0, 15)), true])
  sales.addRow(['South', 800, new Date(Date.UTC(2024, 1, 1)), false])
  sales.addRow([])
  sales.addRow(['North', 99.5, new Date(Date.UTC(2024, 2, 3)), true])
  sales.getColumn(3).numFmt = 'yyyy-mm-dd'
  const staff = workbook.addWorksheet('Staff')
  staff.addRow(['Name', 'Share'])
  staff.addRow(['Ann', 0.25])
  staff.addRow(['Bob', 0.75])
  staff.getColumn(2).numFmt = '0%'
  return Buffer.from(await workbook.xlsx.writeBuffer())
}
