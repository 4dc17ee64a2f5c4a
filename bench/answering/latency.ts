/**
 * Latency at scale: fills a fresh service with generated text documents until the knowledge base
 * holds --chunks chunks (or the ingestion time box ends), then measures p50/p99 of the search
 * extension and of send-message (offline answerer) with sequential requests, and throughput under
 * --connections concurrent clients (autocannon); the floor is a raw SQLite FTS5 query over the
 * same chunk texts in the same run. Usage: npm run bench:latency -- [--help]
 */
import { execFileSync } from 'node:child_process'
import { join } from 'node:path'
import autocannon from 'autocannon'
import Database from 'better-sqlite3'
import { indexDocument } from '../../src/ingestion/pipeline/index-document.js'
import type { ChunkDraft } from '../../src/ingestion/pipeline/pipeline-types.js'
import { openDatabase } from '../../src/storage/database.js'
import { createKyselyStore } from '../../src/storage/kysely/store.js'
import { EMPTY_CARD } from '../../src/storage/ports/document-card.js'
import { seededUniform } from '../../test/support/random.js'
import { BenchApi } from '../support/api.js'
import { ChatApi, pool, quantile } from '../support/chat-api.js'
import { ROOT } from '../support/data.js'
import { Fts5Baseline, readJsonl } from '../support/ir-metrics.js'
import { round, table } from '../support/report.js'
import { mib } from '../support/rss.js'
import { COMMON_USAGE, load, type Results, runBench, type ServiceBench } from '../support/run-bench.js'
import { type Tracked, track, waitForAll } from '../support/wait.js'

const USAGE = `npm run bench:latency -- [options]

Generates text documents from the CACM abstracts (seeded shuffle) until the knowledge base holds
--chunks chunks, then times search and send-message.
  --build direct|upload  how the knowledge base is filled (default direct): "upload" sends every
                         document through the API and the service's ingestion (slow: 70-125
                         chunks/s); "direct" uploads a short head of each document through the API,
                         waits for it to be PROCESSED, then writes its full text as chunks of
                         about --chunk-tokens tokens (word windows) into the service's SQLite
                         database with the service's own indexDocument, in one transaction per
                         document, as the ingest job does (same tables, postings and statistics)
  --chunks N             target number of chunks (default 100000)
  --chunk-tokens N       LANTERN_CHUNK_TOKENS of the service (default: the service default, 400)
  --doc-kib N            size of each generated document in KiB (default 2048)
  --ingest-min M         time box of the ingestion phase; measures at the size reached (default 25)
  --requests N           sequential requests per endpoint (default 200)
  --connections N        concurrent clients of the throughput runs (default 32)
  --duration S           seconds of each throughput run (default 15)
  --phase-max-s S        time cap of each sequential phase; fewer requests when reached (default 120)
  --reuse DIR            measure on the data folder DIR kept by an earlier run (--keep) instead of
                         building a knowledge base (the build time is then not measured)
${COMMON_USAGE}`

interface CorpusDoc {
  readonly _id: string
  readonly title: string
  readonly text: string
}

interface Query {
  readonly text: string
}

function generator(corpus: readonly CorpusDoc[], bytes: number): (n: number) => string {
  const paragraphs = corpus.map((doc) => (doc.text ? `${doc.title}\n${doc.text}` : doc.title))
  return (n) => {
    const random = seededUniform(n + 1)
    const parts: string[] = [`Generated document ${n}`]
    let size = 0
    while (size < bytes) {
      const paragraph = paragraphs[Math.floor(random() * paragraphs.length)] as string
      parts.push(paragraph)
      size += paragraph.length + 2
    }
    return `${parts.join('\n\n')}\n`
  }
}

interface Timing {
  readonly p50: number
  readonly p99: number
  readonly mean: number
  readonly max: number
  readonly n: number
}

function timing(samples: readonly number[]): Timing {
  return {
    p50: quantile(samples, 0.5),
    p99: quantile(samples, 0.99),
    mean: samples.reduce((a, b) => a + b, 0) / samples.length,
    max: Math.max(...samples),
    n: samples.length,
  }
}

interface Throughput {
  readonly requestsPerSecond: number
  readonly p50: number
  readonly p99: number
  readonly non2xx: number
  readonly errors: number
  readonly total: number
}

async function cannon(
  url: string,
  token: string,
  bodies: readonly string[],
  urls: readonly string[] | undefined,
  connections: number,
  duration: number,
): Promise<Throughput> {
  let counter = 0
  const result = await autocannon({
    url,
    connections,
    duration,
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    requests: [
      {
        setupRequest: (request) => {
          const i = counter++
          const next = { ...request, body: bodies[i % bodies.length] }
          if (urls) next.path = new URL(urls[i % urls.length] as string).pathname
          return next
        },
      },
    ],
  })
  return {
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    total: result.requests.total,
  }
}

async function main(bench: ServiceBench): Promise<Results> {
  const { common, values } = bench
  const target = Number(values.chunks)
  const requests = Number(values.requests)
  const connections = Number(values.connections)
  const duration = Number(values.duration)
  const phaseMaxMs = Number(values['phase-max-s']) * 1000
  const ingestDeadline = Date.now() + Number(values['ingest-min']) * 60_000
  const [dir = ''] = bench.data
  const corpus = readJsonl<CorpusDoc>(join(dir, 'corpus.jsonl'))
  const queries = readJsonl<Query>(join(dir, 'queries.jsonl')).map((q) => q.text)
  const makeDoc = generator(corpus, Number(values['doc-kib']) * 1024)
  const env: Record<string, string> = {}
  if (values['chunk-tokens']) {
    env.LANTERN_CHUNK_TOKENS = String(values['chunk-tokens'])
    env.LANTERN_CHUNK_OVERLAP = String(Math.floor(Number(values['chunk-tokens']) / 10))
  }
  console.log(`bench:latency: target ${target} chunks, ${common.workers} workers, ${JSON.stringify(env)}`)
  const dataDir = values.reuse === undefined ? undefined : String(values.reuse)
  return bench.withServer({ env, dataDir }, async (server) => {
    const credentials = await server.credentials()
    const api = await ChatApi.connect(server.origin, credentials)
    const status = await BenchApi.connect(server.origin, credentials)
    // A long run asks more questions than the default licence allows.
    execFileSync(
      process.execPath,
      [
        join(ROOT, 'dist/cli/index.js'),
        'admin',
        'company',
        'update',
        '--id',
        api.companyId,
        '--questions-max',
        '100000000',
      ],
      { env: { ...process.env, LANTERN_DATA_DIR: server.dataDir }, stdio: 'ignore' },
    )

    // Ingestion: batches of documents until the target or the time box.
    const started = Date.now()
    const docs: Tracked[] = []
    let chunks = 0
    let n = 0
    if (values.reuse !== undefined) {
      console.log(`  reusing the knowledge base in ${values.reuse}`)
    } else if (values.build === 'direct') {
      const wordsPerChunk = Math.round((Number(values['chunk-tokens'] ?? 400) * 3) / 4)
      const handle = openDatabase({ dataDir: server.dataDir, databaseUrl: undefined, pgPoolSize: 1 })
      const store = createKyselyStore(handle)
      try {
        // Documents needed for the target; their heads are uploaded before any direct write, so the
        // service never waits for the database while the bench writes.
        const chunksOf = (i: number) => Math.ceil(makeDoc(i).split(/\s+/).filter(Boolean).length / wordsPerChunk)
        const plan: number[] = []
        for (let planned = 0; planned < target; ) {
          planned += chunksOf(plan.length)
          plan.push(plan.length)
        }
        const ids = await pool(plan, 2, (i) =>
          api.uploadText(`generated-${String(i).padStart(4, '0')}.txt`, makeDoc(i).slice(0, 2000), '/latency/'),
        )
        const tracked = ids.map((id) => track(id))
        docs.push(...tracked)
        await waitForAll(status, tracked, { timeoutMs: 600_000, stuckAfterMs: 300_000, pollMs: 500 })
        for (const [i, doc] of tracked.entries()) {
          if (doc.outcome !== 'PROCESSED' || Date.now() > ingestDeadline) continue
          const words = makeDoc(i).split(/\s+/).filter(Boolean)
          const drafts: ChunkDraft[] = []
          for (let at = 0; at < words.length; at += wordsPerChunk) {
            const slice = words.slice(at, at + wordsPerChunk)
            drafts.push({
              idx: drafts.length,
              text: slice.join(' '),
              tokenCount: Math.round((slice.length * 4) / 3),
              pageNumber: null,
              rowIdx: null,
              metadata: {},
            })
          }
          await store.transaction(async (tx) => {
            await indexDocument(tx, api.companyId, doc.id, {
              chunks: drafts,
              pageCount: 1,
              documentType: 'text',
              language: 'en',
              description: null,
              card: EMPTY_CARD,
            })
            await tx.knowledgeBase.updateProcessing(api.companyId, doc.id, 'any', { chunkCount: drafts.length })
          })
          chunks += drafts.length
          if (i % 8 === 7)
            console.log(`  ${i + 1} documents, ${chunks} chunks after ${round((Date.now() - started) / 1000)} s`)
        }
        n = plan.length
      } finally {
        await handle.close()
      }
    } else {
      let perDoc = 0
      let secondsPerDoc = 0
      while (chunks < target && Date.now() < ingestDeadline) {
        let batch = perDoc === 0 ? 1 : Math.max(1, Math.min(8, Math.ceil((target - chunks) / perDoc)))
        // Only what fits in the time box: documents left processing would run during the measurements.
        if (secondsPerDoc > 0) batch = Math.min(batch, Math.floor((ingestDeadline - Date.now()) / 1000 / secondsPerDoc))
        if (batch < 1) break
        const batchStarted = Date.now()
        const ids = await pool(
          Array.from({ length: batch }, () => n++),
          2,
          (i) => api.uploadText(`generated-${String(i).padStart(4, '0')}.txt`, makeDoc(i), '/latency/'),
        )
        const tracked = ids.map((id) => track(id))
        docs.push(...tracked)
        await waitForAll(status, tracked, {
          timeoutMs: Math.max(1000, ingestDeadline - Date.now()),
          stuckAfterMs: 660_000,
          pollMs: 1000,
          abort: () => (server.running ? undefined : `the server exited (code ${server.exitCode})`),
        })
        chunks = docs.reduce((sum, doc) => sum + (doc.outcome === 'PROCESSED' ? (doc.last?.chunk_count ?? 0) : 0), 0)
        secondsPerDoc = (Date.now() - batchStarted) / 1000 / batch
        const processed = docs.filter((doc) => doc.outcome === 'PROCESSED')
        perDoc = processed.length > 0 ? chunks / processed.length : 0
        console.log(`  ${docs.length} documents, ${chunks} chunks after ${round((Date.now() - started) / 1000)} s`)
        if (!server.running) throw new Error(`the server exited:\n${server.logTail()}`)
      }
    }
    const ingestSeconds = (Date.now() - started) / 1000

    // The floor: the same chunk texts in an in-memory FTS5 table.
    const db = new Database(join(server.dataDir, 'lantern.db'), { readonly: true })
    const rows = db.prepare('SELECT id, text FROM chunks').all() as Array<{ id: string; text: string }>
    const documentCount = (db.prepare('SELECT count(DISTINCT document_id) AS n FROM chunks').get() as { n: number }).n
    db.close()
    const fts = new Fts5Baseline()
    fts.addAll(rows.map((row) => [row.id, row.text] as const))
    const ftsSamples: number[] = []
    for (let i = 0; i < requests; i++) {
      const t0 = performance.now()
      fts.search(queries[i % queries.length] as string, 10)
      ftsSamples.push(performance.now() - t0)
    }
    fts.close()
    console.log(`  ${rows.length} chunks in the database; FTS5 p50 ${round(quantile(ftsSamples, 0.5), 2)} ms`)

    // Sequential latency, after a warm-up: the company's first search starts loading its in-memory
    // index (the store answers meanwhile), so searches go on until they are fast (under 1 s, at
    // least 10 of them, at most 10 minutes); the time it took is reported.
    // The first requests may meet a keep-alive socket the service closed while the bench was busy.
    const warmStarted = Date.now()
    let warmups = 0
    for (let fastInARow = 0; fastInARow < 3 || warmups < 10; warmups++) {
      const query = queries[warmups % queries.length] as string
      const t0 = performance.now()
      for (let attempt = 1; ; attempt++) {
        try {
          await api.search(query, 10)
          break
        } catch (error) {
          if (attempt >= 3) throw error
        }
      }
      fastInARow = performance.now() - t0 < 1000 ? fastInARow + 1 : 0
      if (Date.now() - warmStarted > 600_000) break
    }
    const warmSeconds = (Date.now() - warmStarted) / 1000
    console.log(`  warm-up: ${warmups} searches in ${round(warmSeconds)} s`)
    const searchSamples: number[] = []
    const slowSearch: Array<[number, string]> = []
    const searchEnd = Date.now() + phaseMaxMs
    for (let i = 0; i < requests && Date.now() < searchEnd; i++) {
      const query = queries[i % queries.length] as string
      const t0 = performance.now()
      await api.search(query, 10)
      const ms = performance.now() - t0
      searchSamples.push(ms)
      slowSearch.push([ms, query])
    }
    const chats = await pool(
      Array.from({ length: 64 }, (_, i) => i),
      4,
      (i) => api.createChat(`latency ${i}`),
    )
    for (let i = 0; i < 5; i++) await api.send(chats[i] as string, queries[i] as string)
    const sendSamples: number[] = []
    const slowSend: Array<[number, string]> = []
    const sendEnd = Date.now() + phaseMaxMs
    for (let i = 0; i < requests && Date.now() < sendEnd; i++) {
      // one question per chat turn, spread over 64 chats so the history stays short
      const query = queries[i % queries.length] as string
      const t0 = performance.now()
      await api.send(chats[i % chats.length] as string, query)
      const ms = performance.now() - t0
      sendSamples.push(ms)
      slowSend.push([ms, query])
    }
    console.log(
      `  sequential: search p50 ${round(quantile(searchSamples, 0.5), 1)} ms, send p50 ${round(quantile(sendSamples, 0.5), 1)} ms`,
    )

    // Throughput under concurrent clients.
    const searchBodies = queries.map((query) => JSON.stringify({ query, limit: 10 }))
    const sendBodies = queries.map((message) => JSON.stringify({ message }))
    const searchLoad = await cannon(api.searchUrl, await api.token(), searchBodies, undefined, connections, duration)
    const sendLoad = await cannon(
      api.messagesUrl(chats[0] as string),
      await api.token(),
      sendBodies,
      chats.map((chat) => api.messagesUrl(chat)),
      connections,
      duration,
    )
    console.log(
      `  load: search ${round(searchLoad.requestsPerSecond)} req/s, send ${round(sendLoad.requestsPerSecond)} req/s`,
    )

    server.rss.sampleNow()
    const search = timing(searchSamples)
    const send = timing(sendSamples)
    const floor = timing(ftsSamples)
    const slowest = (list: Array<[number, string]>) =>
      [...list]
        .sort((a, b) => b[0] - a[0])
        .filter((entry, i, all) => all.findIndex((other) => other[1] === entry[1]) === i)
        .slice(0, 3)
        .map(([ms, query]) => `${round(ms)} ms "${query.slice(0, 70)}"`)
        .join('; ')
    const markdown = [
      `Machine: ${bench.machineLine}; load at start ${bench.loadAtStart}, at end ${load()}.`,
      `Knowledge base: ${documentCount} generated text documents (${values['doc-kib']} KiB each, CACM abstracts shuffled), ${rows.length} chunks${env.LANTERN_CHUNK_TOKENS ? ` of ${env.LANTERN_CHUNK_TOKENS} tokens` : ' (default chunk size)'}, ${values.reuse !== undefined ? `reused from ${values.reuse}` : `built in ${round(ingestSeconds)} s`} (${values.build === 'direct' ? 'direct: chunks written with indexDocument into the database' : `upload: the service's ingestion with ${common.workers} workers`})${rows.length < target ? ` (target ${target} not reached in the time box)` : ''}; server peak RSS ${mib(server.rss.peakHwmBytes)}.`,
      `Warm-up: ${warmups} searches in ${round(warmSeconds)} s (the first search loads the company's in-memory index; until then the store answers).`,
      `Queries: the 64 CACM queries in turn; search limit 10; send-message over 64 chats of the default bot (offline answerer); ${searchSamples.length} sequential searches and ${sendSamples.length} sequential messages after a warm-up; load runs ${duration} s with ${connections} connections (autocannon).`,
      '',
      table(
        ['operation', 'p50 (ms)', 'p99 (ms)', 'mean (ms)', 'max (ms)'],
        [
          [
            'raw FTS5 bm25() query, in process (floor)',
            round(floor.p50, 2),
            round(floor.p99, 2),
            round(floor.mean, 2),
            round(floor.max, 2),
          ],
          [
            'search extension (HTTP)',
            round(search.p50, 1),
            round(search.p99, 1),
            round(search.mean, 1),
            round(search.max, 1),
          ],
          [
            'send-message, offline answerer (HTTP)',
            round(send.p50, 1),
            round(send.p99, 1),
            round(send.mean, 1),
            round(send.max, 1),
          ],
        ],
      ),
      '',
      table(
        [
          `${connections} concurrent clients, ${duration} s`,
          'req/s',
          'p50 (ms)',
          'p99 (ms)',
          'requests',
          'non-2xx',
          'errors',
        ],
        [
          [
            'search',
            round(searchLoad.requestsPerSecond),
            searchLoad.p50,
            searchLoad.p99,
            searchLoad.total,
            searchLoad.non2xx,
            searchLoad.errors,
          ],
          [
            'send-message',
            round(sendLoad.requestsPerSecond),
            sendLoad.p50,
            sendLoad.p99,
            sendLoad.total,
            sendLoad.non2xx,
            sendLoad.errors,
          ],
        ],
      ),
      '',
      `Slowest sequential searches: ${slowest(slowSearch)}.`,
      `Slowest sequential send-message: ${slowest(slowSend)}.`,
    ].join('\n')
    const json = {
      machine: bench.machine,
      env,
      build: values.build,
      chunks: rows.length,
      ingestSeconds,
      warmSeconds,
      floor,
      search,
      send,
      searchLoad,
      sendLoad,
    }
    return { json, markdown }
  })
}

runBench({
  name: 'latency',
  usage: USAGE,
  options: {
    build: { type: 'string', default: 'direct' },
    chunks: { type: 'string', default: '100000' },
    'chunk-tokens': { type: 'string' },
    'doc-kib': { type: 'string', default: '2048' },
    'ingest-min': { type: 'string', default: '25' },
    requests: { type: 'string', default: '200' },
    connections: { type: 'string', default: '32' },
    duration: { type: 'string', default: '15' },
    'phase-max-s': { type: 'string', default: '120' },
    reuse: { type: 'string' },
  },
  data: ['cacm-retrieval'],
  service: { timeoutMin: 45 },
  run: main,
})
