import { randomUUID } from 'node:crypto'
import type { Credentials } from './server.js'
import { BenchToken, HttpError } from './token.js'

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
  /** Ids of the documents automatic selection chose (when it ran). */
  readonly documents_filtered: string[]
  /** Whether automatic selection found documents; null when it did not run. */
  readonly validated_autodocs: boolean | null
}

/** Bot fields a benchmark sets (spec 2.3); the others keep their defaults. */
export interface BotSettings {
  readonly label: string
  readonly description: string
  readonly prompt: { readonly name: string; readonly prompt: string }
  readonly auto_document_selector?: 'hidden' | 'choose' | 'always'
}

/**
 * The answering endpoints (search extension, chats, send-message) plus an in-memory text upload,
 * with a bearer token from the server's first-start credentials, renewed before it expires.
 */
export class ChatApi {
  private constructor(
    readonly base: string,
    private readonly bearer: BenchToken,
    readonly companyId: string,
  ) {}

  static async connect(origin: string, credentials: Credentials): Promise<ChatApi> {
    const base = `${origin}/apif/v2`
    const bearer = new BenchToken(base, credentials)
    const company = await call<{ id: string }>(bearer, `${base}/auth/company`, 'GET')
    return new ChatApi(base, bearer, company.id)
  }

  /** A token valid for at least a few more minutes (for load generators that set the header themselves). */
  token(): Promise<string> {
    return this.bearer.current()
  }

  /** The URL of the search extension (for load generators). */
  get searchUrl(): string {
    return `${this.base}/company/${this.companyId}/knowledge-base/search`
  }

  messagesUrl(chatId: string): string {
    return `${this.base}/chat/${chatId}/messages`
  }

  search(query: string, limit: number): Promise<{ hits: SearchHit[] }> {
    return call(this.bearer, this.searchUrl, 'POST', { query, limit })
  }

  /** A new chat, bound to `botId` when given (else the company's default bot); resolves with its id. */
  async createChat(title: string, botId?: string): Promise<string> {
    const body = botId === undefined ? { title } : { title, bot_id: botId }
    const chat = await call<{ id: string }>(this.bearer, `${this.base}/chat`, 'POST', body)
    return chat.id
  }

  /** Creates a bot of the company; resolves with its id. */
  async createBot(settings: BotSettings): Promise<string> {
    const bot = await call<{ id: string }>(this.bearer, `${this.base}/company/${this.companyId}/bot`, 'POST', settings)
    return bot.id
  }

  send(chatId: string, message: string): Promise<Answer> {
    return call(this.bearer, this.messagesUrl(chatId), 'POST', { message })
  }

  usage(): Promise<Record<string, unknown>> {
    return call(this.bearer, `${this.base}/auth/company/usage`, 'GET')
  }

  /** Uploads `content` as a file called `name` into folder `path`; resolves with the document id. */
  async uploadText(name: string, content: string | Uint8Array, path = '/'): Promise<string> {
    const boundary = `bench-${randomUUID()}`
    const head =
      `--${boundary}\r\nContent-Disposition: form-data; name="path"\r\n\r\n${path}\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="${name}"\r\n` +
      'Content-Type: application/octet-stream\r\n\r\n'
    const body = new Blob([head, content, `\r\n--${boundary}--\r\n`])
    const response = await this.bearer.fetch(`${this.base}/company/${this.companyId}/knowledge-base`, {
      method: 'POST',
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
      body,
    })
    const text = await response.text()
    if (!response.ok) throw new HttpError(response.status, text)
    return (JSON.parse(text) as { id: string }).id
  }
}

async function call<T>(bearer: BenchToken, url: string, method: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = {}
  if (body !== undefined) headers['content-type'] = 'application/json'
  const response = await bearer.fetch(url, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  })
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
