import { join } from 'node:path'
import { type DuckDBConnection, DuckDBInstance } from '@duckdb/node-api'
import { completeTest } from '../../src/data-analysis/derived-test.js'
import { loadCsv } from '../../src/data-analysis/raw-sources.js'
import { buildTable } from '../../src/data-analysis/table-build.js'
import type { QuestionPlanner, ResultType, TableSchema } from '../../src/data-analysis/types.js'

/**
 * Planner-direct mode: the tables loaded into an in-memory DuckDB with the service's own loader
 * (src/data-analysis/raw-sources.ts + table-build.ts, the same types and statistics as after an
 * upload), each question planned and its SQL run here, without the HTTP service.
 */

export interface DirectAnswer {
  readonly outcome: 'plan' | 'declined' | 'error'
  readonly result: unknown
  readonly resultType: ResultType | null
  readonly plan: string
  readonly sql: string | null
}

function plain(value: unknown): unknown {
  if (typeof value === 'bigint') return Number(value)
  if (value instanceof Date) return value.toISOString().slice(0, 10)
  if (value !== null && typeof value === 'object') return String(value)
  return value
}

/** The typed result of a query: one value, or the first column of every row for lists and tables. */
export function typedResult(rows: Record<string, unknown>[], type: ResultType): unknown {
  const first = (row: Record<string, unknown> | undefined) => (row ? plain(Object.values(row)[0]) : null)
  if (type === 'list[number]' || type === 'list[category]') return rows.map((row) => first(row))
  if (type === 'table') return rows.map((row) => Object.fromEntries(Object.entries(row).map(([k, v]) => [k, plain(v)])))
  if (type === 'values') return Object.fromEntries(Object.entries(rows[0] ?? {}).map(([k, v]) => [k, plain(v)]))
  const value = first(rows[0])
  if (type === 'number') return value === null ? null : Number(value)
  if (type === 'boolean') return value === null ? null : Boolean(value)
  return value === null ? null : typeof value === 'number' ? value : String(value)
}

export class DirectRunner {
  private readonly loaded = new Map<string, TableSchema>()

  private constructor(
    private readonly connection: DuckDBConnection,
    private readonly tablesDir: string,
  ) {}

  static async create(tablesDir: string): Promise<DirectRunner> {
    const instance = await DuckDBInstance.create(':memory:')
    return new DirectRunner(await instance.connect(), tablesDir)
  }

  async tables(ids: readonly string[]): Promise<TableSchema[]> {
    const out: TableSchema[] = []
    for (const id of ids) {
      let schema = this.loaded.get(id)
      if (!schema) {
        const sqlName = `t${this.loaded.size + 1}`
        const path = join(this.tablesDir, `${id}.csv`)
        const raw = await loadCsv(
          this.connection,
          { path, delimiter: ',', encoding: 'utf-8' },
          `${sqlName}_raw`,
          50_000_000,
        )
        const built = await buildTable(this.connection, raw, sqlName, { european: false }, 'memory')
        schema = {
          sqlName,
          documentId: id,
          filename: `${id}.csv`,
          sheet: null,
          rowCount: built.rowCount,
          columns: built.columns,
        }
        this.loaded.set(id, schema)
      }
      out.push(schema)
    }
    return out
  }

  async ask(
    planner: QuestionPlanner,
    question: string,
    tableIds: readonly string[],
    language: string,
  ): Promise<DirectAnswer> {
    let tables: TableSchema[]
    try {
      tables = await this.tables(tableIds)
    } catch (error) {
      return {
        outcome: 'error',
        result: null,
        resultType: null,
        plan: `loading failed: ${(error as Error).message}`,
        sql: null,
      }
    }
    const outcome = await planner.plan(question, tables, language)
    if (outcome.kind === 'declined')
      return { outcome: 'declined', result: null, resultType: null, plan: outcome.reason, sql: null }
    const { plan } = outcome
    try {
      const reader = await this.connection.runAndReadAll(plan.sql)
      const queried = { columns: reader.columnNames(), rows: reader.getRowsJS(), truncated: false }
      // A test's p-value is computed after the query, as the service does (src/data-analysis/derived-test.ts).
      const result = plan.test ? completeTest(queried, plan.test) : queried
      const rows = result.rows.map((row) => Object.fromEntries(result.columns.map((name, i) => [name, row[i]])))
      return {
        outcome: 'plan',
        result: typedResult(rows, plan.resultType),
        resultType: plan.resultType,
        plan: plan.explanation,
        sql: plan.sql,
      }
    } catch (error) {
      return {
        outcome: 'error',
        result: null,
        resultType: plan.resultType,
        plan: (error as Error).message,
        sql: plan.sql,
      }
    }
  }
}
