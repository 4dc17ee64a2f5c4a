/**
 * Data analysis over a large table: generates a CSV of --rows rows × 20 columns in a temp dir,
 * uploads it through the API to a fresh service (embedded SQLite) and waits until the service's
 * ingestion has PROCESSED it (which also prepares its typed tables), then asks a group-by question
 * with `data_analysis: true`: once as the first question of the process, and --repeat times warm.
 * `--ingest direct` instead marks the upload PROCESSED in the database with no ingestion, so the
 * first question loads the table itself (the path of documents processed before tables were
 * prepared). Reports the times and the service's peak RSS. Usage: npm run bench:analysis-large -- [--help]
 */
import { once } from 'node:events'
import { createWriteStream } from 'node:fs'
import { mkdtemp, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DuckDBInstance } from '@duckdb/node-api'
import { loadConfig } from '../../src/config.js'
import { TablePreparation } from '../../src/data-analysis/table-preparation.js'
import { ingestSettings } from '../../src/ingestion/jobs/settings.js'
import { FileBlobStore } from '../../src/storage/blobs/file-blob-store.js'
import { openDatabase } from '../../src/storage/database.js'
import { createKyselyStore } from '../../src/storage/kysely/store.js'
import { seededUniform } from '../../test/support/random.js'
import { BenchApi } from '../support/api.js'
import { round, table } from '../support/report.js'
import { mib } from '../support/rss.js'
import { COMMON_USAGE, load, type Results, runBench, type ServiceBench } from '../support/run-bench.js'

const USAGE = `npm run bench:analysis-large -- [options]

  --rows N        rows of the generated table (default 1000000); 20 columns
  --repeat N      warm repetitions of the question (default 5)
  --question Q    the question (default "What is the total amount per region?")
  --ingest MODE   service (default): the service's ingestion processes the upload (chunks and
                  prepared tables); prepared: marked PROCESSED in the database and its tables
                  prepared by the benchmark with the workers' code, no chunks (what a question
                  sees once ingestion is done, without waiting for the chunks of a huge table);
                  direct: marked PROCESSED with nothing prepared, so the first question loads
                  the table from the stored file
  --doc-memory-mb N  LANTERN_DOC_MEMORY_MB of the service (default: the service default, 1024)
${COMMON_USAGE}`

const REGIONS = ['North', 'South', 'East', 'West', 'Centre', 'Overseas', 'Online', 'Export', 'Islands', 'Mountains']
const CATEGORIES = Array.from({ length: 50 }, (_, i) => `Category ${i + 1}`)

/** Writes the CSV and returns the exact total amount per region (in cents, to compare with the answer). */
async function generate(path: string, rows: number): Promise<Map<string, number>> {
  const random = seededUniform(42)
  const totals = new Map<string, number>()
  const out = createWriteStream(path)
  const header = [
    'order_id',
    'region',
    'category',
    'amount',
    'quantity',
    'order_date',
    'customer',
    'status',
    ...Array.from({ length: 12 }, (_, i) => `metric_${i + 1}`),
  ]
  out.write(`${header.join(',')}\n`)
  let buffer = ''
  for (let i = 1; i <= rows; i++) {
    const region = REGIONS[Math.floor(random() * REGIONS.length)] as string
    const cents = Math.floor(random() * 100_000)
    totals.set(region, (totals.get(region) ?? 0) + cents)
    const day = 1 + Math.floor(random() * 28)
    const month = 1 + Math.floor(random() * 12)
    const metrics = Array.from({ length: 12 }, () => Math.floor(random() * 1000))
    buffer += `${i},${region},${CATEGORIES[Math.floor(random() * CATEGORIES.length)]},${(cents / 100).toFixed(2)},${1 + Math.floor(random() * 20)},2024-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')},C${Math.floor(random() * 50_000)},${random() < 0.1 ? 'late' : 'ok'},${metrics.join(',')}\n`
    if (buffer.length > 1 << 20) {
      if (!out.write(buffer)) await once(out, 'drain')
      buffer = ''
    }
  }
  out.end(buffer)
  await once(out, 'finish')
  return totals
}

/** The floor: the same group-by in a bare DuckDB (2 threads) over the CSV, then over a loaded table. */
async function baseline(file: string): Promise<{ csvS: number; tableS: number }> {
  const instance = await DuckDBInstance.create(':memory:', { threads: '2', memory_limit: '1024MB' })
  const connection = await instance.connect()
  try {
    let started = performance.now()
    await connection.runAndReadAll(`SELECT region, sum(amount) FROM read_csv('${file}') GROUP BY 1`)
    const csvS = (performance.now() - started) / 1000
    await connection.run(`CREATE TABLE t AS SELECT * FROM read_csv('${file}')`)
    started = performance.now()
    await connection.runAndReadAll('SELECT region, sum(amount) FROM t GROUP BY 1 ORDER BY 2 DESC')
    return { csvS, tableS: (performance.now() - started) / 1000 }
  } finally {
    connection.closeSync()
    instance.closeSync()
  }
}

async function call<T>(url: string, method: string, token: string, body?: unknown): Promise<{ ms: number; body: T }> {
  const started = performance.now()
  const response = await fetch(url, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  const text = await response.text()
  const ms = performance.now() - started
  if (!response.ok) throw new Error(`${method} ${url}: HTTP ${response.status} ${text.slice(0, 500)}`)
  return { ms, body: JSON.parse(text) as T }
}

async function main(bench: ServiceBench): Promise<Results> {
  const { values } = bench
  const rows = Number(values.rows)
  const repeat = Number(values.repeat)
  const question = String(values.question ?? 'What is the total amount per region?')
  const ingest = String(values.ingest)
  if (!['service', 'prepared', 'direct'].includes(ingest)) {
    throw new Error(`--ingest: service, prepared or direct, not ${ingest}`)
  }
  const dir = await mkdtemp(join(tmpdir(), 'lantern-analysis-bench-'))
  const file = join(dir, 'large.csv')
  console.log(`generating ${rows} rows × 20 columns…`)
  let started = performance.now()
  const expected = await generate(file, rows)
  const generateMs = performance.now() - started
  const bytes = (await stat(file)).size
  console.log(`  ${mib(bytes)} in ${round(generateMs / 1000)} s`)

  const env = {
    LANTERN_MAX_UPLOAD_BYTES: String(Math.max(bytes * 2, 100 * 1024 * 1024)),
    ...(values['doc-memory-mb'] ? { LANTERN_DOC_MEMORY_MB: String(values['doc-memory-mb']) } : {}),
  }
  const measured = bench.withServer({ workers: ingest === 'service' ? 2 : 0, env }, async (server) => {
    const credentials = await server.credentials()
    const api = await BenchApi.connect(server.origin, credentials)
    const issued = await call<{ access_token: string }>(`${api.base}/auth/token`, 'POST', '', {
      app_name: credentials.app_name,
      client_id: credentials.client_id,
      client_secret: credentials.client_secret,
    })
    const token = issued.body.access_token
    started = performance.now()
    const documentId = await api.upload(file, 'large.csv', { path: '/' })
    const uploadMs = performance.now() - started
    let prepareS: number | null = null
    let processing: {
      state: string
      error: string
      serviceS: number | null
      chunks: number | null
      wallS: number
    } | null = null
    if (ingest === 'service') {
      for (;;) {
        const state = await api.processing(documentId)
        if (state.embedding_state === 'PROCESSED' || state.embedding_state === 'ERROR') {
          processing = {
            state: state.embedding_state,
            error: state.error_details,
            serviceS: state.duration ?? null,
            chunks: state.chunk_count ?? null,
            wallS: round((performance.now() - started) / 1000, 1),
          }
          break
        }
        await new Promise((resolve) => setTimeout(resolve, 1000))
      }
      console.log(`  ingestion: ${processing.state} after ${processing.wallS} s (${processing.chunks} chunks)`)
      if (processing.state !== 'PROCESSED') throw new Error(`the upload ended ${processing.state}: ${processing.error}`)
    } else {
      // No ingestion worker runs: mark the document PROCESSED as the ingest job would and, with
      // `--ingest prepared`, prepare its tables with the workers' own code, skipping the chunks.
      const config = loadConfig({}, { dataDir: server.dataDir })
      const handle = openDatabase(config)
      const store = createKyselyStore(handle)
      const now = `${new Date().toISOString().slice(0, 23)}000`
      await store.knowledgeBase.updateProcessing(api.companyId, documentId, 'any', {
        state: 'PROCESSED',
        startedAt: now,
        endedAt: now,
        duration: 0,
      })
      if (ingest === 'prepared') {
        const document = await store.knowledgeBase.findById(api.companyId, documentId)
        if (document?.kind !== 'document') throw new Error('the upload is gone')
        const preparation = new TablePreparation(new FileBlobStore(join(server.dataDir, 'blobs')), {
          maxCells: config.analysisMaxCells,
          engine: { memoryLimit: `${config.analysisMemoryMb}MB`, threads: 2 },
          ingestLimits: ingestSettings(config).limits,
          directory: join(dir, 'prepare'),
        })
        const startedPreparing = performance.now()
        await preparation.prepare(document.blobKey, now, {
          documentId,
          objectName: document.objectName,
          mimeType: document.mimeType,
          csvDelimiter: document.csvDelimiter,
          path: file,
        })
        await preparation.close()
        prepareS = round((performance.now() - startedPreparing) / 1000, 2)
        console.log(`  tables prepared in ${prepareS} s`)
      }
      await store.close()
    }

    const bot = await call<{ id: string }>(`${api.base}/company/${api.companyId}/bot`, 'POST', token, {
      label: 'Analyst',
      description: 'numbers',
      prompt: { name: 'analyst', prompt: 'Numbers.' },
      data_scientist_mode: true,
    })
    const chat = await call<{ id: string }>(`${api.base}/chat`, 'POST', token, { title: 'bench', bot_id: bot.body.id })
    const ask = () =>
      call<{ analysis: { result: unknown; result_type: string; plan: string } | null; text: string }>(
        `${api.base}/chat/${chat.body.id}/messages`,
        'POST',
        token,
        { message: question, data_analysis: true, document_ids: [documentId] },
      )
    const rssBefore = server.rss.peakRssBytes
    const cold = await ask()
    const warm: number[] = []
    for (let i = 0; i < repeat; i++) warm.push((await ask()).ms)
    server.rss.sampleNow()
    warm.sort((a, b) => a - b)
    const median = warm[Math.floor(warm.length / 2)] ?? Number.NaN

    const result = cold.body.analysis?.result
    const want = [...expected.values()].map((cents) => cents / 100).sort((a, b) => b - a)
    const exact =
      Array.isArray(result) &&
      result.length === want.length &&
      result.every((value, i) => Math.abs(Number(value) - (want[i] as number)) < 1e-6)
    const floor = await baseline(file)
    const summary = {
      rows,
      columns: 20,
      fileMiB: round(bytes / 1024 / 1024),
      question,
      resultType: cold.body.analysis?.result_type ?? null,
      exact,
      plan: cold.body.analysis?.plan ?? null,
      generateS: round(generateMs / 1000, 2),
      uploadS: round(uploadMs / 1000, 2),
      ingest,
      docMemoryMb: values['doc-memory-mb'] ?? 'default',
      prepareS,
      processing,
      coldS: round(cold.ms / 1000, 2),
      warmMedianS: round(median / 1000, 3),
      warmMaxS: round((warm.at(-1) ?? Number.NaN) / 1000, 3),
      peakRss: mib(server.rss.peakRssBytes),
      peakRssBeforeQuestions: mib(rssBefore),
      baselineCsvS: round(floor.csvS, 2),
      baselineTableS: round(floor.tableS, 3),
      load: load(),
    }
    const markdown = [
      `Data analysis over a generated table (${bench.machineLine}, load ${summary.load})`,
      '',
      table(
        [
          'rows × cols',
          'file',
          'upload',
          'to PROCESSED',
          'first question',
          `warm median (n=${repeat})`,
          'warm max',
          'peak RSS',
          'exact',
        ],
        [
          [
            `${rows} × 20`,
            `${summary.fileMiB} MiB`,
            `${summary.uploadS} s`,
            processing
              ? `${processing.wallS} s (${processing.chunks} chunks)`
              : prepareS !== null
                ? `tables prepared in ${prepareS} s, no chunks (--ingest prepared)`
                : 'marked PROCESSED, nothing prepared (--ingest direct)',
            `${summary.coldS} s`,
            `${summary.warmMedianS} s`,
            `${summary.warmMaxS} s`,
            summary.peakRss,
            exact ? 'yes' : 'no',
          ],
        ],
      ),
      '',
      `Question: "${question}" → ${summary.resultType}; plan: ${String(summary.plan).split('\n')[0]}`,
      `Baseline (bare DuckDB, 2 threads, same machine and run): group-by straight from the CSV ${summary.baselineCsvS} s; over a loaded table ${summary.baselineTableS} s.`,
    ].join('\n')
    if (!cold.body.analysis) console.log(`the question was not computed:\n${cold.body.text}`)
    return { json: summary, markdown }
  })
  return measured.finally(() => rm(dir, { recursive: true, force: true }))
}

runBench({
  name: 'analysis-large',
  usage: USAGE,
  options: {
    rows: { type: 'string', default: '1000000' },
    repeat: { type: 'string', default: '5' },
    question: { type: 'string' },
    ingest: { type: 'string', default: 'service' },
    'doc-memory-mb': { type: 'string' },
  },
  service: { timeoutMin: 30 },
  run: main,
})
