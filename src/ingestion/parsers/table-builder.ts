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

/** Joins a row's cells in one string: a row of a million-row table then costs one string, not one per cell. */
const SEPARATOR = '\u001f'

/** How every row of a table is read: its leading empty columns dropped, padded to the table's width. */
interface RowShape {
  lead: number
  width: number
}

/**
 * A row held as one string, its cells split (and shaped to the table) when read. A class, not an
 * object with a getter closure: a million rows cost about 170 MiB this way instead of 500.
 */
class PackedRow implements TableRow {
  constructor(
    readonly rowNumber: number,
    private readonly packed: string | readonly string[],
    private readonly shape: RowShape,
  ) {}

  get cells(): string[] {
    const { lead, width } = this.shape
    const cells = typeof this.packed === 'string' ? unpack(this.packed) : [...this.packed]
    const shaped = lead > 0 ? cells.slice(lead) : cells
    while (shaped.length < width - lead) shaped.push('')
    return shaped
  }
}

function pack(cells: readonly string[]): string | readonly string[] {
  // A cell holding the separator itself (binary junk) keeps the row as an array.
  return cells.some((cell) => cell.includes(SEPARATOR)) ? cells : cells.join(SEPARATOR)
}

function unpack(packed: string): string[] {
  return packed === '' ? [] : packed.split(SEPARATOR)
}

/**
 * Collects one table's rows as they stream in: skips fully empty rows, decides the header from
 * the first rows, keeps each later row as one packed string, and at the end drops leading empty
 * columns and pads every row to the table's width (as its cells are read).
 */
export class TableBuilder {
  private pending: PendingRow[] | null = []
  private header: string[] | null = null
  private readonly rows: PackedRow[] = []
  /** Measured as rows come in; final once the table is finished. */
  private readonly shape: RowShape = { lead: Number.POSITIVE_INFINITY, width: 0 }

  constructor(private readonly sheet?: string) {}

  /** Adds a source row; `rowNumber` is its 1-based position in the source. */
  add(rowNumber: number, cells: readonly TypedCell[]): void {
    if (cells.every((cell) => cell.text.trim() === '')) return
    if (this.pending) {
      this.pending.push({ rowNumber, cells })
      if (this.pending.length >= SNIFF_ROWS) this.decide()
      return
    }
    this.keep(rowNumber, cells)
  }

  get rowCount(): number {
    return (this.pending?.length ?? 0) + this.rows.length
  }

  private decide(): void {
    const pending = this.pending ?? []
    this.pending = null
    const hasHeader = detectHeader(pending.map((row) => row.cells))
    pending.forEach((row, i) => {
      if (i === 0 && hasHeader) this.header = this.measure(row.cells)
      else this.keep(row.rowNumber, row.cells)
    })
  }

  private keep(rowNumber: number, cells: readonly TypedCell[]): void {
    this.rows.push(new PackedRow(rowNumber, pack(this.measure(cells)), this.shape))
  }

  /** The row's texts without trailing empty cells, counted in the table's shape. */
  private measure(cells: readonly TypedCell[]): string[] {
    const texts = trimTrailingEmpty(cells.map((cell) => cell.text))
    const firstFilled = texts.findIndex((text) => text !== '')
    if (firstFilled >= 0) this.shape.lead = Math.min(this.shape.lead, firstFilled)
    this.shape.width = Math.max(this.shape.width, texts.length)
    return texts
  }

  /** The table block, or null when no row had any content. */
  finish(): TableBlock | null {
    if (this.pending) this.decide()
    if (!this.header && this.rows.length === 0) return null
    if (!Number.isFinite(this.shape.lead)) this.shape.lead = 0
    const header = this.header ? new PackedRow(0, this.header, this.shape).cells : null
    return this.sheet === undefined
      ? { kind: 'table', header, rows: this.rows }
      : { kind: 'table', sheet: this.sheet, header, rows: this.rows }
  }
}
