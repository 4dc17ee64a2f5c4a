import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { checkQueryText, QueryError, Sandbox } from '../../src/data-analysis/sandbox.js'
import { SANDBOX_LIMITS, tableWorld } from './support.js'

const world = tableWorld()
let sandbox: Sandbox
let outside: string

beforeAll(async () => {
  outside = world.file('secret.csv', 'secret\nhunter2\n')
  const loaded = await world.cache.load(await world.document('/orders.csv', 'text/csv', 'item,qty\napple,3\npear,5\n'))
  sandbox = await Sandbox.open([{ sqlName: 't1', file: loaded.file, table: 's0' }], SANDBOX_LIMITS)
})
afterAll(async () => {
  sandbox.close()
  await world.close()
})

async function refused(sql: string): Promise<string> {
  try {
    await sandbox.query(sql)
  } catch (error) {
    expect(error).toBeInstanceOf(QueryError)
    return (error as Error).message
  }
  throw new Error(`the sandbox ran: ${sql}`)
}

describe('the query sandbox', () => {
  it('runs one SELECT or WITH over the loaded tables', async () => {
    expect((await sandbox.query('SELECT sum(qty) AS total FROM t1')).rows).toEqual([[8]])
    expect((await sandbox.query('/* why */ WITH x AS (SELECT * FROM t1) SELECT count(*) FROM x;')).rows).toEqual([[2]])
    expect((await sandbox.query('SELECT 1 -- ; DROP TABLE t1')).rows).toEqual([[1]])
  })

  it.each([
    [`SELECT * FROM read_csv('/etc/passwd')`, /file system operations are disabled|Permission/],
    [`SELECT * FROM read_text('/etc/hostname')`, /disabled|Permission/],
    [`SELECT * FROM glob('/etc/*')`, /disabled|Permission/],
    [`SELECT * FROM 'secret.csv'`, /disabled|Permission|does not exist/],
    [`SELECT * FROM read_parquet('https://example.com/x.parquet')`, /disabled|Permission/],
  ])('refuses file and network access: %s', async (sql, message) => {
    expect(await refused(sql)).toMatch(message)
  })

  it('refuses reading a file next to the cache by path', async () => {
    expect(await refused(`SELECT * FROM read_csv('${outside}')`)).toMatch(/disabled|Permission/)
  })

  it.each([
    `COPY t1 TO '/tmp/lantern-stolen.csv'`,
    `ATTACH '/tmp/lantern-other.duckdb' AS other`,
    'INSTALL httpfs',
    'LOAD httpfs',
    'PRAGMA version',
    'SET enable_external_access = true',
    'RESET lock_configuration',
    'SELECT 1; SELECT 2',
    "SELECT 1; COPY t1 TO '/tmp/lantern-stolen.csv'",
    'DROP VIEW t1',
    'CREATE TABLE x AS SELECT * FROM t1',
    'DELETE FROM t1',
    "EXPORT DATABASE '/tmp/lantern-export'",
    'CALL pragma_version()',
    'DESCRIBE t1',
    '/* SELECT */ PRAGMA version',
    '(PRAGMA version)',
    'WITH x AS (SELECT 1) INSERT INTO t1 SELECT * FROM x',
    `SELECT 1 /* ; */ ; ATTACH '/tmp/x.db'`,
  ])('refuses anything but a single SELECT: %s', async (sql) => {
    await refused(sql)
    expect(existsSync('/tmp/lantern-stolen.csv')).toBe(false)
    expect(existsSync('/tmp/lantern-export')).toBe(false)
  })

  it('keeps the configuration locked', async () => {
    await refused(`SELECT * FROM read_csv('/etc/passwd')`)
    expect((await sandbox.query(`SELECT current_setting('enable_external_access') AS v`)).rows).toEqual([[false]])
    expect((await sandbox.query(`SELECT current_setting('lock_configuration') AS v`)).rows).toEqual([[true]])
  })

  it('returns the DuckDB error text of a failing query', async () => {
    expect(await refused('SELECT nope FROM t1')).toMatch(/Referenced column "nope" not found/)
  })

  it('stops a query past the time limit and cuts results at the row limit', async () => {
    expect(await refused('SELECT count(*) FROM range(100000000000) a, range(10) b')).toMatch(/longer than 3000 ms/)
    const big = await sandbox.query('SELECT * FROM range(5000)')
    expect(big.rows).toHaveLength(SANDBOX_LIMITS.rowLimit)
    expect(big.truncated).toBe(true)
    // Still usable afterwards.
    expect((await sandbox.query('SELECT count(*) FROM t1')).rows).toEqual([[2]])
  })

  it('checks the statement text before parsing', () => {
    expect(() => checkQueryText('  -- hi\n  ( SELECT 1)')).not.toThrow()
    expect(() => checkQueryText('PRAGMA version')).toThrow(QueryError)
    expect(() => checkQueryText('SELECTX 1')).toThrow(QueryError)
  })

  it('leaves the secret file untouched and unread', () => {
    expect(readFileSync(outside, 'utf8')).toContain('hunter2')
    expect(existsSync(join(world.dir, 'lantern-stolen.csv'))).toBe(false)
  })
})
