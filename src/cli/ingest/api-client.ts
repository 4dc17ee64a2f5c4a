import { openAsBlob } from 'node:fs'
import { multipartBody } from './multipart.js'

/** What the token endpoint needs. */
export interface ClientCredentials {
  readonly appName: string
  readonly clientId: string
  readonly clientSecret: string
}

/** An error answer of the API, with the problem's `code` and `detail` when it sent a problem body. */
export class ApiError extends Error {
  override readonly name = 'ApiError'

  constructor(
    readonly status: number,
    readonly code: string,
    readonly detail: string,
  ) {
    super(`${status} ${code}: ${detail}`)
  }
}

/** The server could not be reached at all (refused, unknown host, no route): retrying a file is pointless. */
export class UnreachableError extends Error {
  override readonly name = 'UnreachableError'
}

/** A failure of the request itself that is not about reaching the server (a file read error, a reset). */
export class TransferError extends Error {
  override readonly name = 'TransferError'
}

const UNREACHABLE = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EADDRNOTAVAIL',
  'UND_ERR_CONNECT_TIMEOUT',
])

function causeOf(error: unknown): { code?: string; message: string } {
  const cause = (error as { cause?: unknown } | null)?.cause ?? error
  // Connecting to a host name with several addresses fails with an AggregateError of them all.
  const first = cause instanceof AggregateError ? cause.errors[0] : cause
  const code = (first as { code?: unknown } | null)?.code
  const message = first instanceof Error ? first.message : String(first)
  return { code: typeof code === 'string' ? code : undefined, message }
}

/** A knowledge-base list entry (spec 2.7), the fields this client reads. */
export interface KbEntry {
  readonly id: string
  readonly object_name: string
  readonly is_file: boolean
}

export interface Tag {
  readonly id: string
  readonly name: string
}

/** The processing state of a document (spec 2.7). */
export interface ProcessingState {
  readonly state: 'PENDING' | 'PROCESSING' | 'PROCESSED' | 'ERROR'
  readonly errorDetails: string
}

export interface UploadFields {
  /** Target folder. */
  readonly path: string
  /** Tag ids; undefined sends no `tags` field (an overwrite then keeps the document's tags). */
  readonly tags: readonly string[] | undefined
  readonly overwrite: boolean
}

type Query = Record<string, string | number>

const PAGE = 100

interface RequestInitLite {
  readonly query?: Query
  readonly json?: unknown
  /** Built anew for each attempt (a retry after a token refresh sends the body again). */
  readonly body?: () => Promise<{ body: Blob; contentType: string }>
}

/**
 * A client of the Lantern HTTP API (`<origin>/apif/v2`) for one API client's credentials. It
 * obtains a token on `connect`, and obtains a new one once when a request answers 401 because the
 * token expired during a long run. Error answers throw ApiError; an unreachable server throws
 * UnreachableError.
 */
export class LanternApi {
  private token = ''
  private companyId = ''
  private renewal: Promise<void> | undefined

  private constructor(
    readonly origin: string,
    private readonly credentials: ClientCredentials,
  ) {}

  /** Gets a token and the caller's company id; throws ApiError (401 for wrong credentials). */
  static async connect(origin: string, credentials: ClientCredentials): Promise<LanternApi> {
    const api = new LanternApi(origin, credentials)
    await api.authenticate()
    const company = await api.call<{ id: string }>('GET', '/auth/company')
    api.companyId = company.id
    return api
  }

  private async authenticate(): Promise<void> {
    const { appName, clientId, clientSecret } = this.credentials
    const issued = await this.call<{ access_token: string }>(
      'POST',
      '/auth/token',
      { json: { app_name: appName, client_id: clientId, client_secret: clientSecret } },
      false,
    )
    this.token = issued.access_token
  }

  private async call<T>(method: string, path: string, init: RequestInitLite = {}, authorized = true): Promise<T> {
    return (await this.exchange<T>(method, path, init, authorized)).body
  }

  private async exchange<T>(
    method: string,
    path: string,
    init: RequestInitLite,
    authorized = true,
  ): Promise<{ status: number; body: T }> {
    const tokenUsed = this.token
    let response = await this.send(method, path, init, authorized)
    if (authorized && response.status === 401) {
      await response.body?.cancel()
      // Concurrent requests refused with the same expired token share one renewal.
      if (this.token === tokenUsed) {
        this.renewal ??= this.authenticate().finally(() => {
          this.renewal = undefined
        })
        await this.renewal
      }
      response = await this.send(method, path, init, authorized)
    }
    const text = await response.text()
    if (!response.ok) throw problemOf(response, text)
    return { status: response.status, body: (text ? JSON.parse(text) : undefined) as T }
  }

  private async send(method: string, path: string, init: RequestInitLite, authorized: boolean): Promise<Response> {
    const url = new URL(`${this.origin}/apif/v2${path}`)
    for (const [key, value] of Object.entries(init.query ?? {})) url.searchParams.set(key, String(value))
    const headers: Record<string, string> = {}
    if (authorized) headers.authorization = `Bearer ${this.token}`
    let body: Blob | string | undefined
    if (init.json !== undefined) {
      headers['content-type'] = 'application/json'
      body = JSON.stringify(init.json)
    } else if (init.body) {
      const built = await init.body()
      headers['content-type'] = built.contentType
      body = built.body
    }
    try {
      // `redirect: 'error'`: a request that may follow a redirect keeps a copy of its body to resend,
      // which would hold a whole uploaded file in memory.
      return await fetch(url, { method, headers, body, redirect: 'error' })
    } catch (error) {
      const cause = causeOf(error)
      if (cause.code && UNREACHABLE.has(cause.code)) {
        throw new UnreachableError(`cannot reach ${this.origin}: ${cause.message}`)
      }
      throw new TransferError(cause.message)
    }
  }

  /** Names of the files directly in `folder`; empty when the folder does not exist yet. */
  async fileNames(folder: string): Promise<Set<string>> {
    const names = new Set<string>()
    for (let offset = 0; ; offset += PAGE) {
      let page: KbEntry[]
      try {
        page = await this.call<KbEntry[]>('GET', `/company/${this.companyId}/knowledge-base`, {
          query: { path: folder, offset, limit: PAGE },
        })
      } catch (error) {
        if (error instanceof ApiError && error.status === 404) return names
        throw error
      }
      for (const entry of page) {
        if (entry.is_file) names.add(entry.object_name.slice(entry.object_name.lastIndexOf('/') + 1))
      }
      if (page.length < PAGE) return names
    }
  }

  /** The tag named `name`, ignoring case, if the company has one. */
  async findTag(name: string): Promise<Tag | undefined> {
    const wanted = name.toLowerCase()
    for (let offset = 0; ; offset += PAGE) {
      const page = await this.call<Tag[]>('GET', `/company/${this.companyId}/knowledge-base/tags`, {
        query: { search: name, offset, limit: PAGE },
      })
      const found = page.find((tag) => tag.name.toLowerCase() === wanted)
      if (found) return found
      if (page.length < PAGE) return undefined
    }
  }

  async createTag(name: string): Promise<Tag> {
    return this.call<Tag>('POST', `/company/${this.companyId}/knowledge-base/tags`, { json: { name } })
  }

  /**
   * Uploads the file at `filePath` under the name `name`, streaming it from disk. Resolves with
   * the document id and whether it is a new document (201) rather than a replaced one (200).
   */
  async upload(filePath: string, name: string, fields: UploadFields): Promise<{ id: string; created: boolean }> {
    const form: Array<readonly [string, string]> = [['path', fields.path]]
    for (const tag of fields.tags ?? []) form.push(['tags', tag])
    if (fields.overwrite) form.push(['overwrite', 'true'])
    const answer = await this.exchange<{ id: string }>('POST', `/company/${this.companyId}/knowledge-base`, {
      body: async () => multipartBody(form, { field: 'files', name, blob: await openAsBlob(filePath) }),
    })
    return { id: answer.body.id, created: answer.status === 201 }
  }

  /** The processing state of document `id`. */
  async processing(id: string): Promise<ProcessingState> {
    const document = await this.call<{
      processing?: { embedding_state: ProcessingState['state']; error_details: string }
    }>('GET', `/company/${this.companyId}/knowledge-base/${id}`)
    if (!document.processing) return { state: 'ERROR', errorDetails: 'the document was replaced by a folder' }
    return { state: document.processing.embedding_state, errorDetails: document.processing.error_details }
  }
}

function problemOf(response: Response, text: string): ApiError {
  let problem: { code?: unknown; detail?: unknown } = {}
  try {
    problem = JSON.parse(text) as typeof problem
  } catch {
    // not a problem document (a proxy's HTML page, for instance)
  }
  const code = typeof problem.code === 'string' ? problem.code : `http_${response.status}`
  const detail = typeof problem.detail === 'string' ? problem.detail : text.slice(0, 200) || response.statusText
  return new ApiError(response.status, code, detail)
}
