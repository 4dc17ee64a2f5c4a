import type { TableBlock } from '../model.js'
import { type Located, pageRange, range } from './located.js'
import { chunkTable } from './tables.js'

/**
 * A table's chunks one by one, each with the rows it holds (`row_idx`) and, for a spreadsheet,
 * `<sheet>!<rows>` as its page: a million-row table is never held as chunks all at once.
 */
export function* tableChunks(block: TableBlock, prefix: string, budget: number): Generator<Located> {
  for (const chunk of chunkTable(block, prefix, budget)) {
    const rowIdx = range(chunk.firstRow, chunk.lastRow)
    yield {
      category: 'table',
      text: chunk.text,
      tokens: chunk.tokens,
      pageNumber: block.sheet !== undefined ? `${block.sheet}!${rowIdx}` : pageRange(block.page, block.page),
      rowIdx,
      row: chunk.firstRow,
    }
  }
}
