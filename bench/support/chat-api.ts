import { randomUUID } from 'node:crypto'
import { HttpError } from './api.js'
import type { Credentials } from './server.js'

/** One ranked chunk of the search extension. */
export interface SearchHit {
  readonly document_id: string
  readonly object_name: string
  readonly filename: string
  readonly page_number: string | null
  readonly chunk_idx: number
  readonly score: number
  readonly usage_score: number
  readonly text: string
}

/** The source fields the answering benchmarks read (spec 2.5). */
export interface Source {
  readonly id: string
  readonly object_name: string
  readonly filename: string
  readonly page_number: string
  readonly chunk_content: string | null
  readonly usage_score: number
  readonly retrieval_mode: string
}

/** The send-message answer fields the benchmarks read. */
export interface Answer {
  readonly text: string
  readonly small_talk: boolean
  readonly sources: Source[]
}

/**
 * The answering endpoints (search extension, chats, send-message) plus an in-memory text upload,
 * with one bearer token; the token and the company come from the server's first-start credentials.
 */
export class ChatApi {
  private constructor(
    readonly base: string,
    readonly token: string,
    readonly companyId: string,
  ) {}

  static async connect(origin: string, credentials: Credentials): Promise<ChatApi> {
    const base = `${origin}/apif/v2`
    const issued = await call<{ access_token: string }>(`${base}/auth/token`, 'POST', undefined, {
      app_name: credentials.app_name,
      client_id: credentials.client_id,
      client_secret: credentials.client_secret,
    })
    const company = await call<{ id: string }>(`${base}/auth/company`, 'GET', issued.access_token)
    return new ChatApi(base, issued.access_token, company.id)
  }

  /** The URL of the search extension (for load generators). */
  get searchUrl(): string {
    return `${this.base}/company/${this.companyId}/knowledge-base/search`
  }

  messagesUrl(chatId: string): string {
    return `${this.base}/chat/${chatId}/messages`
  }

  search(query: string, limit: number): Promise<{ hits: SearchHit[] }> {
    return call(this.searchUrl, 'POST', this.token, { query, limit })
  }

  async createChat(title: string): Promise<string> {
    const chat = await call<{ id: string }>(`${this.base}/chat`, 'POST', this.token, { title })
    return chat.id
  }

  send(chatId: string, message: string): Promise<Answer> {
    return call(this.messagesUrl(chatId), 'POST', this.token, { message })
  }

  usage(): Promise<Record<string, unknown>> {
    return call(`${this.base}/auth/company/usage`, 'GET', this.token)
  }

  /** Uploads `content` as a file called `name` into folder `path`; resolves with the document id. */
  async uploadText(name: string, content: string | Uint8Array, path = '/'): Promise<string> {
    const boundary = `bench-${randomUUID()}`
    const head =
      `--${boundary}\r\nContent-Disposition: form-data; name="path"\r\n\r\n${path}\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="${name}"\r\n` +
      'Content-Type: application/octet-stream\r\n\r\n'
    const body = new Blob([head, content, `\r\n--${boundary}--\r\n`])
    const response = await fetch(`${this.base}/company/${this.companyId}/knowledge-base`, {
      method: 'POST',
      headers: { authorization: `Bearer ${this.token}`, 'content-type': `multipart/form-data; boundary=${boundary}` },
      body,
    })
    const text = await response.text()
    if (!response.ok) throw new HttpError(response.status, text)
    return (JSON.parse(text) as { id: string }).id
  }
}

async function call<T>(url: string, method: string, token?: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = {}
  if (token) headers.authorization = `Bearer ${token}`
  if (body !== undefined) headers['content-type'] = 'application/json'
  const response = await fetch(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) })
  const text = await response.text()
  if (!response.ok) throw new HttpError(response.status, text)
  return JSON.parse(text) as T
}

/** Runs `task` over `items` with at most `concurrency` in flight, in order of `items`. */
export async function pool<T, R>(
  items: readonly T[],
  concurrency: number,
  task: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length)
  let next = 0
  const lane = async () => {
    for (let i = next++; i < items.length; i = next++) results[i] = await task(items[i] as T, i)
  }
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, lane))
  return results
}

/** The q-quantile (0..1) of `values` by nearest rank. */
export function quantile(values: readonly number[], q: number): number {
  if (values.length === 0) return Number.NaN
  const sorted = [...values].sort((a, b) => a - b)
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))
  return sorted[rank] as number
}
