import pg from 'pg'
import type { TestProject } from 'vitest/node'
import { openDatabase } from '../../src/storage/database.js'
import { migrateToLatest } from '../../src/storage/migrate.js'

declare module 'vitest' {
  export interface ProvidedContext {
    /** URL of a freshly created, migrated PostgreSQL database; empty when PostgreSQL tests are skipped. */
    pgUrl: string
  }
}

let dropDatabase: (() => Promise<void>) | undefined

/**
 * With TEST_DATABASE_URL set and reachable, creates a throwaway database for this run, migrates it
 * and hands its URL to every test file; otherwise says plainly that the PostgreSQL half is skipped.
 */
export async function setup(project: TestProject): Promise<void> {
  const baseUrl = process.env.TEST_DATABASE_URL
  if (!baseUrl) {
    console.log('\n[lantern] TEST_DATABASE_URL is not set: PostgreSQL tests are SKIPPED; SQLite tests run.\n')
    project.provide('pgUrl', '')
    return
  }
  const admin = new pg.Client({ connectionString: baseUrl })
  try {
    await admin.connect()
  } catch (error) {
    console.log(
      `\n[lantern] PostgreSQL at TEST_DATABASE_URL is unreachable (${String(error)}): PostgreSQL tests are SKIPPED.\n`,
    )
    project.provide('pgUrl', '')
    return
  }
  const name = `lantern_test_${process.pid}_${Date.now()}`
  await admin.query(`create database ${name}`)
  const url = new URL(baseUrl)
  url.pathname = `/${name}`
  const handle = openDatabase({ dataDir: '', databaseUrl: url.toString(), pgPoolSize: 2 })
  await migrateToLatest(handle.db, handle.dialect)
  await handle.close()
  console.log(`\n[lantern] PostgreSQL tests run against database ${name}.\n`)
  project.provide('pgUrl', url.toString())
  dropDatabase = async () => {
    await admin.query(`drop database if exists ${name} with (force)`)
    await admin.end()
  }
}

export async function teardown(): Promise<void> {
  await dropDatabase?.()
}
