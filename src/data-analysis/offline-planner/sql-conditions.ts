import { type ColumnSchema, quoteIdentifier } from '../types.js'
import type { Filter } from './intent.js'

/**
 * The conditions of an intent as SQL: columns through quoteIdentifier, every value from the
 * question as an escaped literal (numbers checked finite).
 */

export function sqlString(value: string): string {
  return `'${value.replaceAll('\u0000', '').replaceAll("'", "''")}'`
}

export function sqlNumber(value: number): string {
  if (!Number.isFinite(value)) throw new Error('not a finite number')
  return String(value)
}

export const col = (column: ColumnSchema): string => quoteIdentifier(column.name)

/** The items of a list-like cell `[a, b]` as a DuckDB list. */
export function itemsOf(column: ColumnSchema): string {
  return `string_split(regexp_replace(${col(column)}, '^\\[|\\]$', '', 'g'), ', ')`
}

export function condition(filter: Filter): string {
  const c = col(filter.column)
  switch (filter.kind) {
    case 'compare':
      return `${c} ${filter.op} ${sqlNumber(filter.value)}`
    case 'between':
      return `${c} BETWEEN ${sqlNumber(filter.low)} AND ${sqlNumber(filter.high)}`
    case 'equals': {
      const test = `lower(CAST(${c} AS VARCHAR)) = lower(${sqlString(filter.value)})`
      return filter.negated ? `NOT coalesce(${test}, false)` : test
    }
    case 'item': {
      const test = `list_contains(list_transform(${itemsOf(filter.column)}, x -> lower(trim(x))), lower(${sqlString(filter.value)}))`
      return filter.negated ? `NOT coalesce(${test}, false)` : test
    }
    case 'contains':
      return `contains(lower(CAST(${c} AS VARCHAR)), lower(${sqlString(filter.value)}))`
    case 'date': {
      const literal = (value: string) => {
        if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) throw new Error('not a date')
        return `DATE '${value}'`
      }
      const day = `CAST(${c} AS DATE)`
      if (filter.op === 'between') return `${day} BETWEEN ${literal(filter.value)} AND ${literal(filter.high ?? '')}`
      return `${day} ${filter.op} ${literal(filter.value)}`
    }
    case 'prefix':
      return `starts_with(CAST(${c} AS VARCHAR), ${sqlString(filter.value)})`
    case 'present':
      return filter.present
        ? `(${c} IS NOT NULL AND trim(CAST(${c} AS VARCHAR)) <> '')`
        : `(${c} IS NULL OR trim(CAST(${c} AS VARCHAR)) = '')`
  }
}

export function whereClause(filters: readonly Filter[], extra: readonly string[] = []): string {
  const parts = [...filters.map(condition), ...extra]
  return parts.length === 0 ? '' : ` WHERE ${parts.join(' AND ')}`
}
