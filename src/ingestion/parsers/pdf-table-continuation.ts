import type { PdfLine } from './pdf-lines.js'
import type { Column } from './pdf-table-columns.js'
import type { BuiltTable, TableCarry } from './pdf-table-page.js'

/** A continued table at the top of a page may follow at most this much text (a running head). */
const MAX_LINES_BEFORE_CONTINUATION = 3
const MAX_CHARS_BEFORE_CONTINUATION = 120
/** What may follow the table that ends a page for the next page to continue it: notes, the page number. */
const MAX_LINES_AFTER_END = 5
const MAX_CHARS_AFTER_END = 500

/** Whether the page's first table goes on from the previous page's last one. */
export function continues(
  first: BuiltTable,
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
export function endsPage(last: number, lines: readonly PdfLine[], taken: Uint8Array): boolean {
  const after = lines.filter((_, index) => index > last && !taken[index])
  if (after.length > MAX_LINES_AFTER_END) return false
  return after.reduce((sum, line) => sum + line.cells.join(' ').length, 0) <= MAX_CHARS_AFTER_END
}
