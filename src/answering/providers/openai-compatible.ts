import type { ChatMessage, ChatModel } from '../types.js'

/** How to reach an OpenAI-compatible chat-completions endpoint (OpenAI, Azure, Mistral, vLLM, Ollama…). */
export interface OpenAiCompatibleOptions {
  /** Up to and including the version, e.g. `https://api.openai.com/v1`; `/chat/completions` is appended. */
  readonly baseUrl: string
  /** Sent as `Authorization: Bearer <key>` when set. */
  readonly apiKey?: string
  readonly model: string
  /** Budget for one `complete` call, retries and waits included. */
  readonly timeoutMs: number
  /** Retries after a 429, a 5xx or a network error (default 2). */
  readonly maxRetries?: number
  /** First backoff delay, doubled on each retry (default 250 ms). */
  readonly retryBaseMs?: number
  /** Longest `Retry-After` honoured; a longer one fails the call at once (default 10 s). */
  readonly maxRetryAfterMs?: number
  readonly fetch?: typeof fetch
}

/** The provider could not produce an answer; `status` is the HTTP status when there was one. */
export class ChatModelError extends Error {
  override readonly name = 'ChatModelError'
  constructor(
    message: string,
    readonly status?: number,
    /** A later attempt might succeed (429, 5xx, network). */
    readonly retryable = false,
    options?: { cause?: unknown },
  ) {
    super(message, options)
  }
}

const TEMPERATURE = 0.1

/**
 * A ChatModel over `POST {baseUrl}/chat/completions`. Guarantees: never waits longer than
 * `timeoutMs` in total; retries only failures that can pass (429, 5xx, network) and only before
 * any token was streamed, so `onToken` never sees text twice; throws ChatModelError otherwise.
 */
export class OpenAiCompatibleChatModel implements ChatModel {
  private readonly url: string
  private readonly fetchImpl: typeof fetch

  constructor(private readonly options: OpenAiCompatibleOptions) {
    this.url = `${options.baseUrl.replace(/\/+$/, '')}/chat/completions`
    this.fetchImpl = options.fetch ?? fetch
  }

  async complete(
    messages: readonly ChatMessage[],
    options: { readonly signal?: AbortSignal; readonly onToken?: (text: string) => void } = {},
  ): Promise<string> {
    const deadline = Date.now() + this.options.timeoutMs
    const timeout = AbortSignal.timeout(this.options.timeoutMs)
    const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout
    const maxRetries = this.options.maxRetries ?? 2
    const base = this.options.retryBaseMs ?? 250
    for (let attempt = 0; ; attempt++) {
      const progress = { streamed: false }
      try {
        return await this.attempt(messages, signal, options.onToken, progress)
      } catch (error) {
        const failure = this.normalise(error, signal, timeout)
        if (!failure.error.retryable || progress.streamed || attempt >= maxRetries) throw failure.error
        const wait = failure.retryAfterMs ?? base * 2 ** attempt
        if (wait > (this.options.maxRetryAfterMs ?? 10_000) || Date.now() + wait >= deadline) throw failure.error
        try {
          await sleep(wait, signal)
        } catch (reason) {
          throw this.normalise(reason, signal, timeout).error
        }
      }
    }
  }

  private async attempt(
    messages: readonly ChatMessage[],
    signal: AbortSignal,
    onToken: ((text: string) => void) | undefined,
    progress: { streamed: boolean },
  ): Promise<string> {
    const stream = onToken !== undefined
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      accept: stream ? 'text/event-stream' : 'application/json',
    }
    if (this.options.apiKey) headers.authorization = `Bearer ${this.options.apiKey}`
    const response = await this.fetchImpl(this.url, {
      method: 'POST',
      headers,
      body: JSON.stringify({ model: this.options.model, messages, temperature: TEMPERATURE, stream }),
      signal,
    })
    if (!response.ok) throw await httpFailure(response)
    if (!stream) {
      const payload: unknown = await response.json().catch(() => {
        throw new ChatModelError('LLM response is not JSON')
      })
      return contentOf(payload)
    }
    return readStream(response, (text) => {
      progress.streamed = true
      onToken(text)
    })
  }

  /** Any failure as a ChatModelError, with the wait the server asked for, if any. */
  private normalise(
    error: unknown,
    signal: AbortSignal,
    timeout: AbortSignal,
  ): { error: ChatModelError; retryAfterMs?: number } {
    if (timeout.aborted) {
      const message = `LLM request timed out after ${this.options.timeoutMs} ms`
      return { error: new ChatModelError(message, undefined, false, { cause: error }) }
    }
    if (signal.aborted) return { error: new ChatModelError('LLM request aborted', undefined, false, { cause: error }) }
    if (error instanceof RetryableHttpError) return { error: error.failure, retryAfterMs: error.retryAfterMs }
    if (error instanceof ChatModelError) return { error }
    const message = error instanceof Error ? error.message : String(error)
    return { error: new ChatModelError(`LLM request failed: ${message}`, undefined, true, { cause: error }) }
  }
}

class RetryableHttpError extends Error {
  constructor(
    readonly failure: ChatModelError,
    readonly retryAfterMs: number | undefined,
  ) {
    super(failure.message)
  }
}

async function httpFailure(response: Response): Promise<Error> {
  const body = await response.text().catch(() => '')
  const detail = providerMessage(body)
  const failure = new ChatModelError(
    `LLM endpoint answered ${response.status}${detail ? `: ${detail}` : ''}`,
    response.status,
    response.status === 429 || response.status >= 500,
  )
  if (!failure.retryable) return failure
  return new RetryableHttpError(failure, retryAfter(response.headers.get('retry-after')))
}

/** The provider's own error message (`{error: {message}}`), else the start of the body. */
function providerMessage(body: string): string {
  try {
    const parsed = JSON.parse(body) as { error?: { message?: unknown } | string }
    const error = parsed.error
    if (typeof error === 'string') return error
    if (error && typeof error.message === 'string') return error.message
  } catch {
    // not JSON: fall through to the raw text
  }
  return body.slice(0, 200).trim()
}

/** `Retry-After` in seconds or as an HTTP date, in milliseconds from now. */
function retryAfter(header: string | null): number | undefined {
  if (!header) return undefined
  const trimmed = header.trim()
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.ceil(Number(trimmed) * 1000)
  const at = Date.parse(trimmed)
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now())
}

function contentOf(payload: unknown): string {
  const choices = (payload as { choices?: unknown } | null)?.choices
  const first = Array.isArray(choices) ? (choices[0] as { message?: { content?: unknown } } | undefined) : undefined
  const content = first?.message?.content
  if (typeof content !== 'string') {
    throw new ChatModelError('LLM response has no choices[0].message.content')
  }
  return content
}

/** Reads `data:` events until `data: [DONE]` (or the end of the body); returns the whole text. */
async function readStream(response: Response, onToken: (text: string) => void): Promise<string> {
  if (!response.body) throw new ChatModelError('LLM stream has no body')
  const decoder = new TextDecoder()
  let buffer = ''
  let data: string[] = []
  let text = ''
  const dispatch = (): boolean => {
    if (data.length === 0) return false
    const payload = data.join('\n')
    data = []
    if (payload.trim() === '[DONE]') return true
    let event: { choices?: Array<{ delta?: { content?: unknown } }>; error?: { message?: unknown } }
    try {
      event = JSON.parse(payload)
    } catch {
      throw new ChatModelError('LLM stream sent an event that is not JSON')
    }
    if (event.error) throw new ChatModelError(`LLM stream error: ${String(event.error.message ?? 'unknown')}`)
    const delta = event.choices?.[0]?.delta?.content
    if (typeof delta === 'string' && delta !== '') {
      text += delta
      onToken(delta)
    }
    return false
  }
  for await (const bytes of response.body) {
    buffer += decoder.decode(bytes as Uint8Array, { stream: true })
    let newline = buffer.search(/\r\n|\r|\n/)
    while (newline >= 0) {
      const line = buffer.slice(0, newline)
      buffer = buffer.slice(newline + (buffer.startsWith('\r\n', newline) ? 2 : 1))
      if (line === '') {
        if (dispatch()) return text
      } else if (line.startsWith('data:')) {
        data.push(line.slice(line.startsWith('data: ') ? 6 : 5))
      }
      newline = buffer.search(/\r\n|\r|\n/)
    }
  }
  if (buffer.startsWith('data:')) data.push(buffer.slice(buffer.startsWith('data: ') ? 6 : 5))
  dispatch()
  return text
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason)
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort)
      resolve()
    }, ms)
    const onAbort = (): void => {
      clearTimeout(timer)
      reject(signal.reason)
    }
    signal.addEventListener('abort', onAbort, { once: true })
  })
}
