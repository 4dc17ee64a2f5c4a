import type { DuckDBConnection } from '@duckdb/node-api'
import { detectHeader, kindOfText, type TypedCell } from '../ingestion/parsers/table-builder.js'
import { queryRows, quoteLiteral } from './duckdb.js'
import { type ColumnPlan, type InferenceHints, inferColumn, isNaMarkerSql, TEXT_PLAN } from './inference.js'
import { type ColumnSchema, type ColumnType, quoteIdentifier, ROW_COLUMN } from './types.js'

/**
 * Raw cells already inside DuckDB: `relation` is a SELECT giving `__row` (the row number in the
 * file or sheet, as the document's chunks number rows) and VARCHAR columns `c0` … `c<width-1>`.
 */
export interface RawTable {
  readonly relation: string
  readonly width: number
}

/** A typed table written into the database, with what the schema reports about it. */
export interface BuiltTable {
  readonly table: string
  readonly rowCount: number
  readonly columns: readonly ColumnSchema[]
  /** Its first rows as text, in column order: what a language model is shown of the data. */
  readonly sampleRows: readonly (readonly (string | null)[])[]
}

/** Rows looked at to decide the header (as the ingestion parser does) and to infer types. */
const SNIFF_ROWS = 20
const TYPE_SAMPLE_ROWS = 20_000
const TOP_VALUES = 50
/** First rows kept as a sample, and the characters kept of each cell. */
const SAMPLE_ROWS = 3
const SAMPLE_CELL_CHARS = 80
/** Above this many rows, distinct counts are approximate (HyperLogLog), to keep loading fast. */
const EXACT_DISTINCT_ROWS = 200_000

/** A raw cell that holds a value: not blank, not a missing-value marker (a typed column leaves those empty). */
const cell = (i: number): string => `CASE WHEN ${isNaMarkerSql(`c${i}`)} THEN NULL ELSE nullif(trim(c${i}), '') END`

/** Empty cells are NULL in raw tables (DuckDB's reader and the appender both write them so). */
function allEmpty(width: number): string {
  if (width === 0) return 'true'
  return `coalesce(${Array.from({ length: width }, (_, i) => `c${i}`).join(', ')}) IS NULL`
}

/** Header names: trimmed, `Column N` for empty ones, made unique, never the row column. */
export function columnNames(header: readonly (string | null)[] | null, width: number): string[] {
  const seen = new Set<string>([ROW_COLUMN])
  const names: string[] = []
  for (let i = 0; i < width; i++) {
    const base = header?.[i]?.trim().replace(/\s+/g, ' ') || `Column ${i + 1}`
    let name = base
    for (let n = 2; seen.has(name.toLowerCase()) || seen.has(name); n++) name = `${base} (${n})`
    seen.add(name.toLowerCase())
    names.push(name)
  }
  return names
}

/**
 * Writes `table` (typed columns named by the header, plus ROW_COLUMN) from the raw cells: header
 * detection as at ingestion, fully empty rows and columns dropped, each column's type inferred from
 * a sample and checked over all rows, then per-column statistics for the planners.
 */
export async function buildTable(
  connection: DuckDBConnection,
  raw: RawTable,
  table: string,
  hints: InferenceHints,
  /** The attached database the typed table is written to; the work happens in memory. */
  output: string,
): Promise<BuiltTable> {
  const target = `${quoteIdentifier(output)}.${quoteIdentifier(table)}`
  const { width } = raw
  const cols = Array.from({ length: width }, (_, i) => `c${i}`).join(', ')
  const nonEmpty = `SELECT __row${width > 0 ? `, ${cols}` : ''} FROM (${raw.relation}) WHERE NOT (${allEmpty(width)})`
  // Raw tables are written in file order and DuckDB keeps insertion order: no sort needed.
  const first = await queryRows(connection, `${nonEmpty} LIMIT ${SNIFF_ROWS}`)
  const typed = first.map((row) =>
    Array.from({ length: width }, (_, i): TypedCell => {
      const text = String(row[`c${i}`] ?? '').trim()
      return { text, kind: kindOfText(text) }
    }),
  )
  const hasHeader = detectHeader(typed)
  const headerRow = hasHeader ? Number(first[0]?.__row) : 0
  const header = hasHeader
    ? Array.from({ length: width }, (_, i) => (first[0]?.[`c${i}`] as string | null) ?? null)
    : null
  const data = `SELECT * FROM (${nonEmpty}) WHERE __row > ${headerRow}`

  // Which columns hold anything at all, and a sample of each for type inference.
  const counts = await queryRows(
    connection,
    // Empty cells are NULL in raw tables (only whitespace-only cells are not: checked below when it matters).
    `SELECT count(*) AS n${Array.from({ length: width }, (_, i) => `, count(c${i}) AS f${i}`).join('')} FROM (${data})`,
  )
  const rowCount = Number(counts[0]?.n ?? 0)
  const names = columnNames(header, width)
  const kept = Array.from({ length: width }, (_, i) => i).filter(
    (i) => Number(counts[0]?.[`f${i}`] ?? 0) > 0 || (header?.[i] ?? '').trim() !== '',
  )
  // Insertion order: the first rows of the data, without sorting the whole table.
  const sample = await queryRows(connection, `SELECT * FROM (${data}) LIMIT ${TYPE_SAMPLE_ROWS}`)
  const plans = new Map<number, ColumnPlan>()
  for (const i of kept) {
    const values = sample.map((row) => row[`c${i}`]).filter((v): v is string => typeof v === 'string')
    plans.set(i, inferColumn(values, hints))
  }

  // One pass converts every column; a conversion that lost a non-empty cell turns its column back
  // into text (a second pass, rare); numbers are integers when every value is whole.
  const name = (i: number): string => quoteIdentifier(names[i] as string)
  const create = async (): Promise<void> => {
    const select = kept.map((i) => `, ${(plans.get(i) as ColumnPlan).convert(`c${i}`)} AS ${name(i)}`).join('')
    await connection.run(
      `CREATE OR REPLACE TABLE ${target} AS SELECT CAST(__row AS BIGINT) AS ${quoteIdentifier(ROW_COLUMN)}${select} FROM (${data})`,
    )
  }
  // One pass converts every column into the output; a conversion that lost a non-empty cell falls
  // back (integer → number → text) and the table is written again (rare).
  for (let round = 0; ; round++) {
    await create()
    const checked = kept.filter((i) => plans.get(i)?.type !== 'text')
    if (checked.length === 0 || round >= 2) break
    const result =
      (
        await queryRows(
          connection,
          `SELECT ${checked.map((i) => `count(${name(i)}) AS n${i}`).join(', ')} FROM ${target}`,
        )
      )[0] ?? {}
    const suspect = checked.filter((i) => Number(result[`n${i}`]) < Number(counts[0]?.[`f${i}`] ?? 0))
    if (suspect.length === 0) break
    // Blank (whitespace-only) cells are not NULL in the raw table: count the really filled ones.
    const filled =
      (
        await queryRows(
          connection,
          `SELECT ${suspect.map((i) => `count(${cell(i)}) AS f${i}`).join(', ')} FROM (${data})`,
        )
      )[0] ?? {}
    const lost = suspect.filter((i) => Number(result[`n${i}`]) < Number(filled[`f${i}`] ?? 0))
    if (lost.length === 0) break
    for (const i of lost) plans.set(i, (plans.get(i) as ColumnPlan).fallback ?? TEXT_PLAN)
  }

  const columns = await columnStatistics(
    connection,
    target,
    rowCount,
    kept.map((i) => ({
      name: names[i] as string,
      type: (plans.get(i) as ColumnPlan).type,
      unit: (plans.get(i) as ColumnPlan).unit,
    })),
  )
  const firstRows = await queryRows(
    connection,
    `SELECT ${columns.map((c, i) => `CAST(${quoteIdentifier(c.name)} AS VARCHAR) AS v${i}`).join(', ') || '1'} FROM ${target} ORDER BY ${quoteIdentifier(ROW_COLUMN)} LIMIT ${SAMPLE_ROWS}`,
  )
  const sampleRows = firstRows.map((row) =>
    columns.map((_, i) => {
      const value = row[`v${i}`]
      return typeof value === 'string' ? value.slice(0, SAMPLE_CELL_CHARS) : null
    }),
  )
  return { table, rowCount, columns, sampleRows }
}

async function columnStatistics(
  connection: DuckDBConnection,
  table: string,
  rowCount: number,
  columns: readonly { name: string; type: ColumnType; unit: ColumnSchema['unit'] }[],
): Promise<ColumnSchema[]> {
  if (columns.length === 0) return []
  const t = table
  const distinct = rowCount > EXACT_DISTINCT_ROWS ? 'approx_count_distinct' : 'count_distinct'
  const parts = columns.flatMap((column, i) => {
    const c = quoteIdentifier(column.name)
    const ordered = column.type !== 'text' && column.type !== 'boolean'
    return [
      `count(${c}) AS n${i}`,
      distinct === 'count_distinct' ? `count(DISTINCT ${c}) AS d${i}` : `approx_count_distinct(${c}) AS d${i}`,
      ordered ? `CAST(min(${c}) AS VARCHAR) AS lo${i}` : `NULL AS lo${i}`,
      ordered ? `CAST(max(${c}) AS VARCHAR) AS hi${i}` : `NULL AS hi${i}`,
    ]
  })
  const stats = (await queryRows(connection, `SELECT ${parts.join(', ')} FROM ${t}`))[0] ?? {}
  const result: ColumnSchema[] = []
  for (const [i, column] of columns.entries()) {
    let topValues: string[] = []
    if (column.type === 'text' || column.type === 'boolean') {
      const c = quoteIdentifier(column.name)
      const top = await queryRows(
        connection,
        `SELECT CAST(${c} AS VARCHAR) AS v, count(*) AS n FROM ${t} WHERE ${c} IS NOT NULL GROUP BY 1 ORDER BY n DESC, v LIMIT ${TOP_VALUES}`,
      )
      topValues = top.map((row) => String(row.v))
    }
    const numeric = column.type === 'integer' || column.type === 'number'
    const bound = (value: unknown): number | string | null =>
      value === null || value === undefined ? null : numeric ? Number(value) : String(value)
    result.push({
      name: column.name,
      type: column.type,
      unit: column.unit,
      nullCount: rowCount - Number(stats[`n${i}`] ?? 0),
      distinctCount: Number(stats[`d${i}`] ?? 0),
      topValues,
      min: bound(stats[`lo${i}`]),
      max: bound(stats[`hi${i}`]),
    })
  }
  return result
}

/** `SELECT … FROM <rawTable>` for a table of `(__row, cells VARCHAR[])` rows appended from JS. */
export function listRelation(rawTable: string, width: number): string {
  const cols = Array.from({ length: width }, (_, i) => `, cells[${i + 1}] AS c${i}`).join('')
  return `SELECT __row${cols} FROM ${quoteIdentifier(rawTable)}`
}

export { quoteLiteral }
