import { execFile } from 'node:child_process'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { ROOT } from './data.js'
import type { Credentials, ServerRuntime } from './server.js'

const run = promisify(execFile)

/** What `lantern admin company create --json` prints: a new company and its first API client. */
export interface CompanyCredentials extends Credentials {
  readonly company_id: string
}

/**
 * Runs `lantern admin <args>` on the data folder of a benchmark's service, with the same runtime
 * as the service (built JS or the TypeScript source) and none of the caller's LANTERN_* settings,
 * as BenchServer starts the service; resolves with what it printed.
 */
export async function lanternAdmin(runtime: ServerRuntime, dataDir: string, args: readonly string[]): Promise<string> {
  const entry =
    runtime === 'source' ? ['--import', 'tsx', join(ROOT, 'src/cli/index.ts')] : [join(ROOT, 'dist/cli/index.js')]
  const env: NodeJS.ProcessEnv = {}
  for (const [name, value] of Object.entries(process.env)) if (!name.startsWith('LANTERN_')) env[name] = value
  env.LANTERN_DATA_DIR = dataDir
  env.LANTERN_LOG_LEVEL = 'warn'
  const { stdout } = await run(process.execPath, [...entry, 'admin', ...args], { cwd: ROOT, env })
  return stdout
}

/** Creates a company (tenant) with a licence of `questionsMax` questions; resolves with its client credentials. */
export async function createCompany(
  runtime: ServerRuntime,
  dataDir: string,
  name: string,
  questionsMax: number,
): Promise<CompanyCredentials> {
  const printed = await lanternAdmin(runtime, dataDir, [
    'company',
    'create',
    '--name',
    name,
    '--questions-max',
    String(questionsMax),
    '--json',
  ])
  const line = printed
    .trim()
    .split('\n')
    .findLast((text) => text.startsWith('{'))
  if (!line) throw new Error(`lantern admin company create printed no JSON:\n${printed}`)
  return JSON.parse(line) as CompanyCredentials
}
