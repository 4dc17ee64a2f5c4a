import type { TableBlock, TableRow } from '../model.js'

/** What a cell holds, as far as header detection cares. */
export type CellKind = 'empty' | 'number' | 'date' | 'bool' | 'text'

export interface TypedCell {
  readonly text: string
  readonly kind: CellKind
  /** Spreadsheets only: the cell's font is bold (a strong header hint). */
  readonly bold?: boolean
}

/** Rows looked at before deciding whether the first one is a header. */
const SNIFF_ROWS = 20

const NUMBER = /^[-+]?[$€£¥]?\s?(\d{1,3}([ ,.'\u00a0\u202f]\d{3})+|\d+)([.,]\d+)?\s?[%€$£¥]?$|^[-+]?[.,]\d+%?$/
const DATE =
  /^(\d{4}-\d{1,2}-\d{1,2}([ T]\d{1,2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?|\d{1,2}[./-]\d{1,2}[./-]\d{2,4}|\d{1,2}:\d{2}(:\d{2})?)$/
const BOOL = /^(true|false)$/i

/** The kind of a cell known only as text (CSV, HTML): numbers with either decimal mark, dates, booleans. */
export function kindOfText(text: string): CellKind {
  const value = text.trim()
  if (value === '') return 'empty'
  if (NUMBER.test(value)) return 'number'
  if (DATE.test(value)) return 'date'
  if (BOOL.test(value)) return 'bool'
  return 'text'
}

/** Per column, what the data rows say about the header cell: +1 header-like, -1 data-like, 0 no evidence. */
function columnVote(header: TypedCell | undefined, column: readonly (TypedCell | undefined)[]): number {
  let type: string | null = null
  for (const cell of column) {
    if (!cell || cell.kind === 'empty') continue
    const cellType = cell.kind === 'text' ? `len:${cell.text.length}` : cell.kind
    if (type === null) type = cellType
    else if (type !== cellType) return 0
  }
  if (type === null || !header || header.kind === 'empty') return 0
  if (type.startsWith('len:')) return header.text.length === Number(type.slice(4)) ? -1 : 1
  return 1
}

/**
 * Whether the first row is a header: all its non-empty cells are text, and either it is bold
 * where the next row is not (spreadsheets), or its cells differ in type from the rows below
 * (numbers, dates, booleans, or text of a consistent length under a header of another length —
 * the csv.Sniffer vote). An all-text table with no such evidence has no header.
 */
export function detectHeader(rows: readonly (readonly TypedCell[])[]): boolean {
  const [first, second] = rows
  if (!first || !second) return false
  const filled = first.filter((cell) => cell.kind !== 'empty')
  if (filled.length === 0 || filled.some((cell) => cell.kind !== 'text')) return false
  const nextFilled = second.filter((cell) => cell.kind !== 'empty')
  const bold = filled.every((cell) => cell.bold) && nextFilled.some((cell) => !cell.bold)
  // A bold title above a table covers fewer columns than the rows below it.
  if (bold && filled.length >= nextFilled.length) return true
  const width = Math.max(...rows.map((row) => row.length))
  let score = 0
  for (let c = 0; c < width; c++) {
    score += columnVote(
      first[c],
      rows.slice(1).map((row) => row[c]),
    )
  }
  return score > 0
}

interface PendingRow {
  readonly rowNumber: number
  readonly cells: readonly TypedCell[]
}

function trimTrailingEmpty(cells: readonly string[]): string[] {
  let end = cells.length
  while (end > 0 && cells[end - 1] === '') end--
  return cells.slice(0, end)
}

/**
 * Collects one table's rows as they stream in: skips fully empty rows, decides the header from
 * the first rows, keeps only strings for the rest, and at the end drops leading empty columns
 * and pads every row to the table's width.
 */
export class TableBuilder {
  private pending: PendingRow[] | null = []
  private header: string[] | null = null
  private readonly rows: { rowNumber: number; cells: string[] }[] = []

  constructor(private readonly sheet?: string) {}

  /** Adds a source row; `rowNumber` is its 1-based position in the source. */
  add(rowNumber: number, cells: readonly TypedCell[]): void {
    if (cells.every((cell) => cell.text.trim() === '')) return
    if (this.pending) {
      this.pending.push({ rowNumber, cells })
      if (this.pending.length >= SNIFF_ROWS) this.decide()
      return
    }
    this.rows.push({ rowNumber, cells: trimTrailingEmpty(cells.map((cell) => cell.text)) })
  }

  get rowCount(): number {
    return (this.pending?.length ?? 0) + this.rows.length
  }

  private decide(): void {
    const pending = this.pending ?? []
    this.pending = null
    const hasHeader = detectHeader(pending.map((row) => row.cells))
    pending.forEach((row, i) => {
      const cells = trimTrailingEmpty(row.cells.map((cell) => cell.text))
      if (i === 0 && hasHeader) this.header = cells
      else this.rows.push({ rowNumber: row.rowNumber, cells })
    })
  }

  /** The table block, or null when no row had any content. */
  finish(): TableBlock | null {
    if (this.pending) this.decide()
    if (!this.header && this.rows.length === 0) return null
    const all = this.header ? [this.header, ...this.rows.map((row) => row.cells)] : this.rows.map((row) => row.cells)
    let lead = Number.POSITIVE_INFINITY
    let width = 0
    for (const cells of all) {
      const firstFilled = cells.findIndex((cell) => cell !== '')
      if (firstFilled >= 0) lead = Math.min(lead, firstFilled)
      width = Math.max(width, cells.length)
    }
    if (!Number.isFinite(lead)) lead = 0
    const shape = (cells: string[]): string[] => {
      const shaped = lead > 0 ? cells.slice(lead) : cells
      while (shaped.length < width - lead) shaped.push('')
      return shaped
    }
    const rows: TableRow[] = this.rows.map((row) => ({ rowNumber: row.rowNumber, cells: shape(row.cells) }))
    const header = this.header ? shape(this.header) : null
    return this.sheet === undefined
      ? { kind: 'table', header, rows }
      : { kind: 'table', sheet: this.sheet, header, rows }
  }
}
