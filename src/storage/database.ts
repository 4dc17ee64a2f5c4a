import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import SqliteDatabase from 'better-sqlite3'
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely'
import pg from 'pg'
import { LruMap } from '../lib/lru.js'
import type { Dialect } from './dialect.js'
import type { Database } from './schema.js'

export interface DatabaseHandle {
  readonly db: Kysely<Database>
  readonly dialect: Dialect
  /** SQLite: many rows through one cached prepared statement (see RowInserter); absent on PostgreSQL. */
  readonly insertRows?: RowInserter
  /** Round trip to the engine; throws when it is unreachable. */
  ping(): Promise<void>
  close(): Promise<void>
}

export interface DatabaseOptions {
  readonly dataDir: string
  readonly databaseUrl: string | undefined
  readonly pgPoolSize: number
}

/** A row's values, in the order of the columns named with them. */
export type RowValues = readonly (string | number | Uint8Array | null)[]

/**
 * Inserts rows into one table, atomically, inside the caller's transaction when there is one (the
 * embedded store has a single connection). For bulk writes on SQLite, where Kysely compiles a
 * 4,000-row INSERT in JavaScript for every batch (and SQLite parsed it again, before statements
 * were kept): 584,140 postings in transactions of 54,000 took 5.9 s through one prepared
 * single-row statement instead of 6.6 s (`npm run bench:postings-writes`).
 */
export type RowInserter = (table: string, columns: readonly string[], rows: readonly RowValues[]) => void

/** Opens the embedded SQLite file, or a pooled PostgreSQL connection when a URL is configured. */
export function openDatabase(options: DatabaseOptions): DatabaseHandle {
  return options.databaseUrl ? openPostgres(options.databaseUrl, options.pgPoolSize) : openSqlite(options.dataDir)
}

function openSqlite(dataDir: string): DatabaseHandle {
  mkdirSync(dataDir, { recursive: true })
  const sqlite = new SqliteDatabase(join(dataDir, 'lantern.db'))
  // Pages of 16 KiB in a new database (an existing one keeps its own): a document's postings land
  // on pages all over the index, and each commit writes every page it touched, so fewer, larger
  // pages mean fewer writes (docs/decisions.md "SQLite pages of 16 KiB").
  sqlite.pragma('page_size = 16384')
  // WAL lets readers run beside the writer; FULL makes every acknowledged commit survive power loss.
  sqlite.pragma('journal_mode = WAL')
  sqlite.pragma('synchronous = FULL')
  sqlite.pragma('foreign_keys = ON')
  sqlite.pragma('busy_timeout = 5000')
  // 64 MiB of page cache instead of 2: a batch of postings dirties pages all over the postings
  // index, and pages kept in the cache are written once per transaction rather than read back
  // (400,000 postings in batches of 37,000 went from 14.4 s to 8.9 s).
  sqlite.pragma('cache_size = -65536')
  const prepare = preparedStatements(sqlite)
  const db = new Kysely<Database>({
    dialect: new SqliteDialect({ database: { prepare, close: () => sqlite.close() } }),
  })
  const insertRows: RowInserter = (table, columns, rows) => {
    const quoted = columns.map((column) => `"${column}"`).join(', ')
    const insert = prepare(`insert into "${table}" (${quoted}) values (${columns.map(() => '?').join(', ')})`)
    // A savepoint inside the caller's transaction, or a transaction of its own.
    sqlite.transaction(() => {
      for (const row of rows) insert.run(...row)
    })()
  }
  return {
    db,
    dialect: 'sqlite',
    insertRows,
    ping: async () => {
      sqlite.prepare('select 1').get()
    },
    close: () => db.destroy(),
  }
}

/** Statements kept prepared: the service's queries are a few hundred texts. */
const MAX_PREPARED_STATEMENTS = 500

/**
 * `prepare` with the statements kept by SQL text, the least recently used dropped first. Kysely's
 * SQLite driver prepares every query it runs again (docs/decisions.md "Prepared statements kept").
 * Nothing here streams a query (`iterate`), so a statement is never busy when it is handed out again.
 */
function preparedStatements(sqlite: SqliteDatabase.Database): (sql: string) => SqliteDatabase.Statement {
  const statements = new LruMap<string, SqliteDatabase.Statement>(MAX_PREPARED_STATEMENTS)
  return (sql) => {
    let statement = statements.get(sql)
    if (!statement) {
      statement = sqlite.prepare(sql)
      statements.set(sql, statement)
    }
    return statement
  }
}

// BIGINT columns hold byte counts and quotas, all far below 2^53: read them as numbers.
const pgTypes = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === pg.types.builtins.INT8
      ? (value: string) => Number(value)
      : pg.types.getTypeParser(oid, format ?? 'text')) as typeof pg.types.getTypeParser,
}

function openPostgres(url: string, poolSize: number): DatabaseHandle {
  const pool = new pg.Pool({ connectionString: url, max: poolSize, types: pgTypes })
  // An idle client that loses its server must not crash the process; the next query reports it.
  pool.on('error', () => {})
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) })
  return {
    db,
    dialect: 'postgres',
    ping: async () => {
      await pool.query('select 1')
    },
    close: () => db.destroy(),
  }
}
