import { randomUUID } from 'node:crypto'
import { createWriteStream } from 'node:fs'
import { mkdir, rm, stat } from 'node:fs/promises'
import { extname, join } from 'node:path'
import { pipeline } from 'node:stream/promises'
import { AppError } from '../domain/errors.js'
import type { IngestLimits, TableBlock } from '../ingestion/model.js'
import { detectDelimiter } from '../ingestion/parsers/csv.js'
import { ODS_TYPES, spreadsheetParser, XLSX_TYPES } from '../ingestion/parsers/spreadsheet.js'
import { detectFileEncoding, readTextSample } from '../ingestion/text-decoding.js'
import type { BlobStore } from '../storage/ports/blobs.js'
import type { DocumentRecord } from '../storage/ports/knowledge-base.js'
import { type EngineLimits, openDuckDb, quoteLiteral } from './duckdb.js'
import { loadCsv, loadParsedSheets, loadXlsx, TooManyCells } from './raw-sources.js'
import { buildTable, type RawTable } from './table-build.js'
import type { ColumnSchema } from './types.js'

export const CSV_TYPES = ['text/csv', 'text/tab-separated-values', 'application/csv'] as const
const SHEET_TYPES: readonly string[] = [...XLSX_TYPES, ...ODS_TYPES]

/** Whether data-analysis mode can load this document's type. */
export function isTableDocument(document: DocumentRecord): boolean {
  return (CSV_TYPES as readonly string[]).includes(document.mimeType) || SHEET_TYPES.includes(document.mimeType)
}

/** One loaded table inside a cached database file. */
export interface CachedTable {
  /** Table name inside the file (`s0`, `s1`, …). */
  readonly table: string
  readonly sheet: string | null
  readonly rowCount: number
  readonly columns: readonly ColumnSchema[]
}

/** A document's tables, typed, in a DuckDB file that queries attach read-only. */
export interface LoadedDocument {
  readonly documentId: string
  readonly filename: string
  readonly file: string
  readonly tables: readonly CachedTable[]
  readonly bytes: number
}

export interface TableCacheSettings {
  /** Where loaded tables live (a directory private to this process, emptied on start). */
  readonly directory: string
  readonly maxCells: number
  /** Total size of cached table files; the least recently used go first. */
  readonly maxBytes: number
  readonly engine: EngineLimits
  readonly ingestLimits: IngestLimits
}

const DELIMITERS = { comma: ',', semicolon: ';', tab: '\t' } as const
/** Loaded documents kept at most, whatever their size. */
const MAX_ENTRIES = 64

function tooLarge(max: number): AppError {
  return new AppError(
    'table_too_large',
    `the document holds more than ${max} cells (rows × columns); data analysis is limited by LANTERN_ANALYSIS_MAX_CELLS`,
  )
}

/**
 * Loads documents' tables from the blob store into DuckDB files, once per (document, processing
 * run): a bounded LRU keeps them, so repeated questions do not reload. Loads of one key share one promise.
 */
export class TableCache {
  private readonly entries = new Map<string, Promise<LoadedDocument>>()
  private readonly loaded = new Map<string, LoadedDocument>()
  private ready: Promise<void> | null = null
  /** Loads run one at a time: each may use the whole DuckDB memory limit and both cores. */
  private queue: Promise<unknown> = Promise.resolve()

  constructor(
    private readonly blobs: BlobStore,
    private readonly settings: TableCacheSettings,
  ) {}

  async load(document: DocumentRecord): Promise<LoadedDocument> {
    const key = `${document.id}@${document.processing.startedAt ?? ''}@${document.blobKey}`
    const existing = this.entries.get(key)
    if (existing) {
      // Most recently used last.
      this.entries.delete(key)
      this.entries.set(key, existing)
      return existing
    }
    const turn = this.queue.then(() => this.loadFresh(document))
    this.queue = turn.catch(() => {})
    const loading = turn.then(
      (result) => {
        this.loaded.set(key, result)
        void this.evict()
        return result
      },
      (error: unknown) => {
        this.entries.delete(key)
        throw error
      },
    )
    this.entries.set(key, loading)
    return loading
  }

  /** Removes every cached file. */
  async close(): Promise<void> {
    this.entries.clear()
    this.loaded.clear()
    await rm(this.settings.directory, { recursive: true, force: true })
  }

  private async evict(): Promise<void> {
    let total = [...this.loaded.values()].reduce((sum, entry) => sum + entry.bytes, 0)
    for (const key of [...this.entries.keys()]) {
      if ((total <= this.settings.maxBytes && this.loaded.size <= MAX_ENTRIES) || this.loaded.size <= 1) break
      const entry = this.loaded.get(key)
      if (!entry) continue
      this.entries.delete(key)
      this.loaded.delete(key)
      total -= entry.bytes
      // A query that attached it already keeps its own handle open; later opens reload.
      await rm(entry.file, { force: true }).catch(() => {})
      await rm(`${entry.file}.wal`, { force: true }).catch(() => {})
    }
  }

  private async prepareDirectory(): Promise<void> {
    this.ready ??= (async () => {
      await rm(this.settings.directory, { recursive: true, force: true })
      await mkdir(this.settings.directory, { recursive: true })
    })()
    await this.ready
  }

  private async loadFresh(document: DocumentRecord): Promise<LoadedDocument> {
    await this.prepareDirectory()
    const id = randomUUID()
    const extension = /^\.[A-Za-z0-9]{1,10}$/.test(extname(document.objectName)) ? extname(document.objectName) : ''
    const source = join(this.settings.directory, `${id}${extension.toLowerCase()}`)
    const file = join(this.settings.directory, `${id}.duckdb`)
    const stream = await this.blobs.open(document.blobKey)
    if (!stream) throw new AppError('not_found', `document ${document.id} was not found`)
    await pipeline(stream, createWriteStream(source))
    // Raw text and typing stay in memory (spilling next to the cache if needed); only the typed
    // tables are written to the file queries attach.
    const spill = join(this.settings.directory, `${id}.spill`)
    const db = await openDuckDb(':memory:', { ...this.settings.engine, tempDirectory: spill })
    let closed = false
    try {
      await db.connection.run(`ATTACH ${quoteLiteral(file)} AS out`)
      const tables = await this.loadTables(db.connection, document, source)
      const cells = tables.reduce((sum, t) => sum + t.rowCount * Math.max(1, t.columns.length), 0)
      if (cells > this.settings.maxCells) throw tooLarge(this.settings.maxCells)
      await db.connection.run('DETACH out')
      db.close()
      closed = true
      const filename = document.objectName.slice(document.objectName.lastIndexOf('/') + 1)
      return { documentId: document.id, filename, file, tables, bytes: (await stat(file)).size }
    } catch (error) {
      if (!closed) db.close()
      await rm(file, { force: true })
      await rm(`${file}.wal`, { force: true })
      if (error instanceof TooManyCells) throw tooLarge(this.settings.maxCells)
      if (error instanceof AppError) throw error
      // A file the ingestion parser read but DuckDB or the workbook reader cannot: say so, clearly.
      throw new AppError(
        'not_a_table',
        `document ${document.id} (${document.objectName}) could not be read as a table: ${(error as Error).message.split('\n')[0]}`,
      )
    } finally {
      await rm(source, { force: true })
      await rm(spill, { recursive: true, force: true })
    }
  }

  private async loadTables(
    connection: Awaited<ReturnType<typeof openDuckDb>>['connection'],
    document: DocumentRecord,
    source: string,
  ): Promise<CachedTable[]> {
    const { maxCells } = this.settings
    let raws: { sheet: string | null; raw: RawTable }[]
    let european = false
    if ((CSV_TYPES as readonly string[]).includes(document.mimeType)) {
      const encoding = await detectFileEncoding(source)
      let delimiter: string = document.csvDelimiter ? DELIMITERS[document.csvDelimiter] : ''
      if (!delimiter && document.mimeType === 'text/tab-separated-values') delimiter = '\t'
      if (!delimiter) {
        const sample = await readTextSample(source, encoding)
        delimiter = detectDelimiter(sample.text, sample.complete)
      }
      european = delimiter === ';'
      raws = [{ sheet: null, raw: await loadCsv(connection, { path: source, delimiter, encoding }, 'raw0', maxCells) }]
    } else if ((ODS_TYPES as readonly string[]).includes(document.mimeType)) {
      const parsed = await spreadsheetParser.parse({
        path: source,
        mimeType: document.mimeType,
        filename: document.objectName,
        options: { loaderType: 'STANDARD', csvDelimiter: null, imageMinSizeRatio: 0 },
        limits: this.settings.ingestLimits,
        ocrLanguages: [],
        progress: () => {},
      })
      const blocks = parsed.blocks.filter((block): block is TableBlock => block.kind === 'table')
      raws = await loadParsedSheets(
        connection,
        blocks.map((block, i) => ({
          sheet: block.sheet ?? `Sheet${i + 1}`,
          header: block.header,
          headerRow: 0,
          rows: block.rows,
        })),
        'raw',
        maxCells,
      )
    } else if (SHEET_TYPES.includes(document.mimeType)) {
      raws = await loadXlsx(connection, source, 'raw', maxCells)
    } else {
      throw notATable(document)
    }
    const tables: CachedTable[] = []
    for (const [index, { sheet, raw }] of raws.entries()) {
      const built = await buildTable(connection, raw, `s${index}`, { european }, 'out')
      if (built.columns.length === 0 && built.rowCount === 0) continue
      tables.push({ table: built.table, sheet, rowCount: built.rowCount, columns: built.columns })
    }
    for (const name of ['raw0', ...raws.map((_, i) => `raw${i}`)])
      await connection.run(`DROP TABLE IF EXISTS "${name}"`)
    return tables
  }
}

export function notATable(document: { readonly id: string; readonly objectName: string }): AppError {
  return new AppError(
    'not_a_table',
    `document ${document.id} (${document.objectName}) is not a table: data analysis takes CSV, TSV, XLSX and ODS documents`,
  )
}
