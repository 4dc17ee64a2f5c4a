import { type ChildProcess, spawn } from 'node:child_process'
import { createWriteStream, existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { copyFile, mkdir, mkdtemp, readFile, rm } from 'node:fs/promises'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { ROOT } from './data.js'
import { RssSampler } from './rss.js'

/** How the service is started: the built JS (`npm run build`) or the TypeScript source through tsx. */
export type ServerRuntime = 'dist' | 'source'

export interface ServerOptions {
  readonly runtime: ServerRuntime
  /** LANTERN_WORKERS: embedded ingestion workers (threads of the server process). */
  readonly workers: number
  /** Extra LANTERN_* settings (time budget, lease…). */
  readonly env?: Readonly<Record<string, string>>
  /** LANTERN_LOG_LEVEL (default warn; `info` also logs each request and the shutdown signal). */
  readonly logLevel?: 'info' | 'warn'
  /** Keep the temporary data folder (database, blobs, server.log) after `stop`. */
  readonly keep?: boolean
  /** Start on this existing data folder (one kept by an earlier run) instead of a fresh one; it is kept. */
  readonly dataDir?: string
}

/** What the server's first start wrote to `<dataDir>/credentials.json`. */
export interface Credentials {
  readonly app_name: string
  readonly client_id: string
  readonly client_secret: string
}

function freePort(): Promise<number> {
  return new Promise((resolvePromise, reject) => {
    const server = createServer()
    server.on('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      const port = typeof address === 'object' && address ? address.port : 0
      server.close(() => resolvePromise(port))
    })
  })
}

/** The newest modification time of the TypeScript sources, to warn about a stale build. */
function newestSource(dir: string): number {
  let newest = 0
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(path))
    else if (entry.name.endsWith('.ts')) newest = Math.max(newest, statSync(path).mtimeMs)
  }
  return newest
}

function entryArgs(runtime: ServerRuntime): string[] {
  // BENCH_NODE_ARGS: extra node options for the service only, e.g. "--cpu-prof --cpu-prof-dir=.tmp/prof".
  const nodeArgs = process.env.BENCH_NODE_ARGS?.split(/\s+/u).filter(Boolean) ?? []
  if (runtime === 'source') return [...nodeArgs, '--import', 'tsx', join(ROOT, 'src/cli/index.ts'), 'serve']
  const built = join(ROOT, 'dist/cli/index.js')
  if (!existsSync(built)) throw new Error(`${built} does not exist: run "npm run build" first, or pass --server source`)
  if (newestSource(join(ROOT, 'src')) > statSync(built).mtimeMs) {
    console.warn('warning: src/ has files newer than dist/; run "npm run build" to measure the current code')
  }
  return [...nodeArgs, built, 'serve']
}

/**
 * A real `lantern serve` in a child process, on a fresh temporary data folder (embedded SQLite)
 * and a free loopback port, with its output in `<dataDir>/server.log` and its resident memory
 * sampled from /proc while it runs.
 */
export class BenchServer {
  exitCode: number | null | undefined
  exitSignal: NodeJS.Signals | null = null
  readonly rss: RssSampler
  private readonly exited: Promise<void>

  private constructor(
    readonly child: ChildProcess,
    readonly dataDir: string,
    readonly origin: string,
    private readonly keep: boolean,
  ) {
    this.rss = new RssSampler(child.pid ?? 0)
    this.exited = new Promise((resolvePromise) => {
      child.on('exit', (code, signal) => {
        this.exitCode = code
        this.exitSignal = signal
        resolvePromise()
      })
    })
  }

  /** Starts the service and resolves once `/health` answers and the first-start credentials exist. */
  static async start(options: ServerOptions, timeoutMs = 60_000): Promise<BenchServer> {
    const args = entryArgs(options.runtime)
    const dataDir = options.dataDir ?? (await mkdtemp(join(tmpdir(), 'lantern-bench-')))
    const port = await freePort()
    const env: NodeJS.ProcessEnv = {}
    for (const [name, value] of Object.entries(process.env)) {
      if (!name.startsWith('LANTERN_') && name !== 'PORT' && name !== 'HOST') env[name] = value
    }
    Object.assign(env, {
      // As `npm start` starts the service (docs/configuration.md "Memory").
      MALLOC_ARENA_MAX: process.env.MALLOC_ARENA_MAX ?? '2',
      LANTERN_LOG_LEVEL: options.logLevel ?? 'warn',
      LANTERN_TOKEN_RATE_LIMIT: '0',
      ...options.env,
      LANTERN_DATA_DIR: dataDir,
      LANTERN_WORKERS: String(options.workers),
      PORT: String(port),
      HOST: '127.0.0.1',
    })
    const log = createWriteStream(join(dataDir, 'server.log'), { flags: 'a' })
    const child = spawn(process.execPath, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] })
    child.stdout?.pipe(log, { end: false })
    child.stderr?.pipe(log, { end: false })
    const server = new BenchServer(
      child,
      dataDir,
      `http://127.0.0.1:${port}`,
      options.keep === true || options.dataDir !== undefined,
    )
    server.rss.start()
    const deadline = Date.now() + timeoutMs
    while (Date.now() < deadline) {
      if (server.exitCode !== undefined) {
        throw new Error(`the server exited (${server.exitCode}) while starting:\n${server.logTail()}`)
      }
      if (existsSync(join(dataDir, 'credentials.json')) && (await server.healthy())) return server
      await sleep(200)
    }
    await server.stop()
    throw new Error(`the server did not start within ${timeoutMs / 1000} s:\n${server.logTail()}`)
  }

  get pid(): number {
    return this.child.pid ?? 0
  }

  /** True while the process has not exited. */
  get running(): boolean {
    return this.exitCode === undefined
  }

  private async healthy(): Promise<boolean> {
    try {
      const response = await fetch(`${this.origin}/health`)
      await response.body?.cancel()
      return response.ok
    } catch {
      return false
    }
  }

  async credentials(): Promise<Credentials> {
    return JSON.parse(await readFile(join(this.dataDir, 'credentials.json'), 'utf8')) as Credentials
  }

  /** The last lines of the server's output, for error messages. */
  logTail(lines = 40): string {
    try {
      return readFileSync(join(this.dataDir, 'server.log'), 'utf8').split('\n').slice(-lines).join('\n')
    } catch {
      return '(no server log)'
    }
  }

  /** The server's JSON log lines at level error (50) or fatal (60), as written so far. */
  errorLogLines(): Array<Record<string, unknown>> {
    let text = ''
    try {
      text = readFileSync(join(this.dataDir, 'server.log'), 'utf8')
    } catch {
      return []
    }
    const lines: Array<Record<string, unknown>> = []
    for (const line of text.split('\n')) {
      if (!line.startsWith('{')) continue
      try {
        const parsed = JSON.parse(line) as Record<string, unknown>
        if (typeof parsed.level === 'number' && parsed.level >= 50) lines.push(parsed)
      } catch {
        // not JSON
      }
    }
    return lines
  }

  /**
   * SIGTERM (SIGKILL after `graceMs`), stops sampling, and removes the data folder unless kept.
   * When the server had already exited, its log is first copied to `.tmp/bench/` and named.
   */
  async stop(graceMs = 20_000): Promise<void> {
    this.rss.sampleNow()
    this.rss.stop()
    if (!this.running) {
      const saved = join(ROOT, '.tmp/bench', `server-exited-${Date.now()}.log`)
      await mkdir(dirname(saved), { recursive: true })
      await copyFile(join(this.dataDir, 'server.log'), saved).catch(() => undefined)
      console.log(`the server exited during the run (code ${this.exitCode}, signal ${this.exitSignal}); log: ${saved}`)
    } else {
      this.child.kill('SIGTERM')
      const timer = setTimeout(() => this.child.kill('SIGKILL'), graceMs)
      await this.exited
      clearTimeout(timer)
    }
    if (this.keep) console.log(`server data kept in ${this.dataDir}`)
    else await rm(this.dataDir, { recursive: true, force: true })
  }
}
