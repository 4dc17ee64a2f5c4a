import { type Kysely, type Migration, type MigrationProvider, Migrator } from 'kysely'
import type { Dialect } from './dialect.js'
import * as core from './migrations/0001-core.js'
import * as chunksIndex from './migrations/0002-chunks-index.js'
import * as jobs from './migrations/0003-jobs.js'
import * as messages from './migrations/0004-messages.js'
import * as chunkVectors from './migrations/0005-chunk-vectors.js'
import * as searchStatistics from './migrations/0006-search-statistics.js'
import * as indexChanges from './migrations/0007-index-changes.js'
import * as integerIndexKeys from './migrations/0008-integer-index-keys.js'
import * as postingBlocks from './migrations/0009-posting-blocks.js'
import * as documentCards from './migrations/0010-document-cards.js'
import type { Database } from './schema.js'

type MigrationModule = { up(db: Kysely<unknown>, dialect: Dialect): Promise<void> }

// Listed here rather than read from disk, so the built service carries its migrations with it.
const MIGRATIONS: Record<string, MigrationModule> = {
  '0001-core': core,
  '0002-chunks-index': chunksIndex,
  '0003-jobs': jobs,
  '0004-messages': messages,
  '0005-chunk-vectors': chunkVectors,
  '0006-search-statistics': searchStatistics,
  '0007-index-changes': indexChanges,
  '0008-integer-index-keys': integerIndexKeys,
  '0009-posting-blocks': postingBlocks,
  '0010-document-cards': documentCards,
}

function provider(dialect: Dialect): MigrationProvider {
  return {
    getMigrations: async () =>
      Object.fromEntries(
        Object.entries(MIGRATIONS).map(([name, module]): [string, Migration] => [
          name,
          { up: (db) => module.up(db, dialect) },
        ]),
      ),
  }
}

/** Applies every pending migration; returns the names applied. Safe to run from many processes. */
export async function migrateToLatest(db: Kysely<Database>, dialect: Dialect): Promise<string[]> {
  const migrator = new Migrator({ db, provider: provider(dialect), migrationTableName: 'lantern_migrations' })
  const { error, results } = await migrator.migrateToLatest()
  if (error) throw error instanceof Error ? error : new Error(String(error))
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName)
}

/** Names of migrations not yet applied (a PostgreSQL server is migrated by `lantern admin migrate`). */
export async function pendingMigrations(db: Kysely<Database>, dialect: Dialect): Promise<string[]> {
  const migrator = new Migrator({ db, provider: provider(dialect), migrationTableName: 'lantern_migrations' })
  const all = await migrator.getMigrations()
  return all.filter((m) => m.executedAt === undefined).map((m) => m.name)
}
