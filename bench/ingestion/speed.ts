/**
 * Ingestion speed and memory on the financebench filings: pages per second end to end (upload →
 * PROCESSED) through a fresh service, with `pdftotext` run on the same files in the same run as
 * the baseline, and the service's peak resident memory. Usage: npm run bench:ingest-speed -- [--help]
 */
import { readdirSync, readFileSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { availableParallelism, tmpdir } from 'node:os'
import { basename, join, resolve } from 'node:path'
import { BenchApi } from '../support/api.js'
import { type CpuTimes, cpuTimes } from '../support/cpu.js'
import { requireData } from '../support/data.js'
import { writeLargePdf } from '../support/large-pdf.js'
import { hasPoppler, POPPLER_HINT, pdfPages, timePdftotext } from '../support/poppler.js'
import { round, table } from '../support/report.js'
import { mib } from '../support/rss.js'
import {
  COMMON_USAGE,
  type CommonOptions,
  type Results,
  runBench,
  type ServiceBench,
  settingsLine,
} from '../support/run-bench.js'
import { inFlightAt, serviceTime, type Tracked, track, waitForAll } from '../support/wait.js'

const USAGE = `npm run bench:ingest-speed -- [options]

Uploads the PDFs of financebench-subset/pdfs (or --dir) to a fresh service and times them to PROCESSED.
  --dir DIR              another folder of PDFs (default: the financebench filings)
  --limit N              only the first N files by name (a documented subset)
  --large-pages N        also time one generated N-page PDF alone on a fresh service (memory vs size)
${COMMON_USAGE}`

interface Pdf {
  readonly path: string
  readonly name: string
  pages: number
}

interface LanternRun {
  readonly label: string
  readonly files: number
  readonly pages: number
  readonly processed: number
  readonly failed: Array<{ name: string; state: string; detail: string }>
  readonly uploadMs: number
  readonly elapsedMs: number
  readonly serviceSeconds: number
  /** Most documents the service had in processing at once, by its start/end timestamps. */
  readonly maxInFlight: number
  /** Per document: pages, service start/end timestamps and duration, for a closer look. */
  readonly documents: Array<{
    name: string
    pages: number
    start: string | null
    end: string | null
    duration: number | null
    /** Seconds from the service's end_timestamp until the benchmark saw PROCESSED (polling every 0.5 s). */
    lagS: number | null
  }>
  /** Sum of lagS: work after end_timestamp (indexing the chunks) plus polling delay. */
  readonly lagSeconds: number
  readonly chunks: number
  readonly peakHwmBytes: number
  readonly peakTreeBytes: number
  /** Documents being processed when the sampled RSS peaked, with their page counts. */
  readonly peakDocs: string[]
  /** When the sampled RSS peaked, in seconds from the first upload. */
  readonly peakAtS: number
  readonly crashed: boolean
  readonly errorLogLines: number
  /** CPU the service used over the run (undefined without /proc). */
  readonly cpu: CpuTimes | undefined
}

async function lanternRun(
  { common, withServer }: ServiceBench,
  label: string,
  pdfs: readonly Pdf[],
): Promise<LanternRun> {
  const docs = new Map<Pdf, Tracked>()
  let started = 0
  let uploaded = 0
  const { server, cpu, crashed, errorLogLines } = await withServer({}, async (server) => {
    const api = await BenchApi.connect(server.origin, await server.credentials())
    started = Date.now()
    let next = 0
    const lane = async () => {
      for (let pdf = pdfs[next++]; pdf !== undefined; pdf = pdfs[next++]) {
        docs.set(pdf, track(await api.upload(pdf.path, pdf.name, { path: '/', loaderType: common.loader })))
      }
    }
    await Promise.all([lane(), lane()])
    uploaded = Date.now()
    let lastPrint = 0
    await waitForAll(api, [...docs.values()], {
      timeoutMs: common.timeoutMs,
      stuckAfterMs: 600_000 + 30_000 + 30_000,
      pollMs: 500,
      onRound: (done, total) => {
        if (Date.now() - lastPrint < 15_000) return
        lastPrint = Date.now()
        console.log(`  ${label}: ${done}/${total} finished after ${round((Date.now() - started) / 1000)} s`)
      },
      abort: () => (server.running ? undefined : `the server exited (code ${server.exitCode})`),
    })
    server.rss.sampleNow()
    return {
      server,
      cpu: cpuTimes(server.pid),
      crashed: !server.running,
      errorLogLines: server.errorLogLines().length,
    }
  })
  const all = [...docs.entries()]
  const done = all.filter(([, doc]) => doc.outcome === 'PROCESSED')
  const finishedAt = Math.max(started, ...all.map(([, doc]) => doc.finishedAt ?? Date.now()))
  return {
    label,
    files: pdfs.length,
    pages: done.reduce((sum, [pdf]) => sum + pdf.pages, 0),
    processed: done.length,
    failed: all
      .filter(([, doc]) => doc.outcome !== 'PROCESSED')
      .map(([pdf, doc]) => ({
        name: pdf.name,
        state: doc.outcome ?? 'UNFINISHED',
        detail: doc.last?.error_details || doc.note,
      })),
    uploadMs: uploaded - started,
    elapsedMs: finishedAt - started,
    serviceSeconds: all.reduce((sum, [, doc]) => sum + (doc.last?.duration ?? 0), 0),
    maxInFlight: maxOverlap(all.map(([, doc]) => doc)),
    documents: all.map(([pdf, doc]) => ({
      name: pdf.name,
      pages: pdf.pages,
      start: doc.last?.start_timestamp ?? null,
      end: doc.last?.end_timestamp ?? null,
      duration: doc.last?.duration ?? null,
      lagS: lagOf(doc),
    })),
    lagSeconds: all.reduce((sum, [, doc]) => sum + (lagOf(doc) ?? 0), 0),
    chunks: all.reduce((sum, [, doc]) => sum + (doc.last?.chunk_count ?? 0), 0),
    peakHwmBytes: server.rss.peakHwmBytes,
    peakTreeBytes: server.rss.peakTreeRssBytes,
    peakAtS: (server.rss.peakRssAt - started) / 1000,
    peakDocs: all
      .filter(([, doc]) => server.rss.peakRssAt > 0 && inFlightAt(doc, server.rss.peakRssAt))
      .map(([pdf]) => `${pdf.name} (${pdf.pages} p.)`),
    crashed,
    errorLogLines,
    cpu,
  }
}

/** Where the service's CPU went: a steadier measure than wall time on a shared machine. */
function cpuLine(run: LanternRun, pages: number): string {
  const { cpu } = run
  if (!cpu) return '- CPU: n/a (no /proc)'
  const total = cpu.processSeconds + cpu.childSeconds
  const cores = availableParallelism()
  return (
    `- CPU of the service: ${round(cpu.processSeconds)} s in its threads (main thread ${round(cpu.mainThreadSeconds)} s), ` +
    `${round(cpu.childSeconds)} s in child processes (mutool); ${round((total / Math.max(1, pages)) * 1000, 2)} ms per page, ` +
    `${Math.round((total / Math.max(0.001, (run.elapsedMs / 1000) * cores)) * 100)} % of the ${cores} cores over the wall time.`
  )
}

function lagOf(doc: Tracked): number | null {
  const end = serviceTime(doc.last?.end_timestamp)
  return end === undefined || doc.finishedAt === undefined ? null : (doc.finishedAt - end) / 1000
}

/** The largest number of documents whose [start, end] processing intervals overlap. */
function maxOverlap(docs: readonly Tracked[]): number {
  const events: Array<[number, number]> = []
  for (const doc of docs) {
    const start = serviceTime(doc.last?.start_timestamp)
    const end = serviceTime(doc.last?.end_timestamp)
    if (start !== undefined && end !== undefined) events.push([start, 1], [end, -1])
  }
  events.sort((a, b) => a[0] - b[0] || a[1] - b[1])
  let current = 0
  let most = 0
  for (const [, delta] of events) {
    current += delta
    most = Math.max(most, current)
  }
  return most
}

interface Baseline {
  readonly sequentialMs: number
  readonly parallelMs: number
}

async function baseline(pdfs: readonly Pdf[], workers: number): Promise<Baseline> {
  const paths = pdfs.map((pdf) => pdf.path)
  const sequentialMs = await timePdftotext(paths, 1)
  const parallelMs = await timePdftotext(paths, workers)
  return { sequentialMs, parallelMs }
}

const perSecond = (pages: number, ms: number) => (ms > 0 ? pages / (ms / 1000) : 0)

async function main(bench: ServiceBench): Promise<Results> {
  const { values, common } = bench
  const dir = values.dir
    ? resolve(String(values.dir))
    : (requireData('bench:ingest-speed', 'financebench-subset/pdfs')[0] as string)
  let names = readdirSync(dir)
    .filter((name) => name.toLowerCase().endsWith('.pdf'))
    .sort()
  const total = names.length
  if (values.limit) names = names.slice(0, Number(values.limit))
  const pdfs: Pdf[] = names.map((name) => ({ path: join(dir, name), name, pages: 0 }))
  const poppler = hasPoppler()
  if (!poppler) console.log(`pdftotext not found: ${POPPLER_HINT}; reporting the Lantern numbers alone`)
  bench.announce(`bench:ingest-speed: ${pdfs.length} of ${total} PDFs from ${dir}, ${common.workers} workers`)

  for (const pdf of pdfs) {
    pdf.pages = (poppler ? await pdfPages(pdf.path) : undefined) ?? 0
    readFileSync(pdf.path) // into the page cache, so neither side pays the first disk read
  }
  const pages = pdfs.reduce((sum, pdf) => sum + pdf.pages, 0)
  const before = poppler ? await baseline(pdfs, common.workers) : undefined
  if (before)
    console.log(
      `pdftotext before: ${round(before.sequentialMs / 1000)} s sequential, ${round(before.parallelMs / 1000)} s ×${common.workers}`,
    )
  const run = await lanternRun(bench, 'filings', pdfs)
  console.log(`lantern: ${run.processed}/${run.files} processed in ${round(run.elapsedMs / 1000)} s`)
  const after = poppler ? await baseline(pdfs, common.workers) : undefined

  let large: { run: LanternRun; baselineMs: number | undefined; pages: number } | undefined
  if (values['large-pages']) {
    const largePages = Number(values['large-pages'])
    const folder = await mkdtemp(join(tmpdir(), 'lantern-bench-large-'))
    const path = join(folder, `generated-${largePages}-pages.pdf`)
    try {
      await writeLargePdf(path, largePages)
      const pdf: Pdf = { path, name: basename(path), pages: largePages }
      const baselineMs = poppler ? await timePdftotext([path], 1) : undefined
      large = { run: await lanternRun(bench, 'large', [pdf]), baselineMs, pages: largePages }
    } finally {
      await rm(folder, { recursive: true, force: true })
    }
  }

  const markdown = render({
    host: bench.machineAndLoad(),
    common,
    pdfs,
    total,
    pages,
    before,
    after,
    run,
    large,
  })
  return { json: { machine: bench.machine, pdfs, before, after, run, large }, markdown }
}

interface Report {
  readonly host: string
  readonly common: CommonOptions
  readonly pdfs: readonly Pdf[]
  readonly total: number
  readonly pages: number
  readonly before: Baseline | undefined
  readonly after: Baseline | undefined
  readonly run: LanternRun
  readonly large: { run: LanternRun; baselineMs: number | undefined; pages: number } | undefined
}

function render(r: Report): string {
  const { run, common } = r
  const lanternRate = perSecond(run.pages, run.elapsedMs)
  const lines = [
    `- Machine: ${r.host}`,
    `- Files: ${r.pdfs.length} of ${r.total} PDFs, ${r.pages} pages (pdfinfo); ${settingsLine(common)}.`,
    '',
  ]
  const rows: Array<Array<string | number>> = [
    [`Lantern, ${common.workers} workers (upload → PROCESSED)`, round(run.elapsedMs / 1000), round(lanternRate), '—'],
  ]
  let ratio: number | undefined
  let sequentialRatio: number | undefined
  if (r.before && r.after) {
    const seqMs = (r.before.sequentialMs + r.after.sequentialMs) / 2
    const parMs = (r.before.parallelMs + r.after.parallelMs) / 2
    const seqRate = perSecond(r.pages, seqMs)
    const parRate = perSecond(r.pages, parMs)
    ratio = lanternRate / parRate
    sequentialRatio = lanternRate / seqRate
    rows.push(
      [
        `pdftotext, sequential (mean of before/after: ${round(r.before.sequentialMs / 1000)} / ${round(r.after.sequentialMs / 1000)} s)`,
        round(seqMs / 1000),
        round(seqRate),
        round(lanternRate / seqRate, 2),
      ],
      [
        `pdftotext, ${common.workers} in parallel (before/after: ${round(r.before.parallelMs / 1000)} / ${round(r.after.parallelMs / 1000)} s)`,
        round(parMs / 1000),
        round(parRate),
        round(ratio, 2),
      ],
    )
  }
  lines.push(table(['run', 'wall s', 'pages/s', 'Lantern ÷ this'], rows), '')
  const peak = run.peakHwmBytes
  lines.push(
    `- Lantern: ${run.processed}/${run.files} PROCESSED, ${run.chunks} chunks; uploads took ${round(run.uploadMs / 1000)} s of the wall time; ` +
      `sum of per-document service durations ${round(run.serviceSeconds)} s (${round((run.serviceSeconds / Math.max(1, r.pages)) * 1000)} ms per page per worker), ` +
      `i.e. on average ${round(run.serviceSeconds / Math.max(0.001, run.elapsedMs / 1000), 2)} documents in processing ` +
      `(at most ${run.maxInFlight} at once, by the service's timestamps). ` +
      `From end_timestamp to PROCESSED being visible: ${round(run.lagSeconds)} s in total ` +
      `(${round(run.lagSeconds / Math.max(1, run.processed), 2)} s per document, polling every 0.5 s).`,
    `- Peak RSS of the service process (VmHWM, worker threads included): ${mib(peak)}` +
      `${run.peakTreeBytes > peak ? ` (with child processes ${mib(run.peakTreeBytes)})` : ''}; ` +
      `service exited during the run: ${run.crashed ? 'yes' : 'no'}; error-level log lines: ${run.errorLogLines}; ` +
      `the sampled RSS peaked ${round(run.peakAtS)} s after the first upload, with ${
        run.peakDocs.join(', ') || 'no document'
      } in processing.`,
    cpuLine(run, r.pages),
    // The target compares with pdftotext run as it runs, one process (docs/decisions.md "What the
    // ingestion speed target compares with"); the parallel ratio is reported beside it, as a reference.
    `- Targets: ≥ 0.5 × pdftotext's pages/s, Lantern on ${common.workers} cores: ${
      ratio === undefined || sequentialRatio === undefined
        ? 'no baseline'
        : `${round(sequentialRatio, 2)} → ${sequentialRatio >= 0.5 ? 'met' : 'NOT met'} ` +
          `(reference, not the target: ${round(ratio, 2)} of ${common.workers} pdftotext in parallel)`
    }; RSS < 1 GiB: ${peak > 0 ? (peak < 1024 ** 3 ? 'met' : 'NOT met') : 'n/a (no /proc)'}.`,
  )
  if (run.failed.length) {
    lines.push(
      '',
      'Not PROCESSED:',
      '',
      table(
        ['file', 'state', 'detail'],
        run.failed.map((f) => [f.name, f.state, f.detail]),
      ),
    )
  }
  if (r.large) {
    const { run: big, pages, baselineMs } = r.large
    lines.push(
      '',
      `- One generated ${pages}-page PDF alone: ${big.processed ? 'PROCESSED' : `${big.failed[0]?.state}: ${big.failed[0]?.detail}`} in ${round(
        big.elapsedMs / 1000,
      )} s (${round(perSecond(big.processed ? pages : 0, big.elapsedMs))} pages/s${
        baselineMs ? `; pdftotext ${round(baselineMs / 1000)} s, ${round(perSecond(pages, baselineMs))} pages/s` : ''
      }); peak RSS ${mib(big.peakHwmBytes)}.`,
    )
  }
  return lines.join('\n')
}

runBench({
  name: 'ingest-speed',
  usage: USAGE,
  options: { dir: { type: 'string' }, limit: { type: 'string' }, 'large-pages': { type: 'string' } },
  service: { timeoutMin: 25, logLevel: 'info' },
  run: main,
})
