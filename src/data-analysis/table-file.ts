import { rm } from 'node:fs/promises'
import type { DuckDBConnection } from '@duckdb/node-api'
import { detectFileEncoding, readTextSample } from '../ingestion/detection/text-decoding.js'
import type { IngestLimits, TableBlock } from '../ingestion/model.js'
import { detectDelimiter } from '../ingestion/parsers/csv.js'
import { CSV_TYPES, ODS_TYPES, XLS, XLSB, XLSX_TYPES } from '../ingestion/parsers/formats.js'
import { convertWithLibreOffice } from '../ingestion/parsers/libreoffice.js'
import { spreadsheetParser } from '../ingestion/parsers/spreadsheet.js'
import { AppError } from '../lib/errors.js'
import { type EngineLimits, openDuckDb, queryRows, quoteLiteral } from './duckdb.js'
import { loadCsv, loadParsedSheets, loadXlsx, TooManyCells } from './raw-sources.js'
import { buildTable, type RawTable } from './table-build.js'
import type { ColumnSchema } from './types.js'

const SHEET_TYPES: readonly string[] = [...XLSX_TYPES, ...ODS_TYPES]
/** Legacy workbooks, loaded once LibreOffice has converted them to .xlsx. */
const LEGACY_SHEET_TYPES: readonly string[] = [XLS, XLSB]

/** Whether data-analysis mode can load a document of this type. */
export function isTableType(mimeType: string): boolean {
  return (
    (CSV_TYPES as readonly string[]).includes(mimeType) ||
    SHEET_TYPES.includes(mimeType) ||
    LEGACY_SHEET_TYPES.includes(mimeType)
  )
}

/**
 * The version of what a table file holds (typing rules, column statistics, first rows). A file
 * written by another version is not used: the table is loaded again from the document.
 * 2: the first rows are kept (`sampleRows`).
 * 3: numbers with a trailing point ("3504.") and missing-value markers ("null", "NaN") in numeric
 * columns are typed as numbers (inference.ts), so files typed before are loaded again.
 */
export const TABLE_FILE_FORMAT = 3

/** The table inside every table file that says what the file holds. */
const CONTENTS_TABLE = 'lantern_tables'

/** One loaded table inside a table file. */
export interface CachedTable {
  /** Table name inside the file (`s0`, `s1`, …). */
  readonly table: string
  readonly sheet: string | null
  readonly rowCount: number
  readonly columns: readonly ColumnSchema[]
  /** Its first rows as text. */
  readonly sampleRows: readonly (readonly (string | null)[])[]
}

/** The stored document a table file is built from: a local copy of its bytes and how to read them. */
export interface TableSource {
  readonly documentId: string
  readonly objectName: string
  readonly mimeType: string
  readonly csvDelimiter: 'comma' | 'semicolon' | 'tab' | null
  /** A local file with the document's bytes. */
  readonly path: string
}

export interface TableFileSettings {
  readonly maxCells: number
  readonly engine: EngineLimits
  readonly ingestLimits: IngestLimits
  /** LibreOffice's `soffice`, which turns .xls and .xlsb into .xlsx first; null: not installed. */
  readonly soffice?: string | null
}

const DELIMITERS = { comma: ',', semicolon: ';', tab: '\t' } as const

export function tooLarge(max: number): AppError {
  return new AppError(
    'table_too_large',
    `the document holds more than ${max} cells (rows × columns); data analysis is limited by LANTERN_ANALYSIS_MAX_CELLS`,
  )
}

export function notATable(document: { readonly id: string; readonly objectName: string }): AppError {
  return new AppError(
    'not_a_table',
    `document ${document.id} (${document.objectName}) is not a table: data analysis takes CSV, TSV, XLSX, XLS, XLSB and ODS documents`,
  )
}

/** Total cells of a file's tables, as LANTERN_ANALYSIS_MAX_CELLS counts them. */
export function cellCount(tables: readonly CachedTable[]): number {
  return tables.reduce((sum, t) => sum + t.rowCount * Math.max(1, t.columns.length), 0)
}

/**
 * Reads a document's tables, types them (DuckDB, never as JS objects) and writes them with a
 * contents table to the DuckDB file `file`, which queries then attach read-only. `spill` is a
 * directory DuckDB may use while loading. On failure nothing is left at `file`.
 */
export async function buildTableFile(
  source: TableSource,
  file: string,
  spill: string,
  settings: TableFileSettings,
): Promise<CachedTable[]> {
  // Raw text and typing stay in memory (spilling if needed); only the typed tables reach the file.
  const db = await openDuckDb(':memory:', { ...settings.engine, tempDirectory: spill })
  let closed = false
  try {
    await db.connection.run(`ATTACH ${quoteLiteral(file)} AS out`)
    const tables = await loadTables(db.connection, source, settings)
    if (cellCount(tables) > settings.maxCells) throw tooLarge(settings.maxCells)
    await db.connection.run(`CREATE TABLE out.${CONTENTS_TABLE} (format INTEGER, tables VARCHAR)`)
    await db.connection.run(
      `INSERT INTO out.${CONTENTS_TABLE} VALUES (${TABLE_FILE_FORMAT}, ${quoteLiteral(JSON.stringify(tables))})`,
    )
    await db.connection.run('DETACH out')
    db.close()
    closed = true
    return tables
  } catch (error) {
    if (!closed) db.close()
    await removeTableFile(file)
    if (error instanceof TooManyCells) throw tooLarge(settings.maxCells)
    if (error instanceof AppError) throw error
    // A file the ingestion parser read but DuckDB or the workbook reader cannot: say so, clearly.
    throw new AppError(
      'not_a_table',
      `document ${source.documentId} (${source.objectName}) could not be read as a table: ${(error as Error).message.split('\n')[0]}`,
    )
  } finally {
    await rm(spill, { recursive: true, force: true })
  }
}

/** The tables a table file holds; null when it was written by another format version or is unreadable. */
export async function readTableFile(file: string, engine: EngineLimits): Promise<CachedTable[] | null> {
  let db: Awaited<ReturnType<typeof openDuckDb>> | undefined
  try {
    db = await openDuckDb(':memory:', engine)
    await db.connection.run(`ATTACH ${quoteLiteral(file)} AS stored (READ_ONLY)`)
    const [row] = await queryRows(db.connection, `SELECT format, tables FROM stored.${CONTENTS_TABLE}`)
    if (!row || row.format !== TABLE_FILE_FORMAT || typeof row.tables !== 'string') return null
    return JSON.parse(row.tables) as CachedTable[]
  } catch {
    return null
  } finally {
    db?.close()
  }
}

export async function removeTableFile(file: string): Promise<void> {
  await rm(file, { force: true })
  await rm(`${file}.wal`, { force: true })
}

async function loadTables(
  connection: DuckDBConnection,
  source: TableSource,
  settings: TableFileSettings,
): Promise<CachedTable[]> {
  const { maxCells } = settings
  let raws: { sheet: string | null; raw: RawTable }[]
  let european = false
  if ((CSV_TYPES as readonly string[]).includes(source.mimeType)) {
    const encoding = await detectFileEncoding(source.path)
    let delimiter: string = source.csvDelimiter ? DELIMITERS[source.csvDelimiter] : ''
    if (!delimiter && source.mimeType === 'text/tab-separated-values') delimiter = '\t'
    if (!delimiter) {
      const sample = await readTextSample(source.path, encoding)
      delimiter = detectDelimiter(sample.text, sample.complete)
    }
    european = delimiter === ';'
    raws = [
      { sheet: null, raw: await loadCsv(connection, { path: source.path, delimiter, encoding }, 'raw0', maxCells) },
    ]
  } else if ((ODS_TYPES as readonly string[]).includes(source.mimeType)) {
    const parsed = await spreadsheetParser.parse({
      path: source.path,
      mimeType: source.mimeType,
      filename: source.objectName,
      options: { loaderType: 'STANDARD', csvDelimiter: null, imageMinSizeRatio: 0 },
      limits: settings.ingestLimits,
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
  } else if (SHEET_TYPES.includes(source.mimeType)) {
    raws = await loadXlsx(connection, source.path, 'raw', maxCells)
  } else if (LEGACY_SHEET_TYPES.includes(source.mimeType)) {
    if (!settings.soffice) {
      throw new AppError(
        'not_a_table',
        `document ${source.documentId} (${source.objectName}) is a legacy Excel workbook, which data analysis reads through LibreOffice; it is not installed on the server`,
      )
    }
    const converted = await convertWithLibreOffice(
      settings.soffice,
      source.path,
      'xlsx',
      settings.ingestLimits.timeBudgetMs,
    )
    try {
      raws = await loadXlsx(connection, converted.path, 'raw', maxCells)
    } finally {
      await converted.cleanup()
    }
  } else {
    throw notATable({ id: source.documentId, objectName: source.objectName })
  }
  const tables: CachedTable[] = []
  for (const [index, { sheet, raw }] of raws.entries()) {
    const built = await buildTable(connection, raw, `s${index}`, { european }, 'out')
    if (built.columns.length === 0 && built.rowCount === 0) continue
    tables.push({
      table: built.table,
      sheet,
      rowCount: built.rowCount,
      columns: built.columns,
      sampleRows: built.sampleRows,
    })
  }
  for (const name of ['raw0', ...raws.map((_, i) => `raw${i}`)]) await connection.run(`DROP TABLE IF EXISTS "${name}"`)
  return tables
}
