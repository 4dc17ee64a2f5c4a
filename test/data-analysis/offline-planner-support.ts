import { type DuckDBConnection, DuckDBInstance } from '@duckdb/node-api'
import { createOfflinePlanner } from '../../src/data-analysis/offline-planner/index.js'
import {
  type ColumnSchema,
  type ColumnType,
  type PlanOutcome,
  type QueryPlan,
  quoteIdentifier,
  ROW_COLUMN,
  type TableSchema,
} from '../../src/data-analysis/types.js'

/** Small hand-made tables in a real in-memory DuckDB, with the schema the planners read. */

const SQL_TYPES: Record<ColumnType, string> = {
  integer: 'BIGINT',
  number: 'DOUBLE',
  text: 'VARCHAR',
  date: 'DATE',
  timestamp: 'TIMESTAMP',
  boolean: 'BOOLEAN',
}

type Cell = string | number | boolean | null

const literal = (value: Cell): string =>
  value === null ? 'NULL' : typeof value === 'string' ? `'${value.replaceAll("'", "''")}'` : String(value)

export async function createTable(
  connection: DuckDBConnection,
  sqlName: string,
  filename: string,
  columns: ReadonlyArray<readonly [string, ColumnType]>,
  rows: ReadonlyArray<readonly Cell[]>,
): Promise<TableSchema> {
  const defs = [`${ROW_COLUMN} BIGINT`, ...columns.map(([name, type]) => `${quoteIdentifier(name)} ${SQL_TYPES[type]}`)]
  await connection.run(`CREATE TABLE ${sqlName} (${defs.join(', ')})`)
  for (const [i, row] of rows.entries()) {
    await connection.run(`INSERT INTO ${sqlName} VALUES (${[i + 2, ...row].map(literal).join(', ')})`)
  }
  const schema: ColumnSchema[] = []
  for (const [name, type] of columns) {
    const c = quoteIdentifier(name)
    const stats = (
      await connection.runAndReadAll(
        `SELECT count(*) - count(${c}), count(DISTINCT ${c}), CAST(min(${c}) AS VARCHAR), CAST(max(${c}) AS VARCHAR) FROM ${sqlName}`,
      )
    ).getRowsJS()[0] as unknown[]
    const top =
      type === 'text'
        ? (
            await connection.runAndReadAll(
              `SELECT ${c} FROM ${sqlName} WHERE ${c} IS NOT NULL GROUP BY ${c} ORDER BY count(*) DESC, ${c} LIMIT 50`,
            )
          )
            .getRowsJS()
            .map((row) => String(row[0]))
        : []
    const numeric = type === 'integer' || type === 'number'
    const bound = (value: unknown) => (value === null ? null : numeric ? Number(value) : String(value))
    schema.push({
      name,
      type,
      unit: null,
      nullCount: Number(stats[0]),
      distinctCount: Number(stats[1]),
      topValues: top,
      min: bound(stats[2]),
      max: bound(stats[3]),
    })
  }
  return { sqlName, documentId: `doc-${sqlName}`, filename, sheet: null, rowCount: rows.length, columns: schema }
}

export interface PlannerWorld {
  readonly connection: DuckDBConnection
  readonly orders: TableSchema
  readonly customers: TableSchema
  ask(question: string, language?: string, tables?: readonly TableSchema[]): Promise<PlanOutcome>
  /** Plans, runs the query and returns its values (first column, every row). */
  run(
    question: string,
    language?: string,
    tables?: readonly TableSchema[],
  ): Promise<{ plan: QueryPlan; values: unknown[] }>
  evidence(plan: QueryPlan): Promise<number[]>
  close(): void
}

const plain = (value: unknown): unknown => (typeof value === 'bigint' ? Number(value) : value)

/** The plan's first column as plain values; throws with the reason when the planner declined. */
export async function firstColumnOf(connection: DuckDBConnection, outcome: PlanOutcome): Promise<unknown[]> {
  if (outcome.kind !== 'plan') throw new Error(`declined: ${outcome.reason}`)
  return (await connection.runAndReadAll(outcome.plan.sql)).getRowsJS().map((row) => plain(row[0]))
}

/** Why the planner declined, or the SQL it planned (a failed expectation then shows what it did instead). */
export const reasonOf = (outcome: PlanOutcome): string =>
  outcome.kind === 'declined' ? outcome.reason : outcome.plan.sql

/**
 * orders.csv (12 rows): a sales table with a city, a status, an amount, a quantity, a date, a
 * list-like tags column and a 0/1 express flag; customers.csv: one row per customer, joinable on
 * `customer`.
 */
export async function plannerWorld(): Promise<PlannerWorld> {
  const instance = await DuckDBInstance.create(':memory:')
  const connection = await instance.connect()
  const orders = await createTable(
    connection,
    't1',
    'orders.csv',
    [
      ['order_id', 'integer'],
      ['customer', 'text'],
      ['city', 'text'],
      ['status', 'text'],
      ['amount', 'number'],
      ['qty', 'integer'],
      ['order_date', 'date'],
      ['tags', 'text'],
      ['express', 'integer'],
    ],
    [
      [1, 'Alice', 'Paris', 'shipped', 120.5, 3, '2024-01-05', '[gift, fragile]', 1],
      [2, 'Bob', 'Lyon', 'late', 80, 1, '2024-01-20', '[fragile]', 0],
      [3, 'Chloé', 'Paris', 'shipped', 45.25, 2, '2024-02-11', '[]', 0],
      [4, 'Alice', 'Nantes', 'cancelled', 300, 10, '2024-02-28', '[gift]', 1],
      [5, 'David', 'Lyon', 'late', 15, 1, '2024-03-03', '[]', 0],
      [6, 'Emma', 'Paris', 'shipped', 99.99, 4, '2024-03-15', '[gift]', 0],
      [7, 'Bob', 'Lyon', 'shipped', 210, 7, '2024-04-01', '[fragile, heavy]', 1],
      [8, 'Chloé', 'Paris', 'late', 60, 2, '2024-04-22', '[]', 0],
      [9, 'Farid', 'Lille', 'shipped', 175, 5, '2024-05-09', '[heavy]', 0],
      [10, 'Emma', 'Paris', 'shipped', 33, 1, '2024-05-30', '[gift]', 0],
      [11, 'David', 'Lyon', 'shipped', 8.5, 1, '2025-01-02', '[]', 0],
      [12, "O'Brien", 'Lille', 'late', 142, 6, '2025-01-15', '[fragile]', 1],
    ],
  )
  const customers = await createTable(
    connection,
    't2',
    'customers.csv',
    [
      ['customer', 'text'],
      ['segment', 'text'],
      ['country', 'text'],
    ],
    [
      ['Alice', 'Retail', 'France'],
      ['Bob', 'Wholesale', 'France'],
      ['Chloé', 'Retail', 'Belgium'],
      ['David', 'Wholesale', 'France'],
      ['Emma', 'Retail', 'France'],
      ['Farid', 'Retail', 'Belgium'],
      ["O'Brien", 'Wholesale', 'Ireland'],
    ],
  )
  const planner = createOfflinePlanner()
  const ask = (question: string, language = 'en', tables: readonly TableSchema[] = [orders]) =>
    planner.plan(question, tables, language)
  return {
    connection,
    orders,
    customers,
    ask,
    async run(question, language = 'en', tables = [orders]) {
      const outcome = await ask(question, language, tables)
      if (outcome.kind !== 'plan') throw new Error(`declined: ${outcome.reason}`)
      const rows = (await connection.runAndReadAll(outcome.plan.sql)).getRowsJS()
      return { plan: outcome.plan, values: rows.map((row) => plain(row[0])) }
    },
    async evidence(plan) {
      if (!plan.evidenceSql) return []
      const rows = (await connection.runAndReadAll(plan.evidenceSql)).getRowsJS()
      return rows.map((row) => Number(row[0]))
    },
    close() {
      connection.closeSync()
      instance.closeSync()
    },
  }
}
