import type { QueryResult } from './sandbox.js'
import { type ResultType, ROW_COLUMN } from './types.js'

/** The typed value the `analysis` field reports: boolean, number, string, array, or table rows. */
export type AnalysisValue =
  | boolean
  | number
  | string
  | null
  | readonly (number | string | null)[]
  | readonly Record<string, unknown>[]
  /** Several named values (`values`): `{mean: 3.2, std: 1.1}`. */
  | Readonly<Record<string, number | string | boolean | null>>

/** A number without float noise (15 significant digits). */
export function cleanNumber(value: number): number {
  return Number.isFinite(value) ? Number(value.toPrecision(15)) : value
}

function toNumber(value: unknown): number | null {
  if (typeof value === 'number') return cleanNumber(value)
  if (typeof value === 'boolean') return value ? 1 : 0
  if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value)))
    return cleanNumber(Number(value))
  return null
}

function toText(value: unknown): string | null {
  if (value === null || value === undefined) return null
  if (typeof value === 'number') return String(cleanNumber(value))
  if (typeof value === 'object') return JSON.stringify(value)
  return String(value)
}

function toBoolean(value: unknown): boolean | null {
  if (typeof value === 'boolean') return value
  if (typeof value === 'number') return value !== 0
  if (typeof value === 'string') {
    const v = value.trim().toLowerCase()
    if (['true', 'yes', 'oui', 'vrai', '1'].includes(v)) return true
    if (['false', 'no', 'non', 'faux', '0'].includes(v)) return false
  }
  return null
}

/** Columns a reader sees: the row-number column is evidence, not a result. */
export function visibleColumns(result: QueryResult): number[] {
  const indexes = result.columns.map((_, i) => i).filter((i) => result.columns[i] !== ROW_COLUMN)
  return indexes.length > 0 ? indexes : result.columns.map((_, i) => i)
}

/** The result type a query's shape suggests, when the planner did not say. */
export function guessResultType(result: QueryResult): ResultType {
  const columns = visibleColumns(result)
  if (columns.length !== 1) return 'table'
  const column = columns[0] as number
  const values = result.rows.map((row) => row[column])
  const numeric = values.every((v) => v === null || typeof v === 'number')
  if (result.rows.length === 1) {
    if (typeof values[0] === 'boolean') return 'boolean'
    return numeric ? 'number' : 'category'
  }
  return numeric ? 'list[number]' : 'list[category]'
}

/**
 * Why a query result cannot be read as the result type the planner declared, or null when it can:
 * one value needs one row of one column, a list one column, named values one row.
 */
export function shapeProblem(result: QueryResult, resultType: ResultType): string | null {
  const columns = visibleColumns(result).length
  const rows = result.rows.length
  const got = `the query returned ${rows} row${rows === 1 ? '' : 's'} of ${columns} column${columns === 1 ? '' : 's'}`
  switch (resultType) {
    case 'number':
    case 'boolean':
    case 'category':
      if (rows === 1 && columns === 1) return null
      return `${got}, but result_type "${resultType}" is one value: return one row with one column`
    case 'list[number]':
    case 'list[category]':
      return columns === 1 ? null : `${got}, but result_type "${resultType}" is a list: return one column`
    case 'values':
      return rows === 1 ? null : `${got}, but result_type "values" is one row, one column per value`
    case 'table':
      return null
  }
}

/** Reads a query result as the planner's result type. */
export function typedResult(result: QueryResult, resultType: ResultType): AnalysisValue {
  const columns = visibleColumns(result)
  const first = columns[0] ?? 0
  const firstCell = result.rows[0]?.[first]
  switch (resultType) {
    case 'boolean':
      return toBoolean(firstCell)
    case 'number':
      return toNumber(firstCell)
    case 'category':
      return toText(firstCell)
    case 'list[number]':
      return result.rows.map((row) => toNumber(row[first]))
    case 'list[category]':
      return result.rows.map((row) => toText(row[first]))
    case 'table':
      return result.rows.map((row) => Object.fromEntries(columns.map((i) => [result.columns[i] as string, row[i]])))
    case 'values': {
      const row = result.rows[0] ?? []
      return Object.fromEntries(
        columns.map((i) => [result.columns[i] as string, toNumber(row[i]) ?? toBoolean(row[i]) ?? toText(row[i])]),
      )
    }
  }
}

function cellText(value: unknown): string {
  const text =
    value === null || value === undefined ? '' : typeof value === 'number' ? String(cleanNumber(value)) : String(value)
  return text.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ')
}

/** A small markdown table of the result (first `maxRows` rows). */
export function markdownTable(result: QueryResult, maxRows = 10): string {
  const columns = visibleColumns(result)
  if (columns.length === 0) return ''
  const head = `| ${columns.map((i) => cellText(result.columns[i])).join(' | ')} |`
  const rule = `| ${columns.map(() => '---').join(' | ')} |`
  const body = result.rows.slice(0, maxRows).map((row) => `| ${columns.map((i) => cellText(row[i])).join(' | ')} |`)
  return [head, rule, ...body].join('\n')
}
