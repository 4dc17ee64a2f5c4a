import type { TableBlock, TableRow } from '../model.js'
import type { FontProfile, Furniture, PdfLine } from './pdf-lines.js'
import {
  cellRole,
  isAmount,
  joinCurrency,
  type PlacedCell,
  splitTrailingFigures,
  withoutLeaders,
} from './pdf-table-cells.js'
import { type Column, columnsOf, composeHeader, type HeaderBand, placeRow } from './pdf-table-columns.js'
import { headerAbove, MAX_HEADER_BANDS } from './pdf-table-header.js'
import { type Extent, placedCells, type Row, type TableLine } from './pdf-table-rows.js'
import { type TitleSearch, titleAbove } from './pdf-table-title.js'
import { detectHeader, kindOfText } from './table-builder.js'
import { isUnitPhrase } from './table-units.js'
import { joinLines } from './text-blocks.js'

/**
 * Tables of a PDF page as whole regions: the rows (a label wrapped over two lines joined, section
 * rows such as "Costs and expenses:" kept), the column headers above the first data row composed
 * per column from spanning and stacked header lines, and the title and unit lines above them.
 * Everything is decided from the lines' positions and the cells' text; precision comes first, so
 * a run of lines is a table only when at least two consecutive lines have several cells, as before.
 */

/** A table found on a page: its block, and the page lines it took. */
export interface PageTable {
  readonly block: TableBlock
  /** Indexes (in the page's lines) of its rows, header lines and title lines: no longer prose. */
  readonly lines: readonly number[]
  /** Its place in reading order: before the line with this index. */
  readonly at: number
}

/** What the next page needs to know of the table that ends this one, to continue it. */
export interface TableCarry {
  readonly columns: readonly Column[]
  readonly size: number
  readonly header: readonly string[] | null
  readonly title?: string
  readonly unit?: string
}

/** Rows of a table farther apart than this many font sizes belong to different tables. */
const MAX_ROW_GAP = 4
/** Lines without figures between two rows (a wrapped label, section rows): at most this many. */
const MAX_BRIDGED = 2
/** A continued table at the top of a page may follow at most this much text (a running head). */
const MAX_LINES_BEFORE_CONTINUATION = 3
const MAX_CHARS_BEFORE_CONTINUATION = 120
/** What may follow the table that ends a page for the next page to continue it: notes, the page number. */
const MAX_LINES_AFTER_END = 5
const MAX_CHARS_AFTER_END = 500

/**
 * The tables of one page, in the order of their lines, and what the next page needs to continue
 * the last one. `carried` is the previous page's last table, when it ended that page.
 */
export function pageTables(
  pageLines: readonly PdfLine[],
  fonts: FontProfile,
  furniture: Furniture,
  carried: TableCarry | null,
): { readonly tables: PageTable[]; readonly carry: TableCarry | null } {
  const lines = pageLines.map(splitMergedRow)
  const taken = new Uint8Array(lines.length)
  const found: { table: PageTable; carry: TableCarry | null; last: number }[] = []
  // Tables with figures first: the lines of words above them are their header, not a table of words.
  for (const withFigures of [true, false]) {
    for (let i = 0; i < lines.length; i++) {
      if (taken[i]) continue
      const body = bodyFrom(lines, i, taken)
      if (!body) continue
      if (isFigureTable(body, lines) !== withFigures) {
        // Its later lines start no other body of this kind: skip them (long lists stay linear).
        i = body.at(-1) as number
        continue
      }
      const result = buildTable(lines, body, taken, fonts, furniture)
      for (const index of result.table.lines) taken[index] = 1
      found.push({ ...result, last: Math.max(...body) })
    }
  }
  found.sort((a, b) => a.table.at - b.table.at)
  const first = found[0]
  if (first && carried && continues(first, carried, lines, taken)) {
    const { header, title } = carried
    const unit = first.table.block.unit ?? carried.unit
    const block: TableBlock = { ...first.table.block, header, ...(title ? { title } : {}), ...(unit ? { unit } : {}) }
    first.table = { ...first.table, block }
    if (first.carry) first.carry = { ...first.carry, header, ...(title ? { title } : {}), ...(unit ? { unit } : {}) }
  }
  const last = found.at(-1)
  const carry = last && endsPage(last.last, lines, taken) ? last.carry : null
  return { tables: found.map((entry) => entry.table), carry }
}

/**
 * A line of one cell that a text layer merged from a label and its figures (the columns set
 * closer than a cell gap, `Goodwill ....... $4,771,981 $ 12,510 $ (62,529)`) as the cells it was
 * drawn as: the label, then each figure or symbol, placed by its share of the characters. It
 * needs two figures at least, so prose ending in a number stays prose.
 */
function splitMergedRow(line: PdfLine): TableLine {
  if (line.cells.length !== 1) return line
  const text = line.cells[0] as string
  // Prose ends with a word or a stop; a merged row ends with a figure or a dash.
  if (!/[\d)%—–-]$/u.test(text)) return line
  const span = line.spans[0] as PlacedCell
  const split = splitTrailingFigures({ text, left: span.left, right: span.right }, span.left)
  const [label, ...figures] = split
  if (!label || !/\p{L}/u.test(label.text) || figures.filter((cell) => isAmount(cell.text)).length < 2) return line
  return { ...line, cells: split.map((cell) => cell.text), spans: split, guessed: true }
}

/**
 * The lines of a table body starting at `start`: consecutive lines going down the page, most with
 * several cells; up to MAX_BRIDGED lines of one cell in between when they sit in the label column
 * (a wrapped label, a section row) or under the figures (a lone total). Null unless at least two
 * lines have several cells.
 */
function bodyFrom(lines: readonly PdfLine[], start: number, taken: Uint8Array): number[] | null {
  const first = lines[start] as PdfLine
  if (!hasCells(first)) return null
  const body = [start]
  let bridge: number[] = []
  let rows = 1
  let valueLeft = valueLeftOf(first)
  let labelLeft = (first.spans[0] as PlacedCell).left
  let previous = first
  for (let i = start + 1; i < lines.length && !taken[i]; i++) {
    const line = lines[i] as PdfLine
    if (line.turns !== first.turns || line.y > previous.y || previous.y - line.y > previous.size * MAX_ROW_GAP) break
    if (hasCells(line)) {
      body.push(...bridge, i)
      bridge = []
      rows++
      valueLeft = Math.min(valueLeft, valueLeftOf(line))
      labelLeft = Math.min(labelLeft, (line.spans[0] as PlacedCell).left)
    } else if (bridge.length < MAX_BRIDGED && bridgeable(line, first.size, valueLeft, labelLeft)) {
      bridge.push(i)
    } else {
      break
    }
    previous = line
  }
  return rows >= 2 ? body : null
}

/** A list's bullet or item number, set apart from the item's text like a cell. */
const LIST_MARKER = /^(?:[•·▪▫◦●○■□►▶➢➤✓✔\-–—*o]|\(?\d{1,2}[.)]|\(?[a-zA-Z][.)]|\([ivxlc]+\))$/u

/** Whether a line has several cells, a list item (a marker, then words) aside. */
function hasCells(line: PdfLine): boolean {
  if (line.cells.length < 2) return false
  return !(
    line.cells.length === 2 &&
    LIST_MARKER.test(line.cells[0] as string) &&
    cellRole(line.cells[1] as string) === 'text'
  )
}

/** A table of figures has them in a quarter of its lines at least (a list of names may have a page number). */
function isFigureTable(body: readonly number[], lines: readonly PdfLine[]): boolean {
  const withFigures = body.filter((index) => hasFigures(lines[index] as PdfLine)).length
  return withFigures > 0 && withFigures * 4 >= body.length
}

/** Whether a line has a figure after its first cell (or is a lone figure). */
function hasFigures(line: PdfLine): boolean {
  return line.cells.some((cell, i) => (i > 0 || line.cells.length === 1) && isAmount(cell))
}

/** Where the figures of a line start: its cells after the first, or the first when it is one. */
function valueLeftOf(line: PdfLine): number {
  const from = isAmount(line.cells[0] as string) ? 0 : NOTE_MARK.test(line.cells[1] ?? '') ? 2 : 1
  if (from >= line.cells.length) return Number.POSITIVE_INFINITY
  return Math.min(...line.spans.slice(from).map((span) => span.left))
}

function bridgeable(line: PdfLine, size: number, valueLeft: number, labelLeft: number): boolean {
  if (Math.abs(line.size - size) > size * 0.15) return false
  const span = line.spans[0] as PlacedCell
  const inLabels = span.right <= valueLeft + size * 0.5 && span.left >= labelLeft - size * 3
  return inLabels || (isAmount(line.cells[0] as string) && span.left >= valueLeft - size)
}

/** The table around a body: its rows, its header bands above, its title and unit. */
function buildTable(
  lines: readonly PdfLine[],
  body: readonly number[],
  taken: Uint8Array,
  fonts: FontProfile,
  furniture: Furniture,
): { table: PageTable; carry: TableCarry | null } {
  const size = (lines[body[0] as number] as PdfLine).size
  let rows: Row[] = body.map((index) => {
    const line = lines[index] as PdfLine
    return { cells: withLabelNote(joinCurrency(placedCells(line)), line.size), y: line.y, size: line.size, line: index }
  })
  const isData = (row: Row) => row.cells.some((cell, i) => (i > 0 || row.cells.length === 1) && isAmount(cell.text))
  const firstData = rows.findIndex(isData)
  if (firstData < 0) return textTable(lines, rows, taken, fonts, furniture)
  // Rows above the first data row whose cells are words, years or dates are column headers.
  // Rows of words, years or dates right above the first data row may be its column headers.
  const allLeading = rows.slice(0, firstData)
  // The header is looked for above the rows that stay rows: the data, and the lines of one cell
  // right above it (section rows, a unit).
  const top = allLeading[allLeading.findLastIndex((row) => row.cells.length >= 2) + 1] ?? (rows[firstData] as Row)
  // A unit line among them ("(In thousands)" under the column headers) is the table's unit.
  const unitRow = allLeading.find((row) => row.cells.length === 1 && isUnitPhrase((row.cells[0] as PlacedCell).text))
  const leading = allLeading.filter((row) => row !== unitRow)
  const headerRows = leading.length <= MAX_HEADER_BANDS ? leading.filter((row) => row.cells.length >= 2) : []
  rows = rows.slice(firstData)
  rows = joinWrappedLabels(rows)
  let columns = columnsOf(rows.filter(isData).map((row) => valuesOf(row)))
  const firstColumn = columns?.[0]
  if (firstColumn) {
    rows = rows.map((row) => reachingLabel(row, firstColumn.left))
    columns = columnsOf(rows.filter(isData).map((row) => valuesOf(row)))
  }
  rows = rows.map(withoutLeaderDots)
  // A label that still reaches into the figures (a guess at where its merged figures began) does not say where labels end.
  const labelCells = rows
    .filter((row) => labelOf(row) !== null)
    .map((row) => row.cells[0] as PlacedCell)
    .filter((cell) => !firstColumn || cell.right <= firstColumn.left)
  const labels: Extent = {
    left: Math.min(...rows.map((row) => (row.cells[0] as PlacedCell).left)),
    right: Math.max(0, ...labelCells.map((cell) => cell.right)),
  }
  const pitch = rowPitch(rows)
  const head = headerAbove(lines, taken, body, headerRows, top, size, pitch, columns, labels)
  // Leading rows the header did not take stay rows, in their order.
  const inHeader = new Set(head.lines)
  rows = [...head.sections, ...leading.filter((row) => !inHeader.has(row.line)), ...rows]
  const used = [...body, ...head.lines]
  const found = titleAbove(
    titleSearch(lines, taken, used, head.top, size, tableExtent(rows, head.bands)),
    fonts,
    furniture,
  )
  const labelled = rows.some((row) => labelOf(row) !== null)
  const header = columns ? composeHeader(head.bands, columns, labelled) : plainHeader(head.bands)
  const unit = head.unit ?? (unitRow?.cells[0] as PlacedCell | undefined)?.text ?? found.unit
  const tableRows: TableRow[] = rows.map((row, i) => ({
    rowNumber: i + (header ? 2 : 1),
    cells: columns ? placeRow(labelOf(row), valuesOf(row), columns, labelled) : row.cells.map((cell) => cell.text),
  }))
  const block: TableBlock = {
    kind: 'table',
    header,
    rows: tableRows,
    ...(found.title ? { title: found.title } : {}),
    ...(unit ? { unit } : {}),
  }
  const taking = [...used, ...found.lines]
  const carry = columns
    ? { columns, size, header, ...(found.title ? { title: found.title } : {}), ...(unit ? { unit } : {}) }
    : null
  return { table: { block, lines: taking, at: Math.min(...taking) }, carry }
}

/** A table without a single figure (a glossary, a list of names): its first row is a header only when it reads like one. */
function textTable(
  lines: readonly PdfLine[],
  rows: readonly Row[],
  taken: Uint8Array,
  fonts: FontProfile,
  furniture: Furniture,
): { table: PageTable; carry: TableCarry | null } {
  const typed = rows.map((row) => row.cells.map((cell) => ({ text: cell.text, kind: kindOfText(cell.text) })))
  const hasHeader = detectHeader(typed)
  const [first, ...rest] = rows
  const dataRows = hasHeader ? rest : rows
  const size = first?.size ?? 1
  const used = rows.map((row) => row.line)
  const found = titleAbove(
    titleSearch(lines, taken, used, first?.y ?? 0, size, tableExtent(rows, [])),
    fonts,
    furniture,
  )
  const block: TableBlock = {
    kind: 'table',
    header: hasHeader && first ? first.cells.map((cell) => cell.text) : null,
    rows: dataRows.map((row, i) => ({ rowNumber: i + (hasHeader ? 2 : 1), cells: row.cells.map((cell) => cell.text) })),
    ...(found.title ? { title: found.title } : {}),
    ...(found.unit ? { unit: found.unit } : {}),
  }
  const taking = [...used, ...found.lines]
  return { table: { block, lines: taking, at: Math.min(...taking) }, carry: null }
}

/** A footnote mark set right after a label (`Depreciation` `(1)`), which a text layer may make a cell. */
const NOTE_MARK = /^(?:\((?:\d{1,2}|[a-z])\)|\*{1,3}|[¹²³⁴⁵⁶⁷⁸⁹⁰]+)$/u

function withLabelNote(cells: PlacedCell[], size: number): PlacedCell[] {
  const [label, note] = cells
  if (!label || !note || cellRole(label.text) !== 'text' || !NOTE_MARK.test(note.text)) return cells
  if (note.left - label.right > size * 1.5) return cells
  return [{ ...label, text: `${label.text} ${note.text}`, right: note.right }, ...cells.slice(2)]
}

/** A row whose label cell runs on into the figure columns, with those figures made cells again. */
function reachingLabel(row: Row, firstLeft: number): Row {
  const label = row.cells[0] as PlacedCell
  if (labelOf(row) === null || label.right <= firstLeft) return row
  const split = splitTrailingFigures(label, firstLeft)
  return split.length === 1 ? row : { ...row, cells: joinCurrency([...split, ...row.cells.slice(1)]) }
}

function withoutLeaderDots(row: Row): Row {
  const label = row.cells[0] as PlacedCell
  if (labelOf(row) === null || !label.text.includes('....')) return row
  return { ...row, cells: [{ ...label, text: withoutLeaders(label.text) }, ...row.cells.slice(1)] }
}

/** A row's label: its first cell when that is words, not a figure. */
function labelOf(row: Row): string | null {
  let label = rowLabels.get(row)
  if (label === undefined) {
    const first = row.cells[0] as PlacedCell
    const role = cellRole(first.text)
    label = role === 'text' || (row.cells.length === 1 && role !== 'figure' && role !== 'nil') ? first.text : null
    rowLabels.set(row, label)
  }
  return label
}

/** Each row's label, worked out once: a table asks for it in every step. */
const rowLabels = new WeakMap<Row, string | null>()

function valuesOf(row: Row): PlacedCell[] {
  return labelOf(row) === null ? [...row.cells] : row.cells.slice(1)
}

/**
 * A label wrapped over two lines is one row: a line of one cell without figures, not a section
 * row (those end with a colon), followed by a row whose label starts in lower case or is indented
 * under it and set closer than the rows are.
 */
function joinWrappedLabels(rows: readonly Row[]): Row[] {
  const pitch = rowPitch(rows)
  const out: Row[] = []
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i] as Row
    const next = rows[i + 1]
    const label = row.cells[0] as PlacedCell
    const nextLabel = next?.cells[0]
    if (
      next &&
      nextLabel &&
      row.cells.length === 1 &&
      labelOf(row) !== null &&
      !/[:：]$/u.test(label.text) &&
      labelOf(next) !== null &&
      next.cells.length >= 2 &&
      (/^\p{Ll}/u.test(nextLabel.text) ||
        (nextLabel.left > label.left + row.size * 0.3 && row.y - next.y < pitch * 0.85) ||
        /[,\-–(]$|\b(?:and|or|of|for|to|the|in|on|from|by|with|at|before|after)$/iu.test(label.text))
    ) {
      const joined = {
        text: joinLines([label.text, nextLabel.text]),
        left: Math.min(label.left, nextLabel.left),
        right: nextLabel.right,
      }
      out.push({ ...next, cells: [joined, ...next.cells.slice(1)] })
      i++
      continue
    }
    out.push(row)
  }
  return out
}

/** The usual distance between consecutive rows (the median), or a line's height without rows. */
function rowPitch(rows: readonly Row[]): number {
  const gaps: number[] = []
  for (let i = 1; i < rows.length; i++) gaps.push((rows[i - 1] as Row).y - (rows[i] as Row).y)
  gaps.sort((a, b) => a - b)
  return gaps[Math.floor(gaps.length / 2)] ?? (rows[0]?.size ?? 1) * 1.4
}

/** Without aligned columns, the header is the lowest band's cells as they are, the bands above before its first. */
function plainHeader(bands: readonly HeaderBand[]): string[] | null {
  const texts = bands.map((band) => [...band.labels, ...band.figures].map((cell) => cell.text))
  const lowest = texts.pop()
  if (!lowest) return null
  const above = texts.flat().join(' ')
  return above ? [`${above} ${lowest[0] ?? ''}`.trim(), ...lowest.slice(1)] : lowest
}

function titleSearch(
  lines: readonly PdfLine[],
  taken: Uint8Array,
  used: readonly number[],
  top: number,
  size: number,
  extent: Extent,
): TitleSearch {
  const inTable = new Set(used)
  const turns = (lines[used[0] as number] as PdfLine).turns
  return { lines, taken: (index) => taken[index] === 1 || inTable.has(index), top, size, ...extent, turns }
}

function tableExtent(rows: readonly Row[], bands: readonly HeaderBand[]): Extent {
  const cells = [...rows.flatMap((row) => row.cells), ...bands.flatMap((band) => [...band.labels, ...band.figures])]
  return { left: Math.min(...cells.map((c) => c.left)), right: Math.max(...cells.map((c) => c.right)) }
}

/** Whether the page's first table goes on from the previous page's last one. */
function continues(
  first: { table: PageTable; carry: TableCarry | null },
  carried: TableCarry,
  lines: readonly PdfLine[],
  taken: Uint8Array,
): boolean {
  const { block } = first.table
  if (block.header || block.title || !first.carry) return false
  const before = lines.filter((_, index) => index < first.table.at && !taken[index])
  if (before.length > MAX_LINES_BEFORE_CONTINUATION) return false
  if (before.reduce((sum, line) => sum + line.cells.join(' ').length, 0) > MAX_CHARS_BEFORE_CONTINUATION) return false
  const { columns } = first.carry
  if (columns.length !== carried.columns.length) return false
  const tolerance = Math.max(carried.size, first.carry.size) * 1.5
  return columns.every((column, i) => {
    const other = carried.columns[i] as Column
    return Math.abs(column.right - other.right) <= tolerance || Math.abs(column.left - other.left) <= tolerance
  })
}

/** Whether nothing but notes and a page number follows line `last` on its page. */
function endsPage(last: number, lines: readonly PdfLine[], taken: Uint8Array): boolean {
  const after = lines.filter((_, index) => index > last && !taken[index])
  if (after.length > MAX_LINES_AFTER_END) return false
  return after.reduce((sum, line) => sum + line.cells.join(' ').length, 0) <= MAX_CHARS_AFTER_END
}
