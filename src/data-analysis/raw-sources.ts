import { createReadStream } from 'node:fs'
import { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { type DuckDBAppender, type DuckDBConnection, LIST, VARCHAR } from '@duckdb/node-api'
import { parse } from 'csv-parse'
import { decodeFileStream } from '../ingestion/detection/text-decoding.js'
import { spreadsheetCellText } from '../ingestion/parsers/spreadsheet.js'
import { xlsxWorksheets } from '../ingestion/parsers/xlsx-workbook.js'
import { quoteLiteral } from './duckdb.js'
import type { RawTable } from './table-build.js'
import { quoteIdentifier } from './types.js'

/** Thrown when a table passes the configured cell count while loading. */
export class TooManyCells extends Error {
  constructor(readonly cells: number) {
    super(`the table has more than ${cells} cells`)
  }
}

const MAX_RECORD_BYTES = 16 * 1024 * 1024

/** Collects `(row number, cells)` rows into a DuckDB table through the appender, counting cells. */
class RawSink {
  private width = 0
  private cells = 0
  private constructor(
    private readonly table: string,
    private readonly appender: DuckDBAppender,
    private readonly maxCells: number,
  ) {}

  static async create(connection: DuckDBConnection, table: string, maxCells: number): Promise<RawSink> {
    await connection.run(`CREATE OR REPLACE TABLE ${quoteIdentifier(table)} (__row BIGINT, cells VARCHAR[])`)
    return new RawSink(table, await connection.createAppender(table), maxCells)
  }

  add(rowNumber: number, cells: readonly string[]): void {
    let end = cells.length
    while (end > 0 && (cells[end - 1] ?? '').trim() === '') end--
    if (end === 0) return
    this.cells += end
    if (this.cells > this.maxCells) throw new TooManyCells(this.maxCells)
    this.width = Math.max(this.width, end)
    this.appender.appendBigInt(BigInt(rowNumber))
    // Empty cells as NULL, like DuckDB's CSV reader.
    this.appender.appendList(
      cells.slice(0, end).map((cell) => (cell.trim() === '' ? null : cell)),
      LIST(VARCHAR),
    )
    this.appender.endRow()
  }

  finish(): RawTable {
    this.appender.flushSync()
    this.appender.closeSync()
    const cols = Array.from({ length: this.width }, (_, i) => `, cells[${i + 1}] AS c${i}`).join('')
    return { relation: `SELECT __row${cols} FROM ${quoteIdentifier(this.table)}`, width: this.width }
  }

  abort(): void {
    try {
      this.appender.closeSync()
    } catch {
      // Closing after a failed append may itself fail; the table is dropped with the database.
    }
  }
}

const BLANK_LINES = [Buffer.from('\n\n'), Buffer.from('\n\r\n'), Buffer.from('\r\r')]

function contentAfter(buffer: Buffer, from: number): boolean {
  for (let i = from; i < buffer.length; i++) if (buffer[i] !== 0x0a && buffer[i] !== 0x0d) return true
  return false
}

/** True when the file has an empty line before its end: DuckDB's reader skips those, the ingestion parser counts them. */
export async function hasBlankLines(path: string): Promise<boolean> {
  let carry: Buffer = Buffer.alloc(0)
  let pendingBlank = false
  for await (const chunk of createReadStream(path, { highWaterMark: 1024 * 1024 })) {
    const buffer = carry.length > 0 ? Buffer.concat([carry, chunk as Buffer]) : (chunk as Buffer)
    if (pendingBlank && contentAfter(buffer, 0)) return true
    for (const pattern of BLANK_LINES) {
      const at = buffer.indexOf(pattern)
      if (at < 0) continue
      if (contentAfter(buffer, at + pattern.length)) return true
      pendingBlank = true
    }
    carry = buffer.subarray(Math.max(0, buffer.length - 2))
  }
  return false
}

export interface CsvSource {
  readonly path: string
  readonly delimiter: string
  /** As detected for the ingestion parser (`utf-8`, `windows-1252`, …). */
  readonly encoding: string
}

/**
 * CSV/TSV rows into DuckDB. UTF-8 files without blank lines go through DuckDB's own reader (all
 * columns as text, in parallel, never as JS objects); others through csv-parse with the ingestion
 * parser's options, so rows are numbered exactly like the document's chunks (record 1 = first line).
 */
export async function loadCsv(
  connection: DuckDBConnection,
  source: CsvSource,
  rawTable: string,
  maxCells: number,
): Promise<RawTable> {
  const utf8 = /^(utf-?8|ascii|us-ascii)$/i.test(source.encoding)
  if (utf8 && !(await hasBlankLines(source.path))) {
    const name = quoteIdentifier(rawTable)
    await connection.run(
      `CREATE OR REPLACE TABLE ${name} AS SELECT * FROM read_csv(${quoteLiteral(source.path)}, delim=${quoteLiteral(source.delimiter)}, quote='"', escape='"', header=false, all_varchar=true, strict_mode=false, null_padding=true, skip=0)`,
    )
    const described = await connection.runAndReadAll(`SELECT * FROM ${name} LIMIT 0`)
    const names = described.columnNames()
    const size = await connection.runAndReadAll(`SELECT count(*) FROM ${name}`)
    const rows = Number(size.getRowsJS()[0]?.[0] ?? 0)
    if (rows * names.length > maxCells) throw new TooManyCells(maxCells)
    const cols = names.map((column, i) => `, ${quoteIdentifier(column)} AS c${i}`).join('')
    return { relation: `SELECT rowid + 1 AS __row${cols} FROM ${name}`, width: names.length }
  }
  const sink = await RawSink.create(connection, rawTable, maxCells)
  const parser = parse({
    delimiter: source.delimiter,
    relax_column_count: true,
    relax_quotes: true,
    trim: true,
    skip_empty_lines: false,
    max_record_size: MAX_RECORD_BYTES,
  })
  const done = pipeline(Readable.from(decodeFileStream(source.path, source.encoding)), parser)
  done.catch(() => {})
  let rowNumber = 0
  try {
    for await (const record of parser as AsyncIterable<string[]>) sink.add(++rowNumber, record)
    await done
  } catch (error) {
    sink.abort()
    parser.destroy()
    throw error
  }
  return sink.finish()
}

/**
 * Every sheet of an XLSX workbook into its own raw table (streamed by `xlsxWorksheets`, cells as the
 * ingestion parser shows them, rows numbered as in the sheet). Sheets come in the workbook's order.
 */
export async function loadXlsx(
  connection: DuckDBConnection,
  path: string,
  rawTablePrefix: string,
  maxCells: number,
): Promise<{ sheet: string; raw: RawTable }[]> {
  const found: { sheet: string; raw: RawTable }[] = []
  let cells = 0
  for await (const worksheet of xlsxWorksheets(path)) {
    const sheet = worksheet.name
    const sink = await RawSink.create(connection, `${rawTablePrefix}${found.length}`, maxCells - cells)
    try {
      for await (const row of worksheet.rows) {
        const values: string[] = []
        row.eachCell({ includeEmpty: false }, (cell, column) => {
          while (values.length < column - 1) values.push('')
          values[column - 1] = spreadsheetCellText(cell.value, cell.numFmt)
        })
        sink.add(row.number, values)
      }
    } catch (error) {
      sink.abort()
      throw error instanceof TooManyCells ? new TooManyCells(maxCells) : error
    }
    const raw = sink.finish()
    found.push({ sheet, raw })
    const counted = await connection.runAndReadAll(
      `SELECT coalesce(sum(len(cells)), 0) FROM ${quoteIdentifier(`${rawTablePrefix}${found.length - 1}`)}`,
    )
    cells += Number(counted.getRowsJS()[0]?.[0] ?? 0)
  }
  return found
}

/** Sheets already parsed (ODS, through the ingestion parser) into raw tables. */
export async function loadParsedSheets(
  connection: DuckDBConnection,
  sheets: readonly {
    sheet: string
    header: readonly string[] | null
    rows: readonly { rowNumber: number; cells: readonly string[] }[]
    headerRow: number
  }[],
  rawTablePrefix: string,
  maxCells: number,
): Promise<{ sheet: string; raw: RawTable }[]> {
  const out: { sheet: string; raw: RawTable }[] = []
  let cells = 0
  for (const [index, sheet] of sheets.entries()) {
    const sink = await RawSink.create(connection, `${rawTablePrefix}${index}`, maxCells - cells)
    if (sheet.header) sink.add(sheet.headerRow, sheet.header)
    for (const row of sheet.rows) sink.add(row.rowNumber, row.cells)
    out.push({ sheet: sheet.sheet, raw: sink.finish() })
    cells += sheet.rows.reduce((sum, row) => sum + row.cells.length, 0)
  }
  return out
}
