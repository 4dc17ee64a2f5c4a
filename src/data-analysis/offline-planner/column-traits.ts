import type { ColumnSchema, ResultType, TableSchema } from '../types.js'
import { type ColumnMention, isNumeric } from './columns.js'
import { ENTITY_HEADER, ID_HEADER } from './lexicon/headers.js'
import { fold, splitHeader } from './tokenise.js'

/** What a column is, as far as the planner's choices go: identifier, entity name, yes/no flag, share. */

export function isIdLike(column: ColumnSchema): boolean {
  return ID_HEADER.test(fold(splitHeader(column.name)))
}

/** A numeric column for a mention: its own, else a numeric column the same words also name. */
export function numericOf(mention: ColumnMention): ColumnSchema | null {
  if (isNumeric(mention.column) && !isIdLike(mention.column)) return mention.column
  return mention.alternatives?.find((c) => isNumeric(c) && !isIdLike(c)) ?? null
}

/** The text column a "who"/"which one" question is about: a name-like header, else the most varied text column. */
export function entityColumn(table: TableSchema): ColumnSchema | null {
  const text = table.columns.filter((column) => column.type === 'text')
  const named = text.find((column) => ENTITY_HEADER.test(fold(splitHeader(column.name))))
  if (named) return named
  return [...text].sort((a, b) => b.distinctCount - a.distinctCount)[0] ?? null
}

/**
 * A column of a few values that many rows share (a team, a weight class, a month): grouping by it
 * is what a question ranking it means. Many repeated values (player names over seasons) are
 * rather one entity recorded on several rows.
 */
export function isCategory(column: ColumnSchema, table: TableSchema): boolean {
  return column.distinctCount <= Math.max(12, table.rowCount / 20)
}

/** A 0/1 or true/false column: a yes/no flag named as a condition ("applicants with research experience"). */
export function isFlag(column: ColumnSchema): boolean {
  if (column.type === 'boolean') return true
  return isNumeric(column) && column.distinctCount === 2 && column.min === 0 && column.max === 1
}

/** "above 50%" on a column of shares between 0 and 1 means above 0.5. */
export function percentAdjusted(
  column: ColumnSchema,
  number: { readonly value: number; readonly percent: boolean },
): number {
  const max = typeof column.max === 'number' ? column.max : null
  if (max !== null && max <= 1 && (number.percent || number.value > 1) && number.value <= 100) return number.value / 100
  return number.value
}

export function resultOf(column: ColumnSchema, list: boolean): ResultType {
  if (isNumeric(column)) return list ? 'list[number]' : 'number'
  if (column.type === 'boolean' && !list) return 'boolean'
  return list ? 'list[category]' : 'category'
}
