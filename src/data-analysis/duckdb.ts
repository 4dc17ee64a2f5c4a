import { type DuckDBConnection, DuckDBInstance } from '@duckdb/node-api'

/** Per-instance resources: every analysis database runs with these bounds. */
export interface EngineLimits {
  /** DuckDB `memory_limit`, e.g. `512MB`. */
  readonly memoryLimit: string
  readonly threads: number
  /** Where DuckDB may spill when a load or query needs more than the memory limit. */
  readonly tempDirectory?: string
}

/** A DuckDB database (a file for loaded tables, or in memory for a query) and one connection to it. */
export interface OpenDatabase {
  readonly connection: DuckDBConnection
  close(): void
}

/** Opens a DuckDB database with bounded memory and threads; `path` `:memory:` for an in-memory one. */
export async function openDuckDb(path: string, limits: EngineLimits): Promise<OpenDatabase> {
  const instance = await DuckDBInstance.create(path, {
    threads: String(limits.threads),
    memory_limit: limits.memoryLimit,
    // Never fetch anything: extensions beyond the built-in ones are not available offline.
    autoinstall_known_extensions: 'false',
    autoload_known_extensions: 'false',
    ...(limits.tempDirectory ? { temp_directory: limits.tempDirectory } : {}),
  })
  const connection = await instance.connect()
  return {
    connection,
    close() {
      connection.closeSync()
      instance.closeSync()
    },
  }
}

/** A string as an SQL literal. */
export function quoteLiteral(text: string): string {
  return `'${text.replaceAll("'", "''")}'`
}

/** All rows of a query as plain JS values (bigint → number when safe). */
export async function queryRows(connection: DuckDBConnection, sql: string): Promise<Record<string, unknown>[]> {
  const reader = await connection.runAndReadAll(sql)
  return reader.getRowObjectsJS().map((row) => {
    const out: Record<string, unknown> = {}
    for (const [key, value] of Object.entries(row)) out[key] = plainValue(value)
    return out
  })
}

/** DuckDB JS values as JSON-friendly ones: safe bigints as numbers, dates as ISO strings. */
export function plainValue(value: unknown): unknown {
  if (typeof value === 'bigint') {
    return value <= BigInt(Number.MAX_SAFE_INTEGER) && value >= BigInt(Number.MIN_SAFE_INTEGER)
      ? Number(value)
      : value.toString()
  }
  if (value instanceof Date) {
    const iso = value.toISOString()
    return iso.endsWith('T00:00:00.000Z') ? iso.slice(0, 10) : iso.replace('T', ' ').replace(/(\.000)?Z$/, '')
  }
  if (Array.isArray(value)) return value.map(plainValue)
  return value
}
