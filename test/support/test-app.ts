import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { FastifyInstance } from 'fastify'
import pino from 'pino'
import { type AppContext, buildAppContext } from '../../src/app-context.js'
import { type Config, loadConfig } from '../../src/config.js'
import { buildServer } from '../../src/http/server.js'
import type { Clock } from '../../src/lib/clock.js'
import { pgUrl, type StoreMode } from './store-modes.js'

export interface ApiResponse<T = any> {
  status: number
  headers: Headers
  body: T
  text: string
}

export interface RequestOptions {
  token?: string
  json?: unknown
  body?: RequestInit['body']
  headers?: Record<string, string>
}

export interface TestApp {
  readonly mode: StoreMode
  readonly ctx: AppContext
  readonly app: FastifyInstance
  /** `http://127.0.0.1:<port>` */
  readonly origin: string
  /** A real HTTP request to `/apif/v2<path>` (or to `path` as is when it starts with `http` or `!`). */
  request<T = any>(method: string, path: string, options?: RequestOptions): Promise<ApiResponse<T>>
  close(): Promise<void>
}

export interface TestAppOptions {
  readonly config?: Partial<Config>
  readonly clock?: Clock
  /** A built web console to serve at `/` (default: the repository's dist/web, if built). */
  readonly consoleDir?: string
}

/** Starts the real server on a free loopback port over a fresh SQLite dir or the run's PostgreSQL. */
export async function startTestApp(mode: StoreMode, options: TestAppOptions = {}): Promise<TestApp> {
  const dataDir = mkdtempSync(join(tmpdir(), 'lantern-test-'))
  const config = loadConfig(
    {},
    {
      dataDir,
      databaseUrl: mode === 'postgres' ? pgUrl() : undefined,
      port: 0,
      pgPoolSize: 4,
      logLevel: 'silent',
      // Tests mint many tokens from one address; the limit has its own test.
      tokenRateLimitPerMinute: 0,
      ...options.config,
    },
  )
  const ctx = await buildAppContext(config, { migrate: true, clock: options.clock })
  const app = await buildServer(ctx, pino({ level: 'silent' }), { consoleDir: options.consoleDir })
  const origin = await app.listen({ host: '127.0.0.1', port: 0 })

  async function request<T>(method: string, path: string, opts: RequestOptions = {}): Promise<ApiResponse<T>> {
    const headers: Record<string, string> = { ...opts.headers }
    if (opts.token) headers.authorization = `Bearer ${opts.token}`
    let body = opts.body
    if (opts.json !== undefined) {
      headers['content-type'] ??= 'application/json'
      body = JSON.stringify(opts.json)
    }
    const url = path.startsWith('http')
      ? path
      : path.startsWith('!')
        ? `${origin}${path.slice(1)}`
        : `${origin}/apif/v2${path}`
    const response = await fetch(url, { method, headers, body })
    const text = await response.text()
    const type = response.headers.get('content-type') ?? ''
    const parsed = type.includes('json') && text ? JSON.parse(text) : text
    return { status: response.status, headers: response.headers, body: parsed as T, text }
  }

  return {
    mode,
    ctx,
    app,
    origin,
    request,
    close: async () => {
      await app.close()
      await ctx.close()
      rmSync(dataDir, { recursive: true, force: true })
    },
  }
}
