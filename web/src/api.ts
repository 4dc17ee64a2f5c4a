import { createLanternClient, type LanternClient } from '../../src/client/index'
import { readEvents } from './sse'
import { t } from './strings'

export const API = '/apif/v2'
/** The largest page the API's lists give (`limit` ≤ 100). */
const MAX_PAGE = 100

/** A refused request: the problem's `detail` is what the user reads, `code` what the console checks. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    detail: string,
  ) {
    super(detail)
  }
}

export interface RequestOptions {
  readonly json?: unknown
  readonly query?: Record<string, string | number | boolean | undefined>
  readonly accept?: string
}

/** What a typed call resolves with (openapi-fetch): the body of a 2xx answer, or the problem. */
interface TypedResult<T> {
  readonly data?: T
  readonly error?: unknown
  readonly response: Response
}

/**
 * The public HTTP API as the console uses it: the typed client generated from Lantern's OpenAPI
 * document (`client`, read through `call`) for every operation, and plain requests for what it
 * cannot do: the answer's event stream, an upload's progress, a file's bytes.
 */
export class Api {
  readonly client: LanternClient

  constructor(
    private readonly token: () => string | null,
    /** Told of a 401: the token ended or was revoked. */
    private readonly onUnauthorized: () => void,
  ) {
    this.client = createLanternClient({ baseUrl: location.origin, token: () => token() ?? undefined })
  }

  /** The body of a typed call's 2xx answer; a refusal or no answer at all is thrown as ApiError. */
  async call<T>(pending: Promise<TypedResult<T>>): Promise<T> {
    let result: TypedResult<T>
    try {
      result = await pending
    } catch {
      throw new ApiError(0, 'network', t.errors.network)
    }
    if (result.response.ok) return result.data as T
    if (result.response.status === 401) this.onUnauthorized()
    const problem = (result.error ?? {}) as { code?: string; detail?: string; title?: string }
    throw new ApiError(
      result.response.status,
      problem.code ?? 'error',
      problem.detail ?? problem.title ?? t.errors.unknown,
    )
  }

  /**
   * Every item of a paginated list, read page by page (of the largest size the API allows) until
   * a short page: for the choices a select or a set of checkboxes offers, which must be complete.
   */
  async all<T>(page: (offset: number, limit: number) => Promise<TypedResult<T[]>>): Promise<T[]> {
    const items: T[] = []
    for (let offset = 0; ; offset += MAX_PAGE) {
      const batch = await this.call(page(offset, MAX_PAGE))
      items.push(...batch)
      if (batch.length < MAX_PAGE) return items
    }
  }

  /** Every tag of the company: a tag picker or filter offers them all. */
  tags(companyId: string) {
    return this.all((offset, limit) =>
      this.client.GET('/apif/v2/company/{company_id}/knowledge-base/tags', {
        params: { path: { company_id: companyId }, query: { offset, limit } },
      }),
    )
  }

  /** The raw response, for streams and downloads; a refusal is thrown as ApiError. */
  async send(method: string, path: string, options: RequestOptions = {}): Promise<Response> {
    const url = new URL(`${API}${path}`, location.origin)
    for (const [key, value] of Object.entries(options.query ?? {})) {
      if (value !== undefined) url.searchParams.set(key, String(value))
    }
    const headers: Record<string, string> = { accept: options.accept ?? 'application/json' }
    const token = this.token()
    if (token) headers.authorization = `Bearer ${token}`
    if (options.json !== undefined) headers['content-type'] = 'application/json'
    let response: Response
    try {
      response = await fetch(url, {
        method,
        headers,
        body: options.json === undefined ? undefined : JSON.stringify(options.json),
      })
    } catch {
      throw new ApiError(0, 'network', t.errors.network)
    }
    if (!response.ok) throw await this.refusal(response)
    return response
  }

  /** Send-message as a stream: `onToken` gets the answer as it is written; resolves with the message. */
  async ask<T>(chatId: string, body: unknown, onToken: (text: string) => void): Promise<T> {
    const response = await this.send('POST', `/chat/${chatId}/messages`, { json: body, accept: 'text/event-stream' })
    if (!response.body) throw new ApiError(0, 'network', t.errors.network)
    let message: T | undefined
    for await (const event of readEvents(response.body)) {
      if (event.event === 'token') onToken((JSON.parse(event.data) as { text: string }).text)
      else if (event.event === 'message') message = JSON.parse(event.data) as T
      else if (event.event === 'error') {
        const problem = JSON.parse(event.data) as { code?: string; detail?: string }
        throw new ApiError(500, problem.code ?? 'internal', problem.detail ?? t.errors.unknown)
      }
    }
    if (message === undefined) throw new ApiError(0, 'network', t.errors.network)
    return message
  }

  /** Uploads one file with its form fields; `onProgress` gets the share sent, 0 to 1. */
  upload(
    companyId: string,
    file: File,
    fields: Record<string, string>,
    onProgress: (share: number) => void,
  ): Promise<{ id: string }> {
    const form = new FormData()
    for (const [key, value] of Object.entries(fields)) form.append(key, value)
    form.append('files', file, file.name)
    return uploadWithProgress(
      new XMLHttpRequest(),
      `${API}/company/${companyId}/knowledge-base`,
      this.token(),
      form,
      onProgress,
    ).catch((error: unknown) => {
      if (error instanceof ApiError && error.status === 401) this.onUnauthorized()
      throw error
    })
  }

  private async refusal(response: Response): Promise<ApiError> {
    if (response.status === 401) this.onUnauthorized()
    return problemOf(response.status, await response.text())
  }
}

/** The ApiError a refused response's body describes (problem+json), or a plain one. */
export function problemOf(status: number, body: string): ApiError {
  try {
    const problem = JSON.parse(body) as { code?: string; detail?: string; title?: string }
    return new ApiError(status, problem.code ?? 'error', problem.detail ?? problem.title ?? t.errors.unknown)
  } catch {
    return new ApiError(status, 'error', body.trim() || t.errors.unknown)
  }
}

/** Sends `form` with XMLHttpRequest, which reports upload progress (fetch does not). */
export function uploadWithProgress(
  request: XMLHttpRequest,
  url: string,
  token: string | null,
  form: FormData,
  onProgress: (share: number) => void,
): Promise<{ id: string }> {
  return new Promise((resolve, reject) => {
    request.open('POST', url)
    request.setRequestHeader('accept', 'application/json')
    if (token) request.setRequestHeader('authorization', `Bearer ${token}`)
    request.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress(Math.min(1, event.loaded / event.total))
    }
    request.onload = () => {
      if (request.status >= 200 && request.status < 300) {
        onProgress(1)
        resolve(JSON.parse(request.responseText) as { id: string })
      } else reject(problemOf(request.status, request.responseText))
    }
    request.onerror = () => reject(new ApiError(0, 'network', t.errors.network))
    request.send(form)
  })
}
