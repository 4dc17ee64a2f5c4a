import { type ChildProcess, spawn } from 'node:child_process'
import { createServer } from 'node:net'
import { resolve } from 'node:path'

/** The repository root: spawned processes run from here, like `npm run lantern`. */
export const ROOT = resolve(import.meta.dirname, '../..')

const CLI = ['--import', 'tsx', 'src/cli/index.ts']

export type ProcessEnv = Record<string, string | undefined>

/**
 * The environment of a spawned `lantern`: this process's environment without any LANTERN_* or
 * PORT/HOST setting (so the test decides every one of them), plus `extra`.
 */
export function lanternEnv(extra: ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {}
  for (const [name, value] of Object.entries(process.env)) {
    if (name.startsWith('LANTERN_') || name === 'PORT' || name === 'HOST') continue
    env[name] = value
  }
  for (const [name, value] of Object.entries(extra)) {
    if (value !== undefined) env[name] = value
  }
  return env
}

/** The store settings of a spawned process: a data dir, plus the PostgreSQL URL when given one. */
export function storeEnv(dataDir: string, databaseUrl?: string): ProcessEnv {
  return { LANTERN_DATA_DIR: dataDir, LANTERN_DATABASE_URL: databaseUrl || undefined }
}

export interface CliResult {
  readonly code: number | null
  readonly stdout: string
  readonly stderr: string
  /** True when the process was still running after `timeoutMs` and was killed. */
  readonly timedOut: boolean
}

/**
 * Runs `lantern <args>` as a real process (through tsx) and collects its output and exit code.
 * With `timeoutMs`, a process still running then is killed and the result says so.
 */
export function runCli(
  args: readonly string[],
  env: ProcessEnv = {},
  options: { readonly timeoutMs?: number } = {},
): Promise<CliResult> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [...CLI, ...args], {
      cwd: ROOT,
      env: lanternEnv(env),
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let stdout = ''
    let stderr = ''
    let timedOut = false
    const timer =
      options.timeoutMs === undefined
        ? undefined
        : setTimeout(() => {
            timedOut = true
            child.kill('SIGKILL')
          }, options.timeoutMs)
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk
    })
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk
    })
    child.on('error', (error) => {
      clearTimeout(timer)
      reject(error)
    })
    child.on('close', (code) => {
      clearTimeout(timer)
      resolvePromise({ code, stdout, stderr, timedOut })
    })
  })
}

/** Runs `lantern admin <args> --json`, expects exit 0 and returns the parsed JSON output. */
export async function adminJson<T = any>(args: readonly string[], env: ProcessEnv): Promise<T> {
  const result = await runCli(['admin', ...args, '--json'], env)
  if (result.code !== 0) {
    throw new Error(`lantern admin ${args.join(' ')} exited ${result.code}: ${result.stderr}${result.stdout}`)
  }
  return JSON.parse(result.stdout) as T
}

/** A loopback port that was free a moment ago (the server binds it right after). */
export function freePort(): Promise<number> {
  return new Promise((resolvePromise, reject) => {
    const server = createServer()
    server.unref()
    server.on('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      const port = typeof address === 'object' && address ? address.port : 0
      server.close(() => resolvePromise(port))
    })
  })
}

/** One parsed pino line of a spawned server. */
export type LogLine = Record<string, unknown> & { msg?: string }

/** A spawned `lantern serve` with its output captured. */
export class ServeProcess {
  stdout = ''
  stderr = ''
  exitCode: number | null | undefined
  readonly origin: string
  private readonly child: ChildProcess
  private readonly exited: Promise<number | null>
  private readonly waiters = new Set<() => void>()

  private constructor(
    readonly port: number,
    env: ProcessEnv,
  ) {
    this.origin = `http://127.0.0.1:${port}`
    this.child = spawn(process.execPath, [...CLI, 'serve'], {
      cwd: ROOT,
      // No embedded ingestion workers unless the test asks: on the run's shared PostgreSQL database
      // they would process documents other test files are looking at.
      env: lanternEnv({
        LANTERN_LOG_LEVEL: 'info',
        LANTERN_WORKERS: '0',
        ...env,
        PORT: String(port),
        HOST: '127.0.0.1',
      }),
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    this.child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      this.stdout += chunk
      this.notify()
    })
    this.child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
      this.stderr += chunk
      this.notify()
    })
    this.exited = new Promise((resolvePromise) => {
      this.child.on('close', (code) => {
        this.exitCode = code
        this.notify()
        resolvePromise(code)
      })
    })
  }

  /** Spawns `lantern serve` on a free port and waits until it logs that it listens. */
  static async start(env: ProcessEnv, timeoutMs = 30_000): Promise<ServeProcess> {
    const server = new ServeProcess(await freePort(), env)
    await server.waitForLog((line) => line.msg === 'lantern is listening', timeoutMs)
    return server
  }

  get pid(): number | undefined {
    return this.child.pid
  }

  /** Every JSON log line written so far (other stdout text, like the first-start banner, is skipped). */
  logLines(): LogLine[] {
    const lines: LogLine[] = []
    for (const text of this.stdout.split('\n')) {
      if (!text.startsWith('{"level"')) continue
      try {
        lines.push(JSON.parse(text) as LogLine)
      } catch {
        // a line still being written
      }
    }
    return lines
  }

  /** Resolves with the first log line matching; rejects if the process exits or time runs out first. */
  async waitForLog(match: (line: LogLine) => boolean, timeoutMs = 15_000): Promise<LogLine> {
    return this.waitFor(() => this.logLines().find(match), timeoutMs, 'log line')
  }

  /** Resolves when stdout matches; rejects if the process exits or time runs out first. */
  async waitForOutput(pattern: RegExp, timeoutMs = 15_000): Promise<RegExpMatchArray> {
    return this.waitFor(() => this.stdout.match(pattern) ?? undefined, timeoutMs, `output ${pattern}`)
  }

  private waitFor<T>(probe: () => T | undefined, timeoutMs: number, what: string): Promise<T> {
    return new Promise((resolvePromise, reject) => {
      const check = () => {
        const found = probe()
        if (found !== undefined) return done(() => resolvePromise(found))
        if (this.exitCode !== undefined) {
          return done(() => reject(new Error(`serve exited (${this.exitCode}) before ${what}:\n${this.output()}`)))
        }
      }
      const timer = setTimeout(
        () => done(() => reject(new Error(`timed out waiting for ${what}:\n${this.output()}`))),
        timeoutMs,
      )
      const done = (settle: () => void) => {
        clearTimeout(timer)
        this.waiters.delete(check)
        settle()
      }
      this.waiters.add(check)
      check()
    })
  }

  private notify(): void {
    for (const waiter of [...this.waiters]) waiter()
  }

  /** stdout and stderr, for failure messages. */
  output(): string {
    return `--- stdout ---\n${this.stdout}\n--- stderr ---\n${this.stderr}`
  }

  /** Sends a signal without waiting. */
  signal(signal: NodeJS.Signals): void {
    this.child.kill(signal)
  }

  /** Resolves with the exit code once the process has ended. */
  waitForExit(): Promise<number | null> {
    return this.exited
  }

  /** SIGTERM, then the exit code; SIGKILL if it has not ended within `timeoutMs`. */
  async stop(timeoutMs = 15_000): Promise<number | null> {
    if (this.exitCode !== undefined) return this.exitCode
    this.child.kill('SIGTERM')
    const timer = setTimeout(() => this.child.kill('SIGKILL'), timeoutMs)
    try {
      return await this.exited
    } finally {
      clearTimeout(timer)
    }
  }
}
