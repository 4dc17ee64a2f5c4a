import { open } from 'node:fs/promises'
import yauzl from 'yauzl'
import { IngestError } from '../errors.js'
import type { Block, ParsedDocument, ParseInput, Parser, TableBlock } from '../model.js'
import { toIngestError } from './failures.js'
import { ODS_TYPES, XLSX_TYPES } from './formats.js'
import { TableBuilder, type TypedCell } from './table-builder.js'
import { xlsxWorksheets } from './xlsx-workbook.js'
import { XmlScanner } from './xml-scan.js'
import { guardZip } from './zip-guard.js'

const EMPTY: TypedCell = { text: '', kind: 'empty' }
/** A run of identical non-empty ODS rows or cells is written out at most this many times. */
const MAX_REPEAT = 1000
const MS_PER_DAY = 86_400_000
/** Excel serial day 0 (1899-12-30) as a Unix day number. */
const EXCEL_EPOCH_DAYS = 25_569

// ---------------------------------------------------------------------------------------------
// Display strings

/** A number as a spreadsheet shows it in General format: at most 15 significant digits, no float noise. */
export function formatNumber(value: number, numFmt?: string): string {
  if (!Number.isFinite(value)) return ''
  const section = (numFmt ?? '').split(';')[0]?.replace(/"[^"]*"|\[[^\]]*]|\\./g, '') ?? ''
  const decimals = /\.(0+)/.exec(section)?.[1]?.length
  if (/E[+-]/i.test(section))
    return value
      .toExponential(decimals ?? 0)
      .toUpperCase()
      .replace(/E([+-])(\d)$/, 'E$10$2')
  if (section.includes('%')) {
    const percent = value * 100
    return `${decimals === undefined ? clean(percent) : percent.toFixed(decimals)}%`
  }
  if (decimals !== undefined) return value.toFixed(decimals)
  if (/^[#,]*0[#,0]*$/.test(section.trim())) return value.toFixed(0)
  return clean(value)
}

function clean(value: number): string {
  return String(Number(value.toPrecision(15)))
}

const pad = (n: number): string => String(n).padStart(2, '0')

/** `YYYY-MM-DD`, `YYYY-MM-DD HH:MM[:SS]`, or `HH:MM[:SS]` for a time of day alone (the UTC fields are the shown ones). */
export function formatDate(date: Date): string {
  if (Number.isNaN(date.getTime())) return ''
  const day = `${date.getUTCFullYear()}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())}`
  const h = date.getUTCHours()
  const m = date.getUTCMinutes()
  const s = date.getUTCSeconds()
  if (h === 0 && m === 0 && s === 0) return day
  const time = `${pad(h)}:${pad(m)}${s ? `:${pad(s)}` : ''}`
  return day === '1899-12-30' || day === '1899-12-31' ? time : `${day} ${time}`
}

function isDateFormat(numFmt: string | undefined): boolean {
  if (!numFmt) return false
  return /[ymdhs]/i.test(numFmt.replace(/\[[^\]]*]|"[^"]*"|\\./g, '').replace(/General/gi, ''))
}

// ---------------------------------------------------------------------------------------------
// XLSX (exceljs streaming reader)

interface RichTextLike {
  readonly richText: readonly { readonly text?: string | null }[]
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null
}

/** A cell value of any exceljs shape (plain, rich text, hyperlink, formula with cached result, error). */
function typedValue(value: unknown, numFmt: string | undefined): TypedCell {
  if (value === null || value === undefined) return EMPTY
  if (typeof value === 'number') {
    if (isDateFormat(numFmt))
      return { text: formatDate(new Date(Math.round((value - EXCEL_EPOCH_DAYS) * MS_PER_DAY))), kind: 'date' }
    return { text: formatNumber(value, numFmt), kind: 'number' }
  }
  if (typeof value === 'string') return { text: value, kind: value.trim() ? 'text' : 'empty' }
  if (typeof value === 'boolean') return { text: value ? 'TRUE' : 'FALSE', kind: 'bool' }
  if (value instanceof Date) return { text: formatDate(value), kind: 'date' }
  if (isRecord(value)) {
    if (Array.isArray(value.richText)) {
      const text = (value as unknown as RichTextLike).richText.map((run) => run.text ?? '').join('')
      return { text, kind: text.trim() ? 'text' : 'empty' }
    }
    if ('formula' in value || 'sharedFormula' in value) return typedValue(value.result, numFmt)
    if (typeof value.error === 'string') return { text: value.error, kind: 'text' }
    if ('text' in value) return typedValue(value.text, numFmt)
  }
  return EMPTY
}

/** A workbook cell as the ingestion parser shows it (the text its chunks hold); data-analysis mode loads the same text. */
export function spreadsheetCellText(value: unknown, numFmt: string | undefined): string {
  return typedValue(value, numFmt).text
}

async function parseXlsx(input: ParseInput): Promise<ParsedDocument> {
  const blocks: Block[] = []
  let sheets = 0
  for await (const worksheet of xlsxWorksheets(input.path)) {
    sheets++
    if (sheets > input.limits.maxPages) {
      throw new IngestError(`limit exceeded: the workbook has more than ${input.limits.maxPages} sheets`, true)
    }
    const table = new TableBuilder(worksheet.name)
    for await (const row of worksheet.rows) {
      const cells: TypedCell[] = []
      row.eachCell({ includeEmpty: false }, (cell, column) => {
        while (cells.length < column - 1) cells.push(EMPTY)
        const typed = typedValue(cell.value, cell.numFmt)
        cells[column - 1] = cell.font?.bold ? { ...typed, bold: true } : typed
      })
      table.add(row.number, cells)
    }
    const block = table.finish()
    if (block) blocks.push(block)
    input.progress(sheets, Math.max(sheets, worksheet.sheetCount))
  }
  return { blocks, pageCount: Math.max(sheets, 1), documentType: 'text' }
}

// ---------------------------------------------------------------------------------------------
// ODS (content.xml, read as a stream)

interface OdsCell {
  attributes: Readonly<Record<string, string>>
  text: string[]
  paragraphs: number
}

/** An ODS cell's shown value from its typed attributes, else its paragraphs' text. */
function odsValue(cell: OdsCell): TypedCell {
  const a = cell.attributes
  const type = a['office:value-type'] ?? a['calcext:value-type']
  const text = cell.text.join('').replace(/\s+$/, '')
  switch (type) {
    case 'float':
    case 'currency': {
      const value = Number(a['office:value'])
      return Number.isFinite(value) ? { text: clean(value), kind: 'number' } : { text, kind: 'text' }
    }
    case 'percentage': {
      const value = Number(a['office:value'])
      return Number.isFinite(value) ? { text: `${clean(value * 100)}%`, kind: 'number' } : { text, kind: 'text' }
    }
    case 'date': {
      const raw = a['office:date-value'] ?? ''
      const match = /^(-?\d{4,}-\d{2}-\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2}))?)?/.exec(raw)
      if (!match) return { text: text || raw, kind: 'date' }
      const [, day, h, m, s] = match
      if (!h || (h === '00' && m === '00' && (!s || s === '00'))) return { text: day ?? raw, kind: 'date' }
      return { text: `${day} ${h}:${m}${s && s !== '00' ? `:${s}` : ''}`, kind: 'date' }
    }
    case 'time': {
      const match = /^PT(\d+)H(\d+)M(\d+)(?:\.\d+)?S$/.exec(a['office:time-value'] ?? '')
      if (!match) return { text, kind: 'date' }
      const [, h, m, s] = match
      return { text: `${pad(Number(h))}:${pad(Number(m))}${Number(s) ? `:${pad(Number(s))}` : ''}`, kind: 'date' }
    }
    case 'boolean':
      return { text: a['office:boolean-value'] === 'true' ? 'TRUE' : 'FALSE', kind: 'bool' }
    default:
      return { text, kind: text.trim() ? 'text' : 'empty' }
  }
}

function repeatCount(value: string | undefined): number {
  const n = Number(value ?? '1')
  return Number.isInteger(n) && n > 0 ? n : 1
}

/** Turns the event stream of content.xml into one table per `<table:table>`. */
class OdsCollector {
  readonly sheets: { name: string; block: TableBlock | null }[] = []
  private table: TableBuilder | null = null
  private tableName = ''
  private tableDepth = 0
  private rowNumber = 0
  private row: TypedCell[] | null = null
  private rowRepeat = 1
  /** Empty cells seen but not yet written: trailing ones (often thousands) are never materialised. */
  private pendingEmpty = 0
  private cell: OdsCell | null = null
  private annotationDepth = 0

  constructor(private readonly maxSheets: number) {}

  handle(events: ReturnType<XmlScanner['write']>): void {
    for (const event of events) {
      if (event.type === 'open') this.open(event.name, event.attributes)
      else if (event.type === 'close') this.close(event.name)
      else if (this.cell && this.annotationDepth === 0) this.cell.text.push(event.text)
    }
  }

  private open(name: string, attributes: Readonly<Record<string, string>>): void {
    if (name === 'table:table') {
      this.tableDepth++
      if (this.tableDepth > 1) return
      this.tableName = attributes['table:name'] ?? `Sheet${this.sheets.length + 1}`
      this.table = new TableBuilder(this.tableName)
      this.rowNumber = 0
      if (this.sheets.length >= this.maxSheets) {
        throw new IngestError(`limit exceeded: the spreadsheet has more than ${this.maxSheets} sheets`, true)
      }
      return
    }
    if (this.tableDepth !== 1) return
    if (name === 'table:table-row') {
      this.row = []
      this.pendingEmpty = 0
      this.rowRepeat = repeatCount(attributes['table:number-rows-repeated'])
    } else if ((name === 'table:table-cell' || name === 'table:covered-table-cell') && this.row) {
      this.cell = { attributes, text: [], paragraphs: 0 }
    } else if (this.cell) {
      if (name === 'office:annotation') this.annotationDepth++
      else if (this.annotationDepth > 0) return
      else if (name === 'text:p' || name === 'text:h') {
        if (this.cell.paragraphs++ > 0) this.cell.text.push('\n')
      } else if (name === 'text:s') this.cell.text.push(' '.repeat(Math.min(repeatCount(attributes['text:c']), 100)))
      else if (name === 'text:tab') this.cell.text.push('\t')
      else if (name === 'text:line-break') this.cell.text.push('\n')
    }
  }

  private close(name: string): void {
    if (name === 'table:table') {
      this.tableDepth--
      if (this.tableDepth === 0 && this.table) {
        this.sheets.push({ name: this.tableName, block: this.table.finish() })
        this.table = null
      }
      return
    }
    if (this.tableDepth !== 1) return
    if (name === 'office:annotation' && this.annotationDepth > 0) this.annotationDepth--
    else if ((name === 'table:table-cell' || name === 'table:covered-table-cell') && this.cell && this.row) {
      const value = odsValue(this.cell)
      const repeat = repeatCount(this.cell.attributes['table:number-columns-repeated'])
      this.cell = null
      if (value.kind === 'empty' && value.text === '') {
        this.pendingEmpty += repeat
        return
      }
      for (let i = 0; i < this.pendingEmpty; i++) this.row.push(EMPTY)
      this.pendingEmpty = 0
      for (let i = 0; i < Math.min(repeat, MAX_REPEAT); i++) this.row.push(value)
    } else if (name === 'table:table-row' && this.row) {
      const cells = this.row
      this.row = null
      const empty = cells.length === 0
      const times = empty ? 0 : Math.min(this.rowRepeat, MAX_REPEAT)
      for (let i = 0; i < times; i++) this.table?.add(this.rowNumber + i + 1, cells)
      this.rowNumber += this.rowRepeat
    }
  }
}

async function parseOds(input: ParseInput): Promise<ParsedDocument> {
  const zip = await yauzl.openPromise(input.path, { lazyEntries: true, autoClose: false, strictFileNames: false })
  try {
    let content: yauzl.Entry | null = null
    for await (const entry of zip.eachEntry()) {
      if (entry.fileName === 'content.xml') {
        content = entry
        break
      }
    }
    if (!content) throw new Error('content.xml is missing')
    const collector = new OdsCollector(input.limits.maxPages)
    const scanner = new XmlScanner()
    const decoder = new TextDecoder('utf-8')
    for await (const chunk of await zip.openReadStreamPromise(content)) {
      collector.handle(scanner.write(decoder.decode(chunk as Buffer, { stream: true })))
    }
    collector.handle(scanner.write(decoder.decode()))
    collector.handle(scanner.end())
    input.progress(collector.sheets.length, collector.sheets.length)
    const blocks: Block[] = collector.sheets.flatMap((sheet) => (sheet.block ? [sheet.block] : []))
    return { blocks, pageCount: Math.max(collector.sheets.length, 1), documentType: 'text' }
  } finally {
    zip.close()
  }
}

// ---------------------------------------------------------------------------------------------

const ENCRYPTED_OFFICE_MAGIC = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1])

/** Password-protected XLSX files are OLE containers, not zips: say so instead of "damaged". */
async function rejectOleContainer(path: string): Promise<void> {
  const handle = await open(path, 'r')
  try {
    const head = Buffer.alloc(8)
    await handle.read(head, 0, 8, 0)
    if (head.equals(ENCRYPTED_OFFICE_MAGIC)) {
      throw new IngestError('the spreadsheet is password-protected or in the legacy binary format', true)
    }
  } finally {
    await handle.close()
  }
}

/**
 * XLSX and ODS: one table block per sheet (`sheet` = its name), rows numbered as in the sheet,
 * fully empty rows skipped, the first row as header when it looks like one. Cells are the shown
 * values: numbers without float noise (number formats' decimals and percentages applied), dates
 * as `YYYY-MM-DD[ HH:MM[:SS]]`, booleans as TRUE/FALSE, formulas as their cached result, rich
 * text flattened. `pageCount` is the number of sheets. The archive is checked by the zip guard first.
 */
export const spreadsheetParser: Parser = {
  mimeTypes: [...XLSX_TYPES, ...ODS_TYPES],
  async parse(input) {
    const ods = (ODS_TYPES as readonly string[]).includes(input.mimeType)
    const format = ods ? 'ODS' : 'XLSX'
    try {
      await rejectOleContainer(input.path)
      await guardZip(input.path, input.limits, format)
      if (ods) return await parseOds(input)
      return await parseXlsx(input)
    } catch (error) {
      throw toIngestError(format, error)
    }
  },
}
