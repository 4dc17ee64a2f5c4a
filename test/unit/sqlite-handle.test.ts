import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import SqliteDatabase from 'better-sqlite3'
import { sql } from 'kysely'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { type DatabaseHandle, openDatabase } from '../../src/storage/database.js'

describe('the embedded store’s SQLite handle', () => {
  let dir: string | undefined
  let handle: DatabaseHandle | undefined
  afterEach(async () => {
    await handle?.close()
    if (dir) rmSync(dir, { recursive: true, force: true })
    handle = undefined
    dir = undefined
    vi.restoreAllMocks()
  })

  function open() {
    dir ??= mkdtempSync(join(tmpdir(), 'lantern-sqlite-'))
    const prepare = vi.spyOn(SqliteDatabase.prototype, 'prepare')
    handle = openDatabase({ dataDir: dir, databaseUrl: undefined, pgPoolSize: 1 })
    return { db: handle.db, prepared: (text: string) => prepare.mock.calls.filter(([q]) => q === text).length }
  }

  it('prepares a query once and runs it again with other parameters', async () => {
    const { db, prepared } = open()
    await sql`create table notes (id integer primary key, body text)`.execute(db)
    for (const body of ['one', 'two', 'three']) await sql`insert into notes (body) values (${body})`.execute(db)
    const bodies = []
    for (const id of [1, 2, 3]) {
      const row = await sql<{ body: string }>`select body from notes where id = ${id}`.execute(db)
      bodies.push(row.rows[0]?.body)
    }
    expect(bodies).toEqual(['one', 'two', 'three'])
    expect(prepared('insert into notes (body) values (?)')).toBe(1)
    expect(prepared('select body from notes where id = ?')).toBe(1)
  })

  it('drops the least recently used beyond 500 texts and prepares it again when it comes back', async () => {
    const { db, prepared } = open()
    const kept = 'select 0 as n'
    await sql.raw(kept).execute(db)
    for (let n = 1; n <= 499; n++) await sql.raw(`select ${n} as n`).execute(db)
    // Full at 500: using the first text again makes "select 1" the least recently used.
    await sql.raw(kept).execute(db)
    await sql.raw('select 500 as n').execute(db)

    expect((await sql.raw<{ n: number }>(kept).execute(db)).rows).toEqual([{ n: 0 }])
    expect(prepared(kept)).toBe(1)
    expect((await sql.raw<{ n: number }>('select 1 as n').execute(db)).rows).toEqual([{ n: 1 }])
    expect(prepared('select 1 as n')).toBe(2)
  })

  it('makes a new database with pages of 16 KiB', async () => {
    const { db } = open()
    const pageSize = await sql<{ page_size: number }>`pragma page_size`.execute(db)
    expect(pageSize.rows).toEqual([{ page_size: 16384 }])
  })

  it('opens a database made with other pages as it is, and writes to it', async () => {
    dir = mkdtempSync(join(tmpdir(), 'lantern-sqlite-'))
    const earlier = new SqliteDatabase(join(dir, 'lantern.db'))
    earlier.pragma('journal_mode = WAL')
    earlier.exec("create table notes (id integer primary key, body text); insert into notes (body) values ('kept')")
    earlier.close()

    const { db } = open()
    await sql`insert into notes (body) values ('added')`.execute(db)
    expect((await sql<{ page_size: number }>`pragma page_size`.execute(db)).rows).toEqual([{ page_size: 4096 }])
    expect((await sql<{ body: string }>`select body from notes order by id`.execute(db)).rows).toEqual([
      { body: 'kept' },
      { body: 'added' },
    ])
  })
})
