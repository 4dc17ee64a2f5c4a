import { type DuckDBConnection, StatementType } from '@duckdb/node-api'
import { type EngineLimits, openDuckDb, plainValue, quoteLiteral } from './duckdb.js'
import { quoteIdentifier } from './types.js'

/** A table a query may read: the view name the planner uses and where its data is. */
export interface SandboxTable {
  readonly sqlName: string
  /** DuckDB file holding the table (attached read-only). */
  readonly file: string
  readonly table: string
}

export interface SandboxLimits extends EngineLimits {
  readonly timeoutMs: number
  /** Rows returned at most; a larger result is cut (and says so). */
  readonly rowLimit: number
}

export interface QueryResult {
  readonly columns: readonly string[]
  readonly rows: readonly (readonly unknown[])[]
  /** True when the result had more rows than the row limit. */
  readonly truncated: boolean
}

/** A query the sandbox refused or that failed: the message is DuckDB's own, or the rule it broke. */
export class QueryError extends Error {
  override readonly name = 'QueryError'
}

const LEADING_NOISE = /^(?:\s+|--[^\n]*(?:\n|$)|\/\*[\s\S]*?\*\/|\()*/

/**
 * The checks before a statement reaches DuckDB: text that starts (after comments, blanks and
 * parentheses) with SELECT or WITH. The parser then has to find exactly one statement, of type SELECT.
 */
export function checkQueryText(sql: string): void {
  const start = sql.replace(LEADING_NOISE, '')
  if (!/^(select|with)\b/i.test(start)) throw new QueryError('only one SELECT (or WITH … SELECT) statement is allowed')
}

/**
 * One question's database: an in-memory DuckDB that attaches the loaded tables read-only, exposes
 * them as views, and then locks itself: no file system or network access, no configuration
 * changes, no extensions. Queries are single SELECTs, with a time limit and a row limit.
 */
export class Sandbox {
  private constructor(
    private readonly connection: DuckDBConnection,
    private readonly closeDb: () => void,
    private readonly limits: SandboxLimits,
  ) {}

  static async open(tables: readonly SandboxTable[], limits: SandboxLimits): Promise<Sandbox> {
    const db = await openDuckDb(':memory:', limits)
    try {
      const files = [...new Set(tables.map((t) => t.file))]
      for (const [i, file] of files.entries()) {
        await db.connection.run(`ATTACH ${quoteLiteral(file)} AS ${quoteIdentifier(`d${i}`)} (READ_ONLY)`)
      }
      for (const t of tables) {
        const database = `d${files.indexOf(t.file)}`
        await db.connection.run(
          `CREATE VIEW ${quoteIdentifier(t.sqlName)} AS SELECT * FROM ${quoteIdentifier(database)}.${quoteIdentifier(t.table)}`,
        )
      }
      await db.connection.run('SET enable_external_access = false')
      await db.connection.run('SET allow_community_extensions = false')
      await db.connection.run('SET lock_configuration = true')
      return new Sandbox(db.connection, db.close, limits)
    } catch (error) {
      db.close()
      throw error
    }
  }

  /** Runs one read-only SELECT; QueryError with DuckDB's message when it is refused or fails. */
  async query(sql: string, rowLimit = this.limits.rowLimit): Promise<QueryResult> {
    checkQueryText(sql)
    let timer: NodeJS.Timeout | undefined
    let timedOut = false
    try {
      const extracted = await this.connection.extractStatements(sql)
      if (extracted.count !== 1) throw new QueryError('only one SELECT (or WITH … SELECT) statement is allowed')
      const prepared = await extracted.prepare(0)
      if (prepared.statementType !== StatementType.SELECT) {
        throw new QueryError('only one SELECT (or WITH … SELECT) statement is allowed')
      }
      timer = setTimeout(() => {
        timedOut = true
        this.connection.interrupt()
      }, this.limits.timeoutMs)
      const reader = await prepared.streamAndReadUntil(rowLimit + 1)
      const columns = reader.columnNames()
      const all = reader.getRowsJS()
      return {
        columns,
        rows: all.slice(0, rowLimit).map((row) => row.map(plainValue)),
        truncated: all.length > rowLimit,
      }
    } catch (error) {
      if (error instanceof QueryError) throw error
      if (timedOut) throw new QueryError(`the query took longer than ${this.limits.timeoutMs} ms and was stopped`)
      throw new QueryError(error instanceof Error ? error.message : String(error))
    } finally {
      if (timer) clearTimeout(timer)
    }
  }

  close(): void {
    this.closeDb()
  }
}
