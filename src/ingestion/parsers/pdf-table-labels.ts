import { cellRole, joinCurrency, type PlacedCell, splitTrailingFigures, withoutLeaders } from './pdf-table-cells.js'
import type { Row } from './pdf-table-rows.js'
import { joinLines } from './text-blocks.js'

/**
 * The label cells of a table's rows: a footnote mark joined to its label, a label run on into the
 * figures cut back, leader dots dropped, a label wrapped over two lines joined.
 */

/** A footnote mark set right after a label (`Depreciation` `(1)`), which a text layer may make a cell. */
export const NOTE_MARK = /^(?:\((?:\d{1,2}|[a-z])\)|\*{1,3}|[¹²³⁴⁵⁶⁷⁸⁹⁰]+)$/u

export function withLabelNote(cells: PlacedCell[], size: number): PlacedCell[] {
  const [label, note] = cells
  if (!label || !note || cellRole(label.text) !== 'text' || !NOTE_MARK.test(note.text)) return cells
  if (note.left - label.right > size * 1.5) return cells
  return [{ ...label, text: `${label.text} ${note.text}`, right: note.right }, ...cells.slice(2)]
}

/** A row whose label cell runs on into the figure columns, with those figures made cells again. */
export function reachingLabel(row: Row, firstLeft: number): Row {
  const label = row.cells[0] as PlacedCell
  if (labelOf(row) === null || label.right <= firstLeft) return row
  const split = splitTrailingFigures(label, firstLeft)
  return split.length === 1 ? row : { ...row, cells: joinCurrency([...split, ...row.cells.slice(1)]) }
}

export function withoutLeaderDots(row: Row): Row {
  const label = row.cells[0] as PlacedCell
  if (labelOf(row) === null || !label.text.includes('....')) return row
  return { ...row, cells: [{ ...label, text: withoutLeaders(label.text) }, ...row.cells.slice(1)] }
}

/** A row's label: its first cell when that is words, not a figure. */
export function labelOf(row: Row): string | null {
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

export function valuesOf(row: Row): PlacedCell[] {
  return labelOf(row) === null ? [...row.cells] : row.cells.slice(1)
}

/**
 * A label wrapped over two lines is one row: a line of one cell without figures, not a section
 * row (those end with a colon), followed by a row whose label starts in lower case or is indented
 * under it and set closer than the rows are.
 */
export function joinWrappedLabels(rows: readonly Row[]): Row[] {
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
export function rowPitch(rows: readonly Row[]): number {
  const gaps: number[] = []
  for (let i = 1; i < rows.length; i++) gaps.push((rows[i - 1] as Row).y - (rows[i] as Row).y)
  gaps.sort((a, b) => a - b)
  return gaps[Math.floor(gaps.length / 2)] ?? (rows[0]?.size ?? 1) * 1.4
}
