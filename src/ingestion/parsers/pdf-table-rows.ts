import type { PdfLine } from './pdf-lines.js'
import type { PlacedCell } from './pdf-table-cells.js'

/** The lines and rows a PDF table is built from. */

/** A page line as tables read it: `guessed` when its cells were split out of one merged cell. */
export interface TableLine extends PdfLine {
  readonly guessed?: boolean
}

/** A row of a table: its cells placed on the line, and the line it came from. */
export interface Row {
  readonly cells: readonly PlacedCell[]
  readonly y: number
  readonly size: number
  /** Index of its line in the page's lines. */
  readonly line: number
}

/** A horizontal extent on the page. */
export interface Extent {
  readonly left: number
  readonly right: number
}

/** A line's cells with their places. */
export function placedCells(line: TableLine): PlacedCell[] {
  return line.cells.map((text, i) => ({
    text,
    left: line.spans[i]?.left ?? 0,
    right: line.spans[i]?.right ?? 0,
    ...(line.guessed ? { guessed: true } : {}),
  }))
}
