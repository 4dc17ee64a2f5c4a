import type { PdfLine } from './pdf-lines.js'
import { isAmount, type PlacedCell, splitFigureRuns } from './pdf-table-cells.js'
import type { Column, HeaderBand } from './pdf-table-columns.js'
import { type Extent, placedCells, type Row } from './pdf-table-rows.js'
import { isUnitPhrase } from './table-units.js'

/**
 * The header of a PDF table: the lines between its title and its first data row, grouped by
 * baseline into bands whose cells stand over the figure columns or under the labels, with the
 * unit line and the section rows found among them.
 */

/** The header's lowest line is at most this many font sizes above the first row. */
const MAX_HEADER_GAP = 3
/** Header lines are at most this many row distances apart (and MAX_HEADER_GAP font sizes). */
const MAX_HEADER_LINE_GAP = 1.5
/** Header lines looked at above a table, and rows at its top that may be header lines. */
export const MAX_HEADER_BANDS = 6
const MAX_HEADER_CELL_CHARS = 60

/** Lines on one baseline above a table's first data row. */
interface Band {
  readonly y: number
  readonly cells: PlacedCell[]
  readonly lines: number[]
}

/** What the lines above the first data row turned out to be. */
export interface Head {
  /** Header bands, top first. */
  readonly bands: readonly HeaderBand[]
  /** The lines they took. */
  readonly lines: readonly number[]
  /** The highest of them, or the first row when there are none. */
  readonly top: number
  /** Lines of one label between the header and the first data row ("Revenues:"). */
  readonly sections: readonly Row[]
  readonly unit?: string
}

/**
 * The header lines above the first data row, nearest first: bands of lines on one baseline whose
 * cells are short and either stand over the figure columns or start where the labels start (a
 * unit, "Years ended December 31,"), each at most MAX_HEADER_GAP font sizes above the one below.
 * A band of one label cell is a section row when a header band stands above it, and ends the
 * header otherwise; a band that is only a unit phrase gives the unit.
 */
export function headerAbove(
  lines: readonly PdfLine[],
  taken: Uint8Array,
  body: readonly number[],
  headerRows: readonly Row[],
  top: Row,
  size: number,
  pitch: number,
  columns: readonly Column[] | null,
  labels: Extent,
): Head {
  const bands = bandsAbove(lines, taken, body, headerRows, top, size)
  const firstLeft = columns?.[0]?.left ?? labels.right
  const lastRight = columns?.at(-1)?.right ?? Number.POSITIVE_INFINITY
  const margin = columns ? columnMargin(columns, size) : size
  const underLabels = (cell: PlacedCell) => cell.left <= labels.left + size * 2 && cell.right <= firstLeft + size * 0.5
  // A line alone in the label column, maybe centred in it ("ASSETS"): a section row or the end of the header.
  const inLabelColumn = (cell: PlacedCell) =>
    cell.text.length <= MAX_HEADER_CELL_CHARS &&
    !isAmount(cell.text) &&
    cell.left >= labels.left - size * 2 &&
    cell.right <= firstLeft + size * 0.5
  const overFigures = (cell: PlacedCell) => {
    const centre = (cell.left + cell.right) / 2
    return cell.left > labels.right - size * 0.5 && centre >= firstLeft - margin && centre <= lastRight + margin
  }
  const accepted: { band: Band; kind: 'header' | 'label' | 'unit' }[] = []
  let held: Band[] = []
  let below = top.y
  for (const band of bands) {
    // From the rows (a held section row is one) to the header; then between header lines.
    const fromRows = below === top.y || held.at(-1)?.y === below
    const limit = fromRows ? size * MAX_HEADER_GAP : Math.min(size * MAX_HEADER_GAP, pitch * MAX_HEADER_LINE_GAP)
    if (accepted.length + held.length >= MAX_HEADER_BANDS || band.y - below > limit) break
    const only = band.cells.length === 1 ? (band.cells[0] as PlacedCell) : null
    if (only && isUnitPhrase(only.text)) {
      accepted.push(...held.map((b) => ({ band: b, kind: 'label' as const })), { band, kind: 'unit' })
      held = []
    } else if (only && inLabelColumn(only)) {
      held.push(band)
    } else {
      const fits = band.cells.every(
        (cell) =>
          cell.text.length <= MAX_HEADER_CELL_CHARS && !isAmount(cell.text) && (underLabels(cell) || overFigures(cell)),
      )
      if (!fits) break
      if (!band.cells.some(overFigures)) break
      accepted.push(...held.map((b) => ({ band: b, kind: 'label' as const })), { band, kind: 'header' })
      held = []
    }
    below = band.y
  }
  // Label lines under the lowest header band are the table's first (section) rows.
  const lowest = accepted.findIndex((entry) => entry.kind === 'header')
  const sections: Row[] = []
  const kept: { band: Band; kind: 'header' | 'label' | 'unit' }[] = []
  accepted.forEach((entry, i) => {
    if (entry.kind === 'label' && (lowest < 0 || i < lowest)) {
      const index = entry.band.lines[0] as number
      const line = lines[index] as PdfLine
      sections.unshift({ cells: placedCells(line), y: line.y, size: line.size, line: index })
    } else if (lowest >= 0 || entry.kind === 'unit') {
      kept.push(entry)
    }
  })
  let unit: string | undefined
  const headerBands: HeaderBand[] = []
  for (const { band, kind } of kept) {
    if (kind === 'unit') {
      const text = (band.cells[0] as PlacedCell).text
      unit = unit === undefined ? text : `${unit} ${text}`
      continue
    }
    const labelCells = band.cells.filter((cell) => !overFigures(cell))
    const unitCell = unit === undefined ? labelCells.find((cell) => isUnitPhrase(cell.text)) : undefined
    if (unitCell) unit = unitCell.text
    headerBands.unshift({
      labels: labelCells.filter((cell) => cell !== unitCell),
      figures: band.cells.filter(overFigures),
    })
  }
  const taking = [...kept.flatMap((entry) => entry.band.lines), ...sections.map((row) => row.line)]
  const highest = kept.at(-1)?.band.y ?? top.y
  return { bands: headerBands, lines: taking, top: highest, sections, ...(unit ? { unit } : {}) }
}

/** Lines above `top` grouped by baseline, nearest first, with the body's header-like rows among them. */
function bandsAbove(
  lines: readonly PdfLine[],
  taken: Uint8Array,
  body: readonly number[],
  headerRows: readonly Row[],
  top: Row,
  size: number,
): Band[] {
  const inBody = new Set(body)
  const candidates = headerRows.map((row) => ({ y: row.y, cells: splitFigureRuns(row.cells), line: row.line }))
  const turns = (lines[top.line] as PdfLine).turns
  const reach = size * MAX_HEADER_GAP * MAX_HEADER_BANDS
  for (const [i, line] of lines.entries()) {
    if (taken[i] || inBody.has(i) || line.turns !== turns) continue
    if (line.y <= top.y + size * 0.5 || line.y - top.y > reach) continue
    // Footnote marks set small and raised beside header words ("Other (1)") are not header lines.
    if (line.size < size * 0.8 && line.cells.every((cell) => cell.length <= 4)) continue
    candidates.push({ y: line.y, cells: splitFigureRuns(placedCells(line)), line: i })
  }
  candidates.sort((a, b) => a.y - b.y)
  const bands: Band[] = []
  for (const candidate of candidates) {
    const band = bands.at(-1)
    if (band && candidate.y - band.y <= size * 0.4) {
      band.cells.push(...candidate.cells)
      band.lines.push(candidate.line)
    } else {
      bands.push({ y: candidate.y, cells: [...candidate.cells], lines: [candidate.line] })
    }
  }
  for (const band of bands) band.cells.sort((a, b) => a.left - b.left)
  return bands
}

/** How far beside the outer columns a header may stand: half the gap between columns. */
function columnMargin(columns: readonly Column[], size: number): number {
  let gap = 0
  for (let i = 1; i < columns.length; i++)
    gap = Math.max(gap, (columns[i] as Column).left - (columns[i - 1] as Column).right)
  return Math.max(size, gap / 2)
}
