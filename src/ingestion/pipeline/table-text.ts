import type { TableBlock } from '../model.js'

/**
 * A table's rows as text (cells joined by `cellSeparator`, rows by line breaks), optionally under
 * its header, read only until `limit` characters: samples of a million-row table must not build
 * the whole table as one string. Whole rows only; the row that crosses the limit is the last.
 */
export function tableText(
  table: TableBlock,
  options: { readonly cellSeparator: string; readonly withHeader: boolean; readonly limit: number },
): string {
  const lines: string[] = []
  let used = 0
  if (options.withHeader) {
    const header = table.header?.join(options.cellSeparator) ?? ''
    lines.push(header)
    used += header.length + 1
  }
  for (const row of table.rows) {
    if (used >= options.limit) break
    const line = row.cells.join(options.cellSeparator)
    lines.push(line)
    used += line.length + 1
  }
  return lines.join('\n')
}
