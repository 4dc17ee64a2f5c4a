import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'
import { inject } from 'vitest'
import { type AppContext, buildAppContext } from '../../src/app-context.js'
import { type Config, loadConfig } from '../../src/config.js'
import { openDatabase } from '../../src/storage/database.js'
import { migrateToLatest } from '../../src/storage/migrate.js'
import type { StoreMode } from './store-modes.js'

export interface IsolatedDatabase {
  readonly url: string
  drop(): Promise<void>
}

/**
 * A migrated PostgreSQL database of one test file's own, beside the run's shared one: job runners
 * claim every company's jobs, so a file that runs workers must not share its queue with files that
 * look at documents waiting in theirs. Undefined when the run has no PostgreSQL.
 */
export async function createIsolatedDatabase(label: string): Promise<IsolatedDatabase | undefined> {
  const base = inject('pgUrl')
  if (!base) return undefined
  const admin = new pg.Client({ connectionString: base })
  await admin.connect()
  const name = `lantern_${label.replace(/[^a-z0-9]/g, '_')}_${process.pid}_${Date.now()}`
  await admin.query(`create database ${name}`)
  const url = new URL(base)
  url.pathname = `/${name}`
  const handle = openDatabase({ dataDir: '', databaseUrl: url.toString(), pgPoolSize: 2 })
  try {
    await migrateToLatest(handle.db, handle.dialect)
  } finally {
    await handle.close()
  }
  return {
    url: url.toString(),
    drop: async () => {
      await admin.query(`drop database if exists ${name} with (force)`)
      await admin.end()
    },
  }
}

/** An AppContext over a store of its own: a fresh SQLite dir, or a PostgreSQL database of its own. */
export async function isolatedContext(
  mode: StoreMode,
  label: string,
  overrides: Partial<Config> = {},
): Promise<{ ctx: AppContext; close(): Promise<void> }> {
  const dataDir = mkdtempSync(join(tmpdir(), `lantern-${label}-`))
  const database = mode === 'postgres' ? await createIsolatedDatabase(label) : undefined
  const config = loadConfig(
    {},
    { dataDir, databaseUrl: database?.url, pgPoolSize: 8, logLevel: 'silent', ...overrides },
  )
  const ctx = await buildAppContext(config, { migrate: true })
  return {
    ctx,
    close: async () => {
      await ctx.close()
      await database?.drop()
      rmSync(dataDir, { recursive: true, force: true })
    },
  }
}
