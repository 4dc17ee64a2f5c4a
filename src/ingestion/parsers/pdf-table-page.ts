import type { TableBlock } from '../model.js'
import type { Column } from './pdf-table-columns.js'

/** A table found on a page: its block, and the page lines it took. */
export interface PageTable {
  readonly block: TableBlock
  /** Indexes (in the page's lines) of its rows, header lines and title lines: no longer prose. */
  readonly lines: readonly number[]
  /** Its place in reading order: before the line with this index. */
  readonly at: number
}

/** What the next page needs to know of the table that ends this one, to continue it. */
export interface TableCarry {
  readonly columns: readonly Column[]
  readonly size: number
  readonly header: readonly string[] | null
  readonly title?: string
  readonly unit?: string
}

/** A table built from the lines of a page, and what the next page needs to continue it (null for a table without columns). */
export interface BuiltTable {
  table: PageTable
  carry: TableCarry | null
}
