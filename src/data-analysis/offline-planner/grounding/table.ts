import type { TableSchema } from '../../types.js'
import { type Declined, declined } from '../recognition.js'
import { joinedTableSql } from '../sql.js'
import { fold } from '../tokenise.js'
import type { Mentions } from './mentions.js'

export type TableChoice =
  | { readonly kind: 'table'; readonly table: TableSchema }
  /** Two tables named: ground the question again on their join. */
  | { readonly kind: 'joined'; readonly table: TableSchema }
  | Declined

/**
 * Two tables joined on the column they share (same header, case-insensitive), many-to-one: the
 * table whose copy of that column is unique is looked up from the other. The result reads as one
 * table (a subquery) whose rows, and row numbers, are those of the many side.
 */
export function joinTables(a: TableSchema, b: TableSchema): TableSchema | null {
  for (const [many, one] of [
    [a, b],
    [b, a],
  ] as const) {
    for (const key of many.columns) {
      const other = one.columns.find((column) => fold(column.name) === fold(key.name))
      if (!other || other.distinctCount < one.rowCount - other.nullCount || one.rowCount === 0) continue
      const taken = new Set(many.columns.map((column) => fold(column.name)))
      const extra = one.columns.filter((column) => !taken.has(fold(column.name)))
      return {
        sqlName: joinedTableSql(many, one, key, other, extra),
        documentId: many.documentId,
        filename: `${many.filename} + ${one.filename} (${key.name})`,
        sheet: null,
        rowCount: many.rowCount,
        columns: [...many.columns, ...extra],
      }
    }
  }
  return null
}

/** The table the question names most; two named tables are joined when one looks the other up. */
export function chooseTable(mentions: Mentions, tables: readonly TableSchema[]): TableChoice {
  const votes = new Map<TableSchema, number>()
  for (const mention of [...mentions.columns, ...mentions.values])
    votes.set(mention.table, (votes.get(mention.table) ?? 0) + 1)
  const table = [...tables].sort((a, b) => (votes.get(b) ?? 0) - (votes.get(a) ?? 0))[0]
  if (!table) return declined('no table is loaded')
  const named = [...votes.keys()]
  if (tables.length > 1 && named.length > 1) {
    const joined = named.length === 2 ? joinTables(named[0] as TableSchema, named[1] as TableSchema) : null
    if (!joined) {
      return declined('the question names columns of several tables that share no column to join them on (one-to-many)')
    }
    return { kind: 'joined', table: joined }
  }
  return { kind: 'table', table }
}
