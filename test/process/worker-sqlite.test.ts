import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { runCli, storeEnv } from '../support/processes.js'

describe('`lantern worker` on the embedded store', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'lantern-worker-sqlite-'))
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }))

  it('refuses SQLite with a clear message and exit code 5, touching nothing', async () => {
    const result = await runCli(['worker'], storeEnv(dataDir))
    expect(result.code).toBe(5)
    expect(result.stderr).toMatch(/^lantern: lantern worker needs PostgreSQL \(set LANTERN_DATABASE_URL\)/)
    expect(result.stderr).toContain('lantern serve')
    expect(result.stderr).not.toMatch(/\n\s+at /)
    expect(result.stdout).toBe('')
    expect(existsSync(join(dataDir, 'lantern.db'))).toBe(false)
  })

  it('refuses LANTERN_WORKERS=0 on PostgreSQL before connecting', async () => {
    const result = await runCli(['worker'], {
      ...storeEnv(dataDir, 'postgres://nobody@127.0.0.1:1/none'),
      LANTERN_WORKERS: '0',
    })
    expect(result.code).toBe(5)
    expect(result.stderr).toMatch(/LANTERN_WORKERS must be at least 1/)
  })
})
