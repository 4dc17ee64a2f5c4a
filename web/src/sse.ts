/** One server-sent event: its name (`message` when unnamed) and its data lines joined. */
export interface ServerEvent {
  readonly event: string
  readonly data: string
}

/**
 * Reads the events of a `text/event-stream` body as they arrive (send-message streams `token`,
 * then `message`, then `done`, or `error`). EventSource cannot POST or send a bearer token, hence
 * this reader over fetch's body.
 */
export async function* readEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<ServerEvent> {
  const reader = body.getReader()
  // One decoder across chunks: a character split between two chunks is decoded whole.
  const decoder = new TextDecoder()
  let buffer = ''
  try {
    for (;;) {
      const { value, done } = await reader.read()
      if (done) break
      buffer += decoder.decode(value, { stream: true })
      for (;;) {
        const end = /\r\n\r\n|\n\n|\r\r/.exec(buffer)
        if (!end) break
        const block = buffer.slice(0, end.index)
        buffer = buffer.slice(end.index + end[0].length)
        const parsed = parseBlock(block)
        if (parsed) yield parsed
      }
    }
    const last = parseBlock(buffer + decoder.decode())
    if (last) yield last
  } finally {
    reader.releaseLock()
  }
}

/** One event block: `event:` and `data:` fields; comments (`:`) and other fields are skipped. */
function parseBlock(block: string): ServerEvent | null {
  let event = 'message'
  const data: string[] = []
  for (const line of block.split(/\r\n|\n|\r/)) {
    if (line === '' || line.startsWith(':')) continue
    const colon = line.indexOf(':')
    const field = colon === -1 ? line : line.slice(0, colon)
    const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '')
    if (field === 'event') event = value
    else if (field === 'data') data.push(value)
  }
  return data.length === 0 ? null : { event, data: data.join('\n') }
}
