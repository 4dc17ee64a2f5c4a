import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { ChatModelError, OpenAiCompatibleChatModel } from '../../src/answering/providers/openai-compatible.js'
import { FakeLlmServer } from '../support/fake-llm.js'

const MESSAGES = [
  { role: 'system', content: 'You answer from sources.' },
  { role: 'user', content: 'What is the leave policy?' },
] as const

describe('OpenAI-compatible chat model', () => {
  let server: FakeLlmServer
  beforeEach(async () => {
    server = new FakeLlmServer()
    await server.start()
  })
  afterEach(async () => {
    await server.stop()
  })

  const model = (overrides: Partial<ConstructorParameters<typeof OpenAiCompatibleChatModel>[0]> = {}) =>
    new OpenAiCompatibleChatModel({
      baseUrl: server.baseUrl,
      apiKey: 'sk-test',
      model: 'tiny-model',
      timeoutMs: 5_000,
      retryBaseMs: 10,
      ...overrides,
    })

  it('sends the chat-completions request and reads choices[0].message.content', async () => {
    server.queue.push({ kind: 'json', content: 'Twenty-five days [1].' })
    const text = await model().complete(MESSAGES)
    expect(text).toBe('Twenty-five days [1].')
    expect(server.requests).toHaveLength(1)
    const request = server.requests[0]
    expect(request?.method).toBe('POST')
    expect(request?.path).toBe('/v1/chat/completions')
    expect(request?.headers.authorization).toBe('Bearer sk-test')
    expect(request?.headers['content-type']).toMatch(/^application\/json/)
    expect(request?.body).toEqual({ model: 'tiny-model', messages: MESSAGES, temperature: 0.1, stream: false })
  })

  it('sends no Authorization header without a key, and tolerates a trailing slash in the base URL', async () => {
    await model({ apiKey: undefined, baseUrl: `${server.baseUrl}/` }).complete(MESSAGES)
    expect(server.requests[0]?.path).toBe('/v1/chat/completions')
    expect(server.requests[0]?.headers.authorization).toBeUndefined()
  })

  it('streams Server-Sent Events token by token until [DONE]', async () => {
    server.queue.push({ kind: 'stream', tokens: ['Twenty', '-five', ' days', ' [1].'] })
    const tokens: string[] = []
    const text = await model().complete(MESSAGES, { onToken: (token) => tokens.push(token) })
    expect(tokens).toEqual(['Twenty', '-five', ' days', ' [1].'])
    expect(text).toBe('Twenty-five days [1].')
    expect(server.requests[0]?.body.stream).toBe(true)
    expect(server.requests[0]?.headers.accept).toBe('text/event-stream')
  })

  it('retries a 500 and then succeeds', async () => {
    server.queue.push({ kind: 'error', status: 500 }, { kind: 'json', content: 'second time lucky' })
    await expect(model().complete(MESSAGES)).resolves.toBe('second time lucky')
    expect(server.requests).toHaveLength(2)
  })

  it('honours Retry-After on 429', async () => {
    server.queue.push({ kind: 'error', status: 429, retryAfter: '0' }, { kind: 'json', content: 'after the wait' })
    await expect(model().complete(MESSAGES)).resolves.toBe('after the wait')
    expect(server.requests).toHaveLength(2)
  })

  it('gives up when Retry-After asks for longer than allowed', async () => {
    server.queue.push({ kind: 'error', status: 429, retryAfter: '120' })
    await expect(model().complete(MESSAGES)).rejects.toMatchObject({ name: 'ChatModelError', status: 429 })
    expect(server.requests).toHaveLength(1)
  })

  it('stops after two retries', async () => {
    server.fallback = { kind: 'error', status: 503 }
    await expect(model().complete(MESSAGES)).rejects.toMatchObject({ status: 503 })
    expect(server.requests).toHaveLength(3)
  })

  it('does not retry a 401 and reports the provider message', async () => {
    server.queue.push({ kind: 'error', status: 401, body: JSON.stringify({ error: { message: 'bad key' } }) })
    const error = await model()
      .complete(MESSAGES)
      .catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ChatModelError)
    expect((error as ChatModelError).message).toBe('LLM endpoint answered 401: bad key')
    expect((error as ChatModelError).message).not.toContain('sk-test')
    expect(server.requests).toHaveLength(1)
  })

  it('rejects a response without content', async () => {
    server.queue.push({ kind: 'error', status: 200, body: JSON.stringify({ choices: [] }) })
    await expect(model().complete(MESSAGES)).rejects.toThrow('no choices[0].message.content')
  })

  it('times out a server that never answers', async () => {
    server.fallback = { kind: 'hang' }
    await expect(model({ timeoutMs: 200 }).complete(MESSAGES)).rejects.toThrow('timed out after 200 ms')
  })

  it('retries a network error (connection refused) twice and fails clearly', async () => {
    const url = server.baseUrl
    await server.stop()
    let calls = 0
    const counting: typeof fetch = (input, init) => {
      calls++
      return fetch(input, init)
    }
    const failing = new OpenAiCompatibleChatModel({
      baseUrl: url,
      model: 'm',
      timeoutMs: 5_000,
      retryBaseMs: 5,
      fetch: counting,
    })
    const error = await failing.complete(MESSAGES).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ChatModelError)
    expect((error as ChatModelError).message).toMatch(/^LLM request failed/)
    expect(calls).toBe(3)
    await server.start()
  })
})
