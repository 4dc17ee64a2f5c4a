import { describe, expect, it } from 'vitest'
import { readEvents, type ServerEvent } from '../src/sse'

/** A body that arrives in the given pieces, as a network delivers it. */
function body(pieces: readonly (string | Uint8Array)[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder()
  return new ReadableStream({
    start(controller) {
      for (const piece of pieces) controller.enqueue(typeof piece === 'string' ? encoder.encode(piece) : piece)
      controller.close()
    },
  })
}

async function all(stream: ReadableStream<Uint8Array>): Promise<ServerEvent[]> {
  const events: ServerEvent[] = []
  for await (const event of readEvents(stream)) events.push(event)
  return events
}

describe('the server-sent events reader', () => {
  it('reads named events split anywhere across chunks, in order', async () => {
    const stream = body(['event: tok', 'en\ndata: {"text":"Hel', 'lo"}\n', '\nevent: done\ndata: {}\n\n'])
    expect(await all(stream)).toEqual([
      { event: 'token', data: '{"text":"Hello"}' },
      { event: 'done', data: '{}' },
    ])
  })

  it('decodes a character whose bytes are split between two chunks', async () => {
    const bytes = new TextEncoder().encode('data: café\n\n')
    const cut = bytes.indexOf(0xc3) + 1
    expect(await all(body([bytes.slice(0, cut), bytes.slice(cut)]))).toEqual([{ event: 'message', data: 'café' }])
  })

  it('joins data lines, skips comments, accepts CRLF and a last event without a blank line', async () => {
    const stream = body([': keep-alive\r\n\r\nevent: message\r\ndata: a\r\ndata: b\r\n\r\ndata: last'])
    expect(await all(stream)).toEqual([
      { event: 'message', data: 'a\nb' },
      { event: 'message', data: 'last' },
    ])
  })
})
