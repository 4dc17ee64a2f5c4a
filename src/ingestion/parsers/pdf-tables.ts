import type { TableBlock } from '../model.js'
import type { FontProfile, Furniture, PdfLine } from './pdf-lines.js'
import { bodyFrom, isFigureTable, splitMergedRow } from './pdf-table-body.js'
import { buildTable } from './pdf-table-build.js'
import { continues, endsPage } from './pdf-table-continuation.js'
import type { BuiltTable, PageTable, TableCarry } from './pdf-table-page.js'

/**
 * Tables of a PDF page as whole regions: the rows (a label wrapped over two lines joined, section
 * rows such as "Costs and expenses:" kept), the column headers above the first data row composed
 * per column from spanning and stacked header lines, and the title and unit lines above them.
 * Everything is decided from the lines' positions and the cells' text; precision comes first, so
 * a run of lines is a table only when at least two consecutive lines have several cells, as before.
 */

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
  const found: (BuiltTable & { last: number })[] = []
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
