import type { ColumnSchema, TableSchema } from '../types.js'
import { quoteIdentifier } from '../types.js'
import { columnNamed } from './named-column.js'

/**
 * A text column the question says to convert to numbers ("convert the SCOREMARGIN data into
 * integer or float", "Convert 'Volume' to numeric values"): the table is read with that column
 * cast, a cell that is no number becoming empty, as pandas' `to_numeric(errors="coerce")` does.
 * English only; the column must be named exactly (quotes, "the", "column", "data" aside). A
 * column already numeric is left as it is.
 */

const CONVERT =
  /\bconvert(?:s|ed|ing)?\s+(?:the\s+)?(.{1,60}?)\s+(?:(?:data|column|values?|entries)\s+)*(?:in)?to\s+(?:numeric|numerical|integers?|floats?|floating[-\s]point|numbers?|double)\b/giu

export function convertedColumns(question: string, tables: readonly TableSchema[]): TableSchema[] | null {
  let changed = false
  const converted = tables.map((table) => {
    const columns: ColumnSchema[] = []
    for (const match of question.matchAll(CONVERT)) {
      const column = columnNamed(match[1] ?? '', table.columns)
      if (column && column.type === 'text' && !columns.includes(column)) columns.push(column)
    }
    if (columns.length === 0) return table
    changed = true
    const casts = columns.map((column) => {
      const c = quoteIdentifier(column.name)
      return `TRY_CAST(trim(${c}) AS DOUBLE) AS ${c}`
    })
    return {
      ...table,
      sqlName: `(SELECT * REPLACE (${casts.join(', ')}) FROM ${table.sqlName})`,
      columns: table.columns.map((column) =>
        columns.includes(column) ? { ...column, type: 'number' as const, topValues: [], min: null, max: null } : column,
      ),
    }
  })
  return changed ? converted : null
}
