import type { PdfLine } from './pdf-lines.js'
import { cellRole, isAmount, type PlacedCell, splitTrailingFigures } from './pdf-table-cells.js'
import { NOTE_MARK } from './pdf-table-labels.js'
import type { TableLine } from './pdf-table-rows.js'

/** Rows of a table farther apart than this many font sizes belong to different tables. */
const MAX_ROW_GAP = 4
/** Lines without figures between two rows (a wrapped label, section rows): at most this many. */
const MAX_BRIDGED = 2

/**
 * A line of one cell that a text layer merged from a label and its figures (the columns set
 * closer than a cell gap, `Goodwill ....... $4,771,981 $ 12,510 $ (62,529)`) as the cells it was
 * drawn as: the label, then each figure or symbol, placed by its share of the characters. It
 * needs two figures at least, so prose ending in a number stays prose.
 */
export function splitMergedRow(line: PdfLine): TableLine {
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
export function bodyFrom(lines: readonly PdfLine[], start: number, taken: Uint8Array): number[] | null {
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
export function isFigureTable(body: readonly number[], lines: readonly PdfLine[]): boolean {
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
