import type { TableBlock, TableRow } from '../model.js'
import type { FontProfile, Furniture, PdfLine } from './pdf-lines.js'
import { isAmount, joinCurrency, type PlacedCell } from './pdf-table-cells.js'
import { columnsOf, composeHeader, type HeaderBand, placeRow } from './pdf-table-columns.js'
import { headerAbove, MAX_HEADER_BANDS } from './pdf-table-header.js'
import {
  joinWrappedLabels,
  labelOf,
  reachingLabel,
  rowPitch,
  valuesOf,
  withLabelNote,
  withoutLeaderDots,
} from './pdf-table-labels.js'
import type { BuiltTable } from './pdf-table-page.js'
import { type Extent, placedCells, type Row } from './pdf-table-rows.js'
import { type TitleSearch, titleAbove } from './pdf-table-title.js'
import { detectHeader, kindOfText } from './table-builder.js'
import { isUnitPhrase } from './table-units.js'

/** The table around a body: its rows, its header bands above, its title and unit. */
export function buildTable(
  lines: readonly PdfLine[],
  body: readonly number[],
  taken: Uint8Array,
  fonts: FontProfile,
  furniture: Furniture,
): BuiltTable {
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
): BuiltTable {
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
