import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { parse } from 'csv-parse/sync'
import { columnNames } from '../../src/data-analysis/table-build.js'
import type { ColumnSchema, ColumnType, TableSchema } from '../../src/data-analysis/types.js'

/**
 * The DataBench train/dev folder (`../shared/data/databench-train`, see its SOURCE.md): the 1,308
 * questions with their gold `columns_used`, and SCHEMAS.csv, the column names and pandas dtypes of
 * all 65 tables (only 8 of which are there in full).
 */

export interface TrainQuestion {
  readonly id: string
  readonly tableId: string
  readonly question: string
  readonly answerType: string
  readonly split: 'train' | 'dev'
  /** Verbatim; see columns-used.ts. */
  readonly columnsUsed: string
  /** `full`: the table is in `tables/`. */
  readonly full: boolean
}

export function readTrainQuestions(dir: string): TrainQuestion[] {
  return readFileSync(join(dir, 'questions.jsonl'), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => {
      const raw = JSON.parse(line) as Record<string, unknown>
      const tables = raw.table_ids as string[]
      if (tables.length !== 1) throw new Error(`${raw.id}: expected one table, got ${tables.length}`)
      const split = String(raw.split)
      if (split !== 'train' && split !== 'dev') throw new Error(`${raw.id}: unknown split ${split}`)
      return {
        id: String(raw.id),
        tableId: tables[0] as string,
        question: String(raw.question),
        answerType: String(raw.answer_type),
        split,
        columnsUsed: String(raw.columns_used ?? ''),
        full: raw.table === 'full',
      }
    })
}

/** Each table's column names in file order, from SCHEMAS.csv. */
export function readSchemas(dir: string): Map<string, { name: string; dtype: string }[]> {
  const rows = parse(readFileSync(join(dir, 'SCHEMAS.csv'), 'utf8'), { columns: true }) as Record<string, string>[]
  const tables = new Map<string, { position: number; name: string; dtype: string }[]>()
  for (const row of rows) {
    const id = row.table_id as string
    const list = tables.get(id) ?? []
    list.push({ position: Number(row.position), name: row.column as string, dtype: row.pandas_dtype as string })
    tables.set(id, list)
  }
  return new Map(
    [...tables].map(([id, list]) => [
      id,
      list.sort((a, b) => a.position - b.position).map(({ name, dtype }) => ({ name, dtype })),
    ]),
  )
}

/**
 * The column type the service's loader gives such a column (src/data-analysis/inference.ts):
 * pandas integers → integer, floats → number, bool → boolean, datetimes → timestamp, category and
 * object (strings, lists) → text. An unknown dtype stops the run rather than being guessed.
 */
export function columnTypeOf(dtype: string): ColumnType {
  if (/^u?int(8|16|32|64)$/i.test(dtype)) return 'integer'
  if (/^float(16|32|64)$/.test(dtype)) return 'number'
  if (dtype === 'bool' || dtype === 'boolean') return 'boolean'
  if (dtype.startsWith('datetime64')) return 'timestamp'
  if (dtype === 'category' || dtype === 'object' || dtype === 'string') return 'text'
  throw new Error(`no column type for pandas dtype "${dtype}"`)
}

/**
 * The header names the service would give these columns (trimmed, blanks collapsed, made unique:
 * `columnNames` of table-build.ts), each mapped back to the name written in SCHEMAS.csv, so that
 * the columns a plan uses compare with the gold's spelling.
 */
export function serviceNames(names: readonly string[]): Map<string, string> {
  const built = columnNames(names, names.length)
  return new Map(built.map((name, i) => [name, names[i] as string]))
}

/** A column known by its name and type alone: no value, no count. */
export function schemaOnlyColumn(name: string, type: ColumnType): ColumnSchema {
  return { name, type, unit: null, nullCount: 0, distinctCount: 0, topValues: [], min: null, max: null }
}

/**
 * A TableSchema from names and dtypes alone, as if nothing of the cells were known: no top values,
 * no min/max, and 0 for the counts (rows, distinct values, nulls). No count is neutral: with 0 rows
 * every column looks like one value per row where the planner asks (shapes/extreme.ts), which may
 * change the shape it picks, or decline an average over the top rows; no value can be matched.
 */
export function schemaOnlyTable(id: string, columns: readonly { name: string; dtype: string }[]): TableSchema {
  const names = columnNames(
    columns.map((column) => column.name),
    columns.length,
  )
  return {
    sqlName: 't1',
    documentId: id,
    filename: `${id}.csv`,
    sheet: null,
    rowCount: 0,
    columns: columns.map((column, i) => schemaOnlyColumn(names[i] as string, columnTypeOf(column.dtype))),
  }
}
