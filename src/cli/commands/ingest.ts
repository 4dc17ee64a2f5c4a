import { stat } from 'node:fs/promises'
import { resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { CommandError, EXIT, UsageError } from '../exit-codes.js'
import { ApiError, LanternApi, TransferError, UnreachableError } from '../ingest/api-client.js'
import { type Connection, resolveConnection } from '../ingest/credentials.js'
import { barProgress, lineProgress, type Progress, silentProgress } from '../ingest/progress.js'
import { type Failure, type IngestSummary, summaryExitCode, summaryJson, summaryText } from '../ingest/summary.js'
import { parseTagNames, resolveTagIds } from '../ingest/tags.js'
import { uploadTree } from '../ingest/upload-tree.js'
import { waitForProcessing } from '../ingest/wait.js'
import { walkTree } from '../ingest/walk.js'

export const INGEST_USAGE = `usage: lantern ingest <dir> [--path /folder] [--tags a,b] [--overwrite] [--no-wait] [--timeout 3600]
                      [--concurrency 4] [--url http://127.0.0.1:8080] [--credentials FILE] [--json]

  Uploads every file under <dir> (dot files and symbolic links skipped) through the HTTP API into
  the folder --path (default /), mirroring sub-directories, then waits until each document is
  processed. Files already in their folder are skipped unless --overwrite, so a run can be resumed.
  --tags: tag names, created when missing. --no-wait: return once the uploads are accepted.
  --timeout: seconds to wait for processing, in all. --concurrency: uploads at a time (1 to 64).
  --url: the server, else the credentials file's base_url, else http://127.0.0.1:8080.
  --json: nothing but the final summary, as one JSON line.
  Credentials: --credentials FILE, else LANTERN_CLIENT_ID and LANTERN_CLIENT_SECRET (and
  LANTERN_APP_NAME), else $LANTERN_DATA_DIR/credentials.json.
  Exit code 0 when every file was skipped or processed, 8 when some failed (listed at the end).`

const OPTIONS = {
  path: { type: 'string', default: '/' },
  tags: { type: 'string' },
  overwrite: { type: 'boolean', default: false },
  'no-wait': { type: 'boolean', default: false },
  timeout: { type: 'string', default: '3600' },
  concurrency: { type: 'string', default: '4' },
  url: { type: 'string' },
  credentials: { type: 'string' },
  json: { type: 'boolean', default: false },
} as const

/** What `lantern ingest` needs from its process. */
export interface IngestIo {
  /** LANTERN_DATA_DIR, where the default credentials file is. */
  readonly dataDir: string
  readonly env: Readonly<Record<string, string | undefined>>
  readonly stdout: NodeJS.WriteStream
}

function wholeNumber(flag: string, raw: string, min: number, max: number): number {
  if (!/^\d+$/.test(raw.trim()) || Number(raw) < min || Number(raw) > max) {
    throw new UsageError(`--${flag} must be a whole number from ${min} to ${max}, got "${raw}"`)
  }
  return Number(raw)
}

/** `docs/a` → `/docs/a/`; refuses what the knowledge base would refuse in every upload anyway. */
function baseFolder(raw: string): string {
  const path = raw.normalize('NFC')
  const segments = path.split('/').filter((segment) => segment !== '')
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
  if (/[\\\u0000-\u001f\u007f-\u009f]/.test(path) || segments.some((s) => s === '.' || s === '..')) {
    throw new UsageError(`--path must be a folder path like /docs/2024 (no "..", backslashes or control characters)`)
  }
  return segments.length === 0 ? '/' : `/${segments.join('/')}/`
}

async function assertDirectory(dir: string): Promise<void> {
  const info = await stat(dir).catch((error: unknown) => {
    if ((error as { code?: unknown }).code === 'ENOENT') throw new UsageError(`${dir} does not exist`)
    throw error
  })
  if (!info.isDirectory()) throw new UsageError(`${dir} is not a directory`)
}

async function connect(connection: Connection): Promise<LanternApi> {
  try {
    return await LanternApi.connect(connection.origin, connection.credentials)
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) {
      throw new CommandError(
        `${connection.origin} refused the credentials from ${connection.source} (${error.code}: ${error.detail}); ` +
          'check client_id, client_secret and app_name',
      )
    }
    throw error
  }
}

function progressFor(json: boolean, stdout: NodeJS.WriteStream): Progress {
  if (json) return silentProgress
  if (stdout.isTTY) return barProgress(stdout)
  return lineProgress((line) => stdout.write(`${line}\n`))
}

/**
 * `lantern ingest <dir>`: mirrors a directory tree into the knowledge base through the HTTP API,
 * waits for processing (unless `--no-wait`), prints a summary and resolves with the exit code:
 * EXIT.ok when every file was skipped or uploaded (and processed), EXIT.partial when some failed.
 * Throws UsageError for a bad command line, CommandError for refused credentials (EXIT.failure)
 * or an unreachable server (EXIT.unavailable).
 */
export async function runIngest(args: readonly string[], io: IngestIo): Promise<number> {
  const { values, positionals } = parseArgs({ args: [...args], options: OPTIONS, allowPositionals: true })
  if (positionals.length !== 1) {
    throw new UsageError(
      `${positionals.length === 0 ? 'a directory is required' : 'one directory only'}\n\n${INGEST_USAGE}`,
    )
  }
  const directory = resolve(positionals[0] as string)
  const base = baseFolder(values.path)
  const concurrency = wholeNumber('concurrency', values.concurrency, 1, 64)
  const timeoutSeconds = wholeNumber('timeout', values.timeout, 1, 30 * 24 * 3600)
  await assertDirectory(directory)
  const connection = await resolveConnection({
    url: values.url,
    credentialsFile: values.credentials,
    dataDir: io.dataDir,
    env: io.env,
  })
  const print = (text: string) => io.stdout.write(`${text}\n`)

  try {
    const api = await connect(connection)
    const tagIds = values.tags === undefined ? undefined : await resolveTagIds(api, parseTagNames(values.tags))
    const walked = await walkTree(directory)
    if (!values.json) print(`${walked.files.length} files in ${directory} → ${base} at ${connection.origin}`)
    const progress = progressFor(values.json, io.stdout)
    const upload = await uploadTree(
      api,
      { files: walked.files, base, tagIds, overwrite: values.overwrite, concurrency },
      progress,
    )
    const waited = !values['no-wait']
    const processing =
      waited && upload.uploaded.length > 0
        ? await waitForProcessing(api, upload.uploaded, { timeoutMs: timeoutSeconds * 1000, concurrency, progress })
        : { processed: 0, failures: [] }
    const failures: Failure[] = [
      ...walked.problems.map((p) => ({
        file: p.relativePath,
        objectName: `${base}${p.relativePath}`,
        stage: 'walk' as const,
        detail: p.message,
      })),
      ...upload.failures,
      ...processing.failures,
    ].sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0))
    const summary: IngestSummary = {
      directory,
      path: base,
      files: walked.files.length,
      uploaded: upload.uploaded.length,
      replaced: upload.uploaded.filter((u) => !u.created).length,
      skipped: upload.skipped,
      processed: processing.processed,
      unfinished: waited ? 0 : upload.uploaded.length,
      waited,
      failures,
    }
    print(values.json ? JSON.stringify(summaryJson(summary)) : summaryText(summary))
    return summaryExitCode(summary)
  } catch (error) {
    if (error instanceof UnreachableError) throw new CommandError(error.message, EXIT.unavailable)
    if (error instanceof TransferError) {
      throw new CommandError(`cannot talk to ${connection.origin}: ${error.message}`, EXIT.unavailable)
    }
    if (error instanceof ApiError) throw new CommandError(`${connection.origin}: ${error.message}`)
    throw error
  }
}
