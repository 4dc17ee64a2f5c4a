import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

/** One request the fake chat-completions server received. */
export interface ReceivedRequest {
  readonly method: string
  readonly path: string
  readonly headers: IncomingMessage['headers']
  readonly body: {
    model: string
    messages: Array<{ role: string; content: string }>
    temperature: number
    stream: boolean
  }
}

/** What to do with the next request: a JSON answer, an SSE stream, an HTTP error, or never answer. */
export type Reply =
  | { readonly kind: 'json'; readonly content: string }
  | { readonly kind: 'stream'; readonly tokens: readonly string[] }
  | { readonly kind: 'error'; readonly status: number; readonly body?: string; readonly retryAfter?: string }
  | { readonly kind: 'hang' }

/**
 * An OpenAI-compatible chat-completions server on 127.0.0.1:<random port>, speaking the real wire
 * protocol. Replies are taken from `queue` in order; when it is empty `fallback` answers.
 */
export class FakeLlmServer {
  readonly requests: ReceivedRequest[] = []
  readonly queue: Reply[] = []
  fallback: Reply = { kind: 'json', content: 'ok' }
  private server: Server | undefined
  private readonly hanging = new Set<ServerResponse>()

  get baseUrl(): string {
    const address = this.server?.address() as AddressInfo
    return `http://127.0.0.1:${address.port}/v1`
  }

  /** The last request's messages. */
  get lastMessages(): Array<{ role: string; content: string }> {
    const last = this.requests.at(-1)
    if (!last) throw new Error('the fake LLM received no request')
    return last.body.messages
  }

  async start(): Promise<void> {
    this.server = createServer((req, res) => void this.handle(req, res))
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve))
  }

  async stop(): Promise<void> {
    for (const res of this.hanging) res.destroy()
    this.server?.closeAllConnections()
    await new Promise<void>((resolve) => this.server?.close(() => resolve()))
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = []
    for await (const chunk of req) chunks.push(chunk as Buffer)
    this.requests.push({
      method: req.method ?? '',
      path: req.url ?? '',
      headers: req.headers,
      body: JSON.parse(Buffer.concat(chunks).toString('utf8')),
    })
    const reply = this.queue.shift() ?? this.fallback
    switch (reply.kind) {
      case 'json':
        res.writeHead(200, { 'content-type': 'application/json' })
        res.end(
          JSON.stringify({
            id: 'chatcmpl-1',
            object: 'chat.completion',
            choices: [{ index: 0, message: { role: 'assistant', content: reply.content }, finish_reason: 'stop' }],
          }),
        )
        return
      case 'stream': {
        res.writeHead(200, { 'content-type': 'text/event-stream' })
        res.write(': keep-alive\n\n')
        res.write(`data: ${JSON.stringify({ choices: [{ index: 0, delta: { role: 'assistant' } }] })}\n\n`)
        for (const token of reply.tokens) {
          res.write(`data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: token } }] })}\n\n`)
        }
        res.end('data: [DONE]\n\n')
        return
      }
      case 'error': {
        const headers: Record<string, string> = { 'content-type': 'application/json' }
        if (reply.retryAfter !== undefined) headers['retry-after'] = reply.retryAfter
        res.writeHead(reply.status, headers)
        res.end(reply.body ?? JSON.stringify({ error: { message: `failure ${reply.status}` } }))
        return
      }
      case 'hang':
        this.hanging.add(res)
        return
    }
  }
}
