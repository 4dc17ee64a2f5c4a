/** The lines of a PDF page, as the layout, table and title readers share them. */

/** The part of a pdf.js text item the layout needs. */
export interface PdfTextItem {
  readonly str: string
  readonly transform: readonly number[]
  readonly width: number
  readonly height: number
  readonly dir?: string
}

/** Horizontal extent of a cell, in the coordinates of its line's text direction. */
export interface CellSpan {
  readonly left: number
  readonly right: number
}

/** One visual line of a page, in the coordinates of its own text direction. */
export interface PdfLine {
  /** Baseline across the text direction; larger is higher on the page. */
  readonly y: number
  readonly x: number
  readonly size: number
  /** Quarter turns of the text direction (0 for normal horizontal text). */
  readonly turns: number
  /** Runs separated by wide gaps: table cells when several consecutive lines have them. */
  readonly cells: readonly string[]
  /** Where each cell sits on the line (one per cell): tables align cells and headers by it. */
  readonly spans: readonly CellSpan[]
}

/** Font statistics of the whole document: body size and heading levels by size. */
export interface FontProfile {
  readonly bodySize: number
  headingLevel(size: number): number | null
}

/** Lines that repeat at the same place on many pages (running heads): never a table's title. */
export type Furniture = (line: PdfLine) => boolean
