import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { processDirectory, removeOrphanedDirectories } from '../../src/lib/process-directories.js'

describe('process working directories', () => {
  const parents: string[] = []
  afterEach(() => {
    for (const parent of parents.splice(0)) rmSync(parent, { recursive: true, force: true })
  })

  it('removes the directories of processes that are gone, and only those', async () => {
    const parent = mkdtempSync(join(tmpdir(), 'lantern-dirs-'))
    parents.push(parent)
    // A process that has ended: its pid is free.
    const gone = spawnSync(process.execPath, ['-e', '0']).pid as number
    const names = {
      orphan: `analysis-${gone}-abc123`,
      ours: processDirectory(parent, 'analysis', 'def456'),
      running: `tables-${process.ppid}-abc123`,
      otherPurpose: `cache-${gone}-abc123`,
      notOurs: `analysis-${gone}`,
    }
    for (const name of Object.values(names)) mkdirSync(name.startsWith('/') ? name : join(parent, name))
    expect(await removeOrphanedDirectories(parent, ['analysis', 'tables'])).toBe(1)
    expect(existsSync(join(parent, names.orphan))).toBe(false)
    expect(existsSync(names.ours)).toBe(true)
    for (const name of [names.running, names.otherPurpose, names.notOurs])
      expect(existsSync(join(parent, name))).toBe(true)
  })

  it('does nothing when the parent does not exist', async () => {
    expect(await removeOrphanedDirectories(join(tmpdir(), 'lantern-no-such-dir-x'), ['analysis'])).toBe(0)
  })
})
