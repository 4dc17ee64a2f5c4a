import { execFile, spawn as spawnProcess, spawnSync } from 'node:child_process'
import { promisify } from 'node:util'

const run = promisify(execFile)

/** True when poppler-utils' `pdftotext` and `pdfinfo` are on the PATH. */
export function hasPoppler(): boolean {
  const found = (tool: string) => spawnSync('sh', ['-c', `command -v ${tool}`], { stdio: 'ignore' }).status === 0
  return found('pdftotext') && found('pdfinfo')
}

export const POPPLER_HINT = 'install poppler-utils (apt-get install poppler-utils) for the baseline'

/** The page count `pdfinfo` reports, or undefined when it cannot open the file. */
export async function pdfPages(file: string): Promise<number | undefined> {
  try {
    const { stdout } = await run('pdfinfo', [file])
    const match = /^Pages:\s+(\d+)/m.exec(stdout)
    return match?.[1] ? Number(match[1]) : undefined
  } catch {
    return undefined
  }
}

/** The text `pdftotext` extracts from pages `first`..`last` (1-based) of `file`. */
export async function pdfText(file: string, first?: number, last?: number): Promise<string> {
  const range = first === undefined ? [] : ['-f', String(first), '-l', String(last ?? first)]
  const { stdout } = await run('pdftotext', ['-q', ...range, file, '-'], { maxBuffer: 256 * 1024 * 1024 })
  return stdout
}

/**
 * Runs `pdftotext` on every file, `parallel` processes at a time, and resolves with the wall time
 * in milliseconds. The text goes to /dev/null: the work measured is the extraction.
 */
export async function timePdftotext(files: readonly string[], parallel: number): Promise<number> {
  const started = performance.now()
  let next = 0
  const lane = async () => {
    for (let file = files[next++]; file !== undefined; file = files[next++]) {
      await new Promise<void>((resolve) => {
        const child = spawnProcess('pdftotext', ['-q', file, '/dev/null'])
        child.on('close', () => resolve())
        child.on('error', () => resolve())
      })
    }
  }
  await Promise.all(Array.from({ length: parallel }, lane))
  return performance.now() - started
}
