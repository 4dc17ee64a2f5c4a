import { spawn } from 'node:child_process'
import { mkdtemp, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { commandWorks } from '../../lib/command-probe.js'
import { IngestError, ingestErrors } from '../errors.js'

/** Whether LibreOffice's `soffice` runs here (`soffice --version`); asked once per process. */
export function libreOfficeRuns(command = 'soffice'): boolean {
  return commandWorks(
    command,
    ['--headless', '--version'],
    30_000,
    (probe) => probe.status === 0 && /LibreOffice/u.test(probe.stdout),
  )
}

/**
 * The file LibreOffice writes from `path` in `format` (`xlsx`, `pptx`, `docx`), in a temporary
 * folder of its own, with a user profile of its own so that conversions run side by side. The
 * caller reads it, then calls `cleanup`. A conversion that fails or writes nothing is a permanent
 * IngestError naming LibreOffice's message; one over `timeoutMs` is killed.
 */
export async function convertWithLibreOffice(
  command: string,
  path: string,
  format: string,
  timeoutMs: number,
): Promise<{ path: string; cleanup: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'lantern-soffice-'))
  const cleanup = () => rm(dir, { recursive: true, force: true })
  try {
    const out = join(dir, 'out')
    const args = [
      '--headless',
      '--norestore',
      `-env:UserInstallation=${pathToFileURL(join(dir, 'profile')).href}`,
      '--convert-to',
      format,
      '--outdir',
      out,
      path,
    ]
    const { code, output } = await run(command, args, timeoutMs)
    const written = await readdir(out).catch(() => [] as string[])
    const file = written.find((name) => name.toLowerCase().endsWith(`.${format}`))
    if (code !== 0 || !file) {
      const said = output.trim().split('\n').at(-1)?.slice(0, 300) ?? ''
      throw new IngestError(`LibreOffice could not read this file${said ? ` (${said})` : ''}`, true)
    }
    return { path: join(out, file), cleanup }
  } catch (error) {
    await cleanup()
    throw error
  }
}

function run(
  command: string,
  args: readonly string[],
  timeoutMs: number,
): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], windowsHide: true })
    let output = ''
    const collect = (chunk: Buffer) => {
      if (output.length < 16_384) output += chunk.toString('utf8')
    }
    child.stdout.on('data', collect)
    child.stderr.on('data', collect)
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
      reject(ingestErrors.limit(`LibreOffice took longer than ${Math.round(timeoutMs / 1000)} s to convert this file`))
    }, timeoutMs)
    child.on('error', (error) => {
      clearTimeout(timer)
      reject(error)
    })
    child.on('close', (code) => {
      clearTimeout(timer)
      resolve({ code, output })
    })
  })
}
