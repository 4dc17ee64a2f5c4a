import { openAsBlob } from 'node:fs'
import { createLanternClient, type LanternClient, type operations } from '../../client/index.js'
import { type MultipartBody, multipartBody } from './multipart.js'

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

/** A request that did not get an answer: the server unreachable, or the transfer failed. */
function noAnswer(origin: string, error: unknown): Error {
  const cause = causeOf(error)
  if (cause.code && UNREACHABLE.has(cause.code)) return new UnreachableError(`cannot reach ${origin}: ${cause.message}`)
  return new TransferError(cause.message)
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

/** The fields of an upload (POST /company/<company_id>/knowledge-base), as the OpenAPI document types them. */
type UploadBody = operations['uploadDocument']['requestBody']['content']['multipart/form-data']

/** What a call of the typed client resolves with: `data` on a 2xx answer, else `error` (the body). */
interface Answer<T> {
  readonly data?: T
  readonly error?: unknown
  readonly response: Response
}

const PAGE = 100

/**
 * A client of the Lantern HTTP API (`<origin>/apif/v2`) for one API client's credentials, over
 * the typed client (src/client). It obtains a token on `connect`, and obtains a new one once when
 * a request answers 401 because the token expired during a long run. Error answers throw
 * ApiError; an unreachable server throws UnreachableError.
 */
export class LanternApi {
  private token = ''
  private companyId = ''
  private renewal: Promise<void> | undefined
  /** Sends the current token. */
  private readonly client: LanternClient
  /** Sends none: the token request. */
  private readonly anonymous: LanternClient

  private constructor(
    readonly origin: string,
    private readonly credentials: ClientCredentials,
  ) {
    // `redirect: 'error'`: a request that may follow a redirect keeps a copy of its body to resend,
    // which would hold a whole uploaded file in memory.
    this.client = createLanternClient({ baseUrl: origin, redirect: 'error', token: () => this.token })
    this.anonymous = createLanternClient({ baseUrl: origin, redirect: 'error' })
    for (const client of [this.client, this.anonymous]) client.use({ onError: ({ error }) => noAnswer(origin, error) })
  }

  /** Gets a token and the caller's company id; throws ApiError (401 for wrong credentials). */
  static async connect(origin: string, credentials: ClientCredentials): Promise<LanternApi> {
    const api = new LanternApi(origin, credentials)
    await api.authenticate()
    const company = await api.call(() => api.client.GET('/apif/v2/auth/company'))
    api.companyId = company.id
    return api
  }

  private async authenticate(): Promise<void> {
    const { appName, clientId, clientSecret } = this.credentials
    const issued = await this.call(
      () =>
        this.anonymous.POST('/apif/v2/auth/token', {
          body: { app_name: appName, client_id: clientId, client_secret: clientSecret },
        }),
      false,
    )
    this.token = issued.access_token
  }

  /** The body of the 2xx answer to `request`; see `exchange`. */
  private async call<T>(request: () => Promise<Answer<T>>, authorized = true): Promise<T> {
    return (await this.exchange(request, authorized)).data
  }

  /**
   * Sends `request`, made anew for each attempt: a second time with a new token when the first
   * answers 401. Throws ApiError for an error answer.
   */
  private async exchange<T>(
    request: () => Promise<Answer<T>>,
    authorized = true,
  ): Promise<{ status: number; data: T }> {
    const tokenUsed = this.token
    let answer = await request()
    if (authorized && answer.response.status === 401) {
      // Concurrent requests refused with the same expired token share one renewal.
      if (this.token === tokenUsed) {
        this.renewal ??= this.authenticate().finally(() => {
          this.renewal = undefined
        })
        await this.renewal
      }
      answer = await request()
    }
    if (!answer.response.ok) throw problemOf(answer.response, answer.error)
    return { status: answer.response.status, data: answer.data as T }
  }

  /** Names of the files directly in `folder`; empty when the folder does not exist yet. */
  async fileNames(folder: string): Promise<Set<string>> {
    const names = new Set<string>()
    for (let offset = 0; ; offset += PAGE) {
      let page: ReadonlyArray<{ readonly object_name: string; readonly is_file: boolean }>
      try {
        page = await this.call(() =>
          this.client.GET('/apif/v2/company/{company_id}/knowledge-base', {
            params: {
              path: { company_id: this.companyId },
              query: { path: folder, offset, limit: PAGE },
            },
          }),
        )
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
      const page = await this.call(() =>
        this.client.GET('/apif/v2/company/{company_id}/knowledge-base/tags', {
          params: { path: { company_id: this.companyId }, query: { search: name, offset, limit: PAGE } },
        }),
      )
      const found = page.find((tag) => tag.name.toLowerCase() === wanted)
      if (found) return found
      if (page.length < PAGE) return undefined
    }
  }

  async createTag(name: string): Promise<Tag> {
    return this.call(() =>
      this.client.POST('/apif/v2/company/{company_id}/knowledge-base/tags', {
        params: { path: { company_id: this.companyId } },
        body: { name },
      }),
    )
  }

  /**
   * Uploads the file at `filePath` under the name `name`, streaming it from disk. Resolves with
   * the document id and whether it is a new document (201) rather than a replaced one (200).
   */
  async upload(filePath: string, name: string, fields: UploadFields): Promise<{ id: string; created: boolean }> {
    const body: UploadBody = {
      files: await openAsBlob(filePath),
      path: fields.path,
      tags: fields.tags && [...fields.tags],
      overwrite: fields.overwrite || undefined,
    }
    const form = multipartOf(body, name)
    const answer = await this.exchange(() =>
      this.client.POST('/apif/v2/company/{company_id}/knowledge-base', {
        params: { path: { company_id: this.companyId } },
        body,
        bodySerializer: () => form.body,
        headers: { 'content-type': form.contentType },
      }),
    )
    return { id: answer.data.id, created: answer.status === 201 }
  }

  /** The processing state of document `id`. */
  async processing(id: string): Promise<ProcessingState> {
    const document = await this.call(() =>
      this.client.GET('/apif/v2/company/{company_id}/knowledge-base/{object_id}', {
        params: { path: { company_id: this.companyId, object_id: id } },
      }),
    )
    if (!document.is_file) return { state: 'ERROR', errorDetails: 'the document was replaced by a folder' }
    return { state: document.processing.embedding_state, errorDetails: document.processing.error_details }
  }
}

/**
 * The multipart body of an upload: the text fields (`tags` repeated, `overwrite` only when true),
 * then the file, named `name`. Built by multipart.ts rather than the platform FormData, which would
 * percent-encode a `"` in the file name (see there); the file is read from disk as it is sent.
 */
function multipartOf(body: UploadBody, name: string): MultipartBody {
  const fields: Array<readonly [string, string]> = []
  if (body.path !== undefined) fields.push(['path', body.path])
  for (const tag of body.tags ?? []) fields.push(['tags', tag])
  if (body.overwrite) fields.push(['overwrite', 'true'])
  return multipartBody(fields, { field: 'files', name, blob: body.files })
}

/** The ApiError of an error answer: the problem's `code` and `detail`, else the status and the body's start. */
function problemOf(response: Response, body: unknown): ApiError {
  const problem = (typeof body === 'object' && body !== null ? body : {}) as { code?: unknown; detail?: unknown }
  const text = typeof body === 'string' ? body : body === undefined ? '' : JSON.stringify(body)
  const code = typeof problem.code === 'string' ? problem.code : `http_${response.status}`
  const detail = typeof problem.detail === 'string' ? problem.detail : text.slice(0, 200) || response.statusText
  return new ApiError(response.status, code, detail)
}
