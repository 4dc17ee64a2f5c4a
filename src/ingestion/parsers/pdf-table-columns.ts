import type { PlacedCell } from './pdf-table-cells.js'
import { joinLines } from './text-blocks.js'

/**
 * The figure columns of a PDF table, found from the positions of its cells, and what sits in
 * each: the figures of every row (a row that leaves a column blank gets an empty cell there, so
 * every figure stays under its own header) and the header lines above, composed per column.
 */

/** A figure column: the horizontal extent of its figures. */
export interface Column {
  readonly left: number
  readonly right: number
}

/** One line (or several on one baseline) of a table's header, with the cells under the labels apart. */
export interface HeaderBand {
  /** Cells under the labels (the header of the label column). */
  readonly labels: readonly PlacedCell[]
  /** Cells over the figure columns. */
  readonly figures: readonly PlacedCell[]
}

/**
 * The columns of the data rows' figures (each row's cells after its label): as many as the widest
 * rows have (rows with fewer figures leave columns blank), found again in two rows at least when
 * there are several, each column spanning the figures of those rows in that place. Narrower
 * widths are tried when those spans overlap; null when no width lines up, in which case cells
 * are kept as the rows give them.
 */
export function columnsOf(rows: readonly (readonly PlacedCell[])[]): Column[] | null {
  const counts = new Map<number, number>()
  for (const row of rows) if (row.length > 0) counts.set(row.length, (counts.get(row.length) ?? 0) + 1)
  const enough = rows.length > 1 ? 2 : 1
  const widths = [...counts].filter(([, times]) => times >= enough).map(([width]) => width)
  for (const width of widths.sort((a, b) => b - a)) {
    const columns = columnsOfWidth(rows, width)
    if (columns) return columns
  }
  return null
}

function columnsOfWidth(rows: readonly (readonly PlacedCell[])[], width: number): Column[] | null {
  // Rows whose places were all read, not guessed from a merged cell, say best where columns are.
  const complete = rows.filter((row) => row.length === width)
  const exact = complete.filter((row) => row.every((cell) => !cell.guessed))
  const full = exact.length > 0 ? exact : complete
  const columns = Array.from({ length: width }, (_, k) => ({
    left: Math.min(...full.map((row) => (row[k] as PlacedCell).left)),
    right: Math.max(...full.map((row) => (row[k] as PlacedCell).right)),
  }))
  return ordered(columns) ? columns : null
}

function ordered(columns: readonly Column[]): boolean {
  for (let k = 1; k < columns.length; k++) {
    const [a, b] = [columns[k - 1] as Column, columns[k] as Column]
    if (a.right > b.left + 1) return false
  }
  return true
}

/**
 * A row's cells under the table's columns: its label first (an empty cell when the table has
 * labels and this row has none), then one cell per column: in order for a row with a figure for
 * every column, else by position (figures joined where two fall in one column, empty cells where
 * a column has none). A row of a label alone (a section row) stays one cell.
 */
export function placeRow(
  label: string | null,
  values: readonly PlacedCell[],
  columns: readonly Column[],
  labelled: boolean,
): string[] {
  if (values.length === 0) return label === null ? [] : [label]
  // A full row is in column order whatever its positions say (they are guesses in a merged line).
  if (values.length === columns.length) {
    const texts = values.map((value) => value.text)
    return labelled ? [label ?? '', ...texts] : texts
  }
  const cells = columns.map(() => '')
  for (const value of values) {
    const k = nearestColumn(value, columns)
    cells[k] = cells[k] ? `${cells[k]} ${value.text}` : value.text
  }
  return labelled ? [label ?? '', ...cells] : cells
}

/** The column a cell overlaps most, or the nearest one. */
function nearestColumn(cell: PlacedCell, columns: readonly Column[]): number {
  let best = 0
  let bestScore = Number.NEGATIVE_INFINITY
  columns.forEach((column, k) => {
    const overlap = Math.min(cell.right, column.right) - Math.max(cell.left, column.left)
    if (overlap > bestScore) [best, bestScore] = [k, overlap]
  })
  return best
}

/** Distance between two extents; 0 when they overlap. */
function distance(a: Column, b: Column): number {
  return Math.max(0, a.left - b.right, b.left - a.right)
}

/**
 * The header row: the label column's header (its cells from every band, top to bottom), then for
 * each column the cells standing over it from every band, top to bottom ("Three Months Ended" +
 * "July 2," + "2023"). Bands are read from the one nearest the figures upwards: in each, a column
 * takes its nearest cell when that cell is over it, or beside it and most of the way across the
 * gap to the next column: a header spanning several columns is centred over them and often
 * narrower than they are, while a header over its own column is not also the next one's. A cell that went to one column widens that column for the
 * bands above. A band of one cell centred over the whole table heads every column. `bands` come
 * top first; null when none gives any text.
 */
export function composeHeader(
  bands: readonly HeaderBand[],
  columns: readonly Column[],
  labelled: boolean,
): string[] | null {
  const usualGap = columnGap(columns)
  const extents = columns.map((column) => ({ left: column.left, right: column.right }))
  const labelParts: string[][] = []
  const parts: string[][] = columns.map(() => [])
  for (const band of [...bands].reverse()) {
    labelParts.push(band.labels.map((cell) => cell.text).filter(Boolean))
    const taken = new Map<PlacedCell, number[]>()
    const spanning = spansAll(band.figures, extents)
    if (spanning)
      taken.set(
        spanning,
        extents.map((_, k) => k),
      )
    else
      extents.forEach((extent, k) => {
        const cell = headerCellOf(extent, band.figures)
        if (!cell) return
        const away = distance(cell, extent)
        if (away > 0) {
          const neighbour = extents[cell.right <= extent.left ? k - 1 : k + 1]
          const gap = neighbour ? distance(neighbour, extent) : usualGap
          if (away > gap * 0.75) return
        }
        taken.set(cell, [...(taken.get(cell) ?? []), k])
      })
    // A cell no column took (two cells nearest to one column) still goes to the column nearest it.
    for (const cell of band.figures) {
      if (!taken.has(cell)) taken.set(cell, [nearestColumn(cell, extents)])
    }
    for (const [cell, ks] of taken) {
      for (const k of ks) (parts[k] as string[]).unshift(cell.text)
      const only = ks.length === 1 ? extents[ks[0] as number] : undefined
      if (only) {
        only.left = Math.min(only.left, cell.left)
        only.right = Math.max(only.right, cell.right)
      }
    }
  }
  // Stacked header lines read like wrapped text: "Non-" over "controlling" is "Noncontrolling".
  const header = parts.map((texts) => joinLines(texts))
  const labelHeader = labelParts.reverse().flat()
  if (labelHeader.length === 0 && header.every((text) => text === '')) return null
  if (labelled) return [joinLines(labelHeader), ...header]
  // A table without labels has no column for them: their header words go before the first column's.
  header[0] = [...labelHeader, header[0]].filter(Boolean).join(' ')
  return header
}

/**
 * The one cell of a band when it heads the whole table: over two columns at least and centred
 * over all of them ("Year Ended December 31, 2018" above every column).
 */
function spansAll(cells: readonly PlacedCell[], extents: readonly Column[]): PlacedCell | null {
  const [cell] = cells
  if (!cell || cells.length !== 1 || extents.length < 2) return null
  const over = extents.filter((extent) => distance(cell, extent) === 0).length
  const [left, right] = [(extents[0] as Column).left, (extents.at(-1) as Column).right]
  const centred = Math.abs((cell.left + cell.right) / 2 - (left + right) / 2) <= (right - left) * 0.1
  return over >= 2 && centred ? cell : null
}

/** The cell of a band nearest to a column (the most overlapping one when several overlap it). */
function headerCellOf(column: Column, cells: readonly PlacedCell[]): PlacedCell | null {
  let best: PlacedCell | null = null
  let bestScore = Number.NEGATIVE_INFINITY
  for (const cell of cells) {
    const overlap = Math.min(cell.right, column.right) - Math.max(cell.left, column.left)
    if (overlap > bestScore) [best, bestScore] = [cell, overlap]
  }
  return best
}

/** The usual gap between neighbouring columns; a wide one for a single column. */
function columnGap(columns: readonly Column[]): number {
  if (columns.length < 2) {
    const only = columns[0]
    return only ? (only.right - only.left) * 2 : 0
  }
  const gaps = columns.slice(1).map((column, k) => distance(column, columns[k] as Column))
  gaps.sort((a, b) => a - b)
  return gaps[Math.floor(gaps.length / 2)] as number
}
