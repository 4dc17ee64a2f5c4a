import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { UsageError } from '../exit-codes.js'
import type { ClientCredentials } from './api-client.js'

/** Where the API is and who calls it. */
export interface Connection {
  /** Scheme, host and port, without `/apif/v2`: `http://127.0.0.1:8080`. */
  readonly origin: string
  readonly credentials: ClientCredentials
  /** Where the credentials came from, for messages: a file path or `the environment`. */
  readonly source: string
}

export interface ConnectionOptions {
  readonly url: string | undefined
  readonly credentialsFile: string | undefined
  /** `LANTERN_DATA_DIR`: the default credentials file is `credentials.json` in it. */
  readonly dataDir: string
  readonly env: Readonly<Record<string, string | undefined>>
}

export const DEFAULT_URL = 'http://127.0.0.1:8080'

/** `http://host:8080/apif/v2/` → `http://host:8080`; throws UsageError for anything but http(s). */
export function originOf(url: string, what = '--url'): string {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    throw new UsageError(`${what} must be a URL like ${DEFAULT_URL}, got "${url}"`)
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new UsageError(`${what} must use http:// or https://, got "${url}"`)
  }
  const path = parsed.pathname.replace(/\/+$/, '').replace(/\/apif\/v2$/, '')
  return `${parsed.origin}${path}`
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined
}

async function fromFile(
  path: string,
  explicit: boolean,
): Promise<{ credentials: ClientCredentials; baseUrl?: string }> {
  let raw: string
  try {
    raw = await readFile(path, 'utf8')
  } catch (error) {
    if ((error as { code?: unknown }).code !== 'ENOENT') throw error
    throw new UsageError(
      explicit
        ? `credentials file ${path} does not exist`
        : `no credentials: pass --credentials FILE, or set LANTERN_CLIENT_ID and LANTERN_CLIENT_SECRET (${path} does not exist)`,
    )
  }
  let json: Record<string, unknown>
  try {
    json = JSON.parse(raw) as Record<string, unknown>
  } catch {
    throw new UsageError(`credentials file ${path} is not JSON`)
  }
  const clientId = text(json?.client_id)
  const clientSecret = text(json?.client_secret)
  if (!clientId || !clientSecret) {
    throw new UsageError(`credentials file ${path} must hold client_id and client_secret (as "lantern admin" prints)`)
  }
  return {
    credentials: { appName: text(json.app_name) ?? 'lantern', clientId, clientSecret },
    baseUrl: text(json.base_url),
  }
}

/**
 * The API origin and credentials of a client command. Credentials come from `--credentials FILE`,
 * else from `LANTERN_CLIENT_ID` + `LANTERN_CLIENT_SECRET` (+ `LANTERN_APP_NAME`, default
 * `lantern`), else from `<dataDir>/credentials.json` (written by the server's first start). The
 * origin comes from `--url`, else the file's `base_url`, else DEFAULT_URL. Throws UsageError when
 * there are no usable credentials.
 */
export async function resolveConnection(options: ConnectionOptions): Promise<Connection> {
  const { env } = options
  const flagOrigin = options.url === undefined ? undefined : originOf(options.url)
  let credentials: ClientCredentials
  let baseUrl: string | undefined
  let source: string
  if (options.credentialsFile !== undefined) {
    source = options.credentialsFile
    ;({ credentials, baseUrl } = await fromFile(source, true))
  } else if (text(env.LANTERN_CLIENT_ID) || text(env.LANTERN_CLIENT_SECRET)) {
    const clientId = text(env.LANTERN_CLIENT_ID)
    const clientSecret = text(env.LANTERN_CLIENT_SECRET)
    if (!clientId || !clientSecret) throw new UsageError('set both LANTERN_CLIENT_ID and LANTERN_CLIENT_SECRET')
    credentials = { appName: text(env.LANTERN_APP_NAME) ?? 'lantern', clientId, clientSecret }
    source = 'the environment (LANTERN_CLIENT_ID, LANTERN_CLIENT_SECRET)'
  } else {
    source = join(options.dataDir, 'credentials.json')
    ;({ credentials, baseUrl } = await fromFile(source, false))
  }
  const origin = flagOrigin ?? originOf(baseUrl ?? DEFAULT_URL, `base_url in ${source}`)
  return { origin, credentials, source }
}
