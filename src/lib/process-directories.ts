import { readdir, rm } from 'node:fs/promises'
import { join } from 'node:path'

/**
 * A working directory private to this process: `<parent>/<purpose>-<pid>-<random>`. A process
 * that crashed leaves its directory behind; removeOrphanedDirectories clears those.
 */
export function processDirectory(parent: string, purpose: string, random: string): string {
  return join(parent, `${purpose}-${process.pid}-${random}`)
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/** Removes the process directories under `parent` whose process is no longer running. */
export async function removeOrphanedDirectories(parent: string, purposes: readonly string[]): Promise<number> {
  let names: string[]
  try {
    names = await readdir(parent)
  } catch {
    return 0
  }
  let removed = 0
  for (const name of names) {
    const match = /^([a-z]+)-(\d+)-[A-Za-z0-9]+$/.exec(name)
    if (!match || !purposes.includes(match[1] ?? '')) continue
    const pid = Number(match[2])
    if (pid === process.pid || isRunning(pid)) continue
    await rm(join(parent, name), { recursive: true, force: true })
    removed += 1
  }
  return removed
}
