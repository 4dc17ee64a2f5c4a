import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'

export const FAKE_DIMS = 64

/** Words the fake model treats as meaning the same thing (its whole "semantics"). */
const CONCEPTS: Record<string, string> = {
  automobile: 'vehicle',
  automobiles: 'vehicle',
  car: 'vehicle',
  cars: 'vehicle',
  vehicle: 'vehicle',
  motor: 'vehicle',
  repair: 'fix',
  repairs: 'fix',
  mend: 'fix',
  fix: 'fix',
  mechanic: 'fix',
  garage: 'fix',
}

function bucket(word: string): number {
  let hash = 2166136261
  for (const char of word) hash = Math.imul(hash ^ (char.codePointAt(0) ?? 0), 16777619)
  return (hash >>> 0) % FAKE_DIMS
}

/** Bag of words (concepts folded) hashed into 64 dims, L2-normalised: overlapping meanings are near. */
export function fakeVector(text: string): number[] {
  const vector = new Array<number>(FAKE_DIMS).fill(0)
  for (const word of text.toLowerCase().match(/[a-z]+/g) ?? []) {
    if (word.length < 3) continue
    const index = bucket(CONCEPTS[word] ?? word)
    vector[index] = (vector[index] ?? 0) + 1
  }
  const norm = Math.sqrt(vector.reduce((sum, v) => sum + v * v, 0))
  return norm > 0 ? vector.map((v) => v / norm) : vector.map((_, i) => (i === 0 ? 1 : 0))
}

export interface EmbeddingsCall {
  readonly path: string
  readonly authorization: string | undefined
  readonly model: unknown
  readonly input: unknown
}

export interface FakeEmbeddingsServer {
  /** `http://127.0.0.1:<port>/v1` */
  readonly baseUrl: string
  readonly calls: EmbeddingsCall[]
  /** Statuses answered to the next requests, before normal answers resume. */
  failNext(...statuses: number[]): void
  /** Answer data items in reverse order (with their `index`). */
  shuffle: boolean
  close(): Promise<void>
}

async function body(request: IncomingMessage): Promise<string> {
  const parts: Buffer[] = []
  for await (const part of request) parts.push(part as Buffer)
  return Buffer.concat(parts).toString('utf8')
}

/** An OpenAI-compatible `/v1/embeddings` server on a free loopback port, speaking the real wire protocol. */
export async function startFakeEmbeddings(): Promise<FakeEmbeddingsServer> {
  const calls: EmbeddingsCall[] = []
  const failures: number[] = []
  const state = { shuffle: false }
  const server: Server = createServer(async (request, response) => {
    const text = await body(request)
    let parsed: { model?: unknown; input?: unknown } = {}
    try {
      parsed = JSON.parse(text)
    } catch {}
    calls.push({
      path: request.url ?? '',
      authorization: request.headers.authorization,
      model: parsed.model,
      input: parsed.input,
    })
    const failure = failures.shift()
    if (failure) {
      response.writeHead(failure, { 'content-type': 'application/json' })
      return response.end(JSON.stringify({ error: { message: 'fake failure' } }))
    }
    if (request.method !== 'POST' || request.url !== '/v1/embeddings' || !Array.isArray(parsed.input)) {
      response.writeHead(404, { 'content-type': 'application/json' })
      return response.end('{"error":{"message":"not found"}}')
    }
    const data = (parsed.input as string[]).map((input, index) => ({
      object: 'embedding',
      index,
      embedding: fakeVector(input),
    }))
    if (state.shuffle) data.reverse()
    response.writeHead(200, { 'content-type': 'application/json' })
    response.end(JSON.stringify({ object: 'list', data, model: parsed.model, usage: { prompt_tokens: 1 } }))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    calls,
    failNext: (...statuses) => failures.push(...statuses),
    get shuffle() {
      return state.shuffle
    },
    set shuffle(value: boolean) {
      state.shuffle = value
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
