/**
 * Ingestion robustness: every file of ../shared/data/parser-robustness is uploaded to a fresh
 * service; each must end PROCESSED or ERROR with a specific reason, none stuck, and the service
 * must not crash. Prints counts per format, the errors grouped by cause, and the files that
 * processed to nothing. Usage: npm run bench:ingest-robustness -- [--help]
 */
import { readFileSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import { parse } from 'csv-parse/sync'
import { BenchApi, HttpError } from '../support/api.js'
import { round, table } from '../support/report.js'
import { mib } from '../support/rss.js'
import { COMMON_USAGE, type Results, runBench, type ServiceBench, settingsLine } from '../support/run-bench.js'
import { inFlightAt, type Outcome, type Tracked, track, waitForAll } from '../support/wait.js'

const USAGE = `npm run bench:ingest-robustness -- [options]

Uploads every file listed in parser-robustness/MANIFEST.csv to a fresh service and waits for each.
  --budget-s S           LANTERN_DOC_TIME_BUDGET_MS of the service, in seconds (default 120)
  --only TEXT            only the files whose path contains TEXT (for a quick re-run)
${COMMON_USAGE}`

interface ManifestRow {
  readonly path: string
  readonly ext: string
  readonly bytes: string
  readonly tags: string
  readonly checks: string
}

interface FileResult {
  readonly path: string
  readonly ext: string
  readonly bytes: number
  readonly tags: string
  outcome: Outcome | 'REJECTED'
  detail: string
  chunks: number
  pages: number
  durationS: number | null
  attempts: number
}

// Details that say nothing about the file: a parser owner cannot act on these.
const UNSPECIFIC = /^$|internal|unexpected|unknown error|crash|undefined|\[object|is not a function|cannot read prop/i

/** The cause of an error without its particulars, so files failing the same way group together. */
function causeOf(detail: string): string {
  return detail
    .replace(/"[^"]*"|'[^']*'|«[^»]*»/g, '"…"')
    .replace(/\b\d+(\.\d+)?\s*(ms|s|MB|MiB|KB|bytes|pages?)?\b/g, 'N$2')
    .replace(/\s+/g, ' ')
    .slice(0, 140)
}

async function main(bench: ServiceBench): Promise<Results> {
  const { values, common } = bench
  const budgetMs = Number(values['budget-s']) * 1000
  if (!Number.isFinite(budgetMs) || budgetMs <= 0) throw new Error('--budget-s must be a positive number')
  const leaseMs = 30_000
  const [manifestPath = ''] = bench.data
  const folder = dirname(manifestPath)
  let rows = parse(readFileSync(manifestPath), { columns: true, skip_empty_lines: true }) as ManifestRow[]
  if (values.only) rows = rows.filter((row) => row.path.includes(String(values.only)))
  bench.announce(
    `bench:ingest-robustness: ${rows.length} files, ${common.workers} workers, budget ${budgetMs / 1000} s`,
  )

  const env = { LANTERN_DOC_TIME_BUDGET_MS: String(budgetMs), LANTERN_JOB_LEASE_MS: String(leaseMs) }
  let started = 0
  const results: FileResult[] = []
  const tracked = new Map<FileResult, Tracked>()
  const { server, serverCrashed, exitCode, errorLines, logTail } = await bench.withServer({ env }, async (server) => {
    started = Date.now()
    const api = await BenchApi.connect(server.origin, await server.credentials())
    let next = 0
    const uploadOne = async (): Promise<void> => {
      for (let row = rows[next++]; row !== undefined; row = rows[next++]) {
        const result: FileResult = {
          path: row.path,
          ext: row.ext || '(none)',
          bytes: Number(row.bytes),
          tags: row.tags,
          outcome: 'UNFINISHED',
          detail: '',
          chunks: 0,
          pages: 0,
          durationS: null,
          attempts: 0,
        }
        results.push(result)
        const target = `/${dirname(row.path)}/`.replace(/^\/\.\/$/, '/')
        try {
          const id = await api.upload(join(folder, row.path), basename(row.path), {
            path: target,
            loaderType: common.loader,
          })
          tracked.set(result, track(id))
        } catch (error) {
          result.outcome = 'REJECTED'
          result.detail = error instanceof HttpError ? `${error.status} ${error.body.slice(0, 200)}` : String(error)
        }
      }
    }
    await Promise.all([uploadOne(), uploadOne(), uploadOne(), uploadOne()])
    console.log(`uploaded ${tracked.size} of ${rows.length} files in ${round((Date.now() - started) / 1000)} s`)

    let lastPrint = 0
    await waitForAll(api, [...tracked.values()], {
      timeoutMs: common.timeoutMs - (Date.now() - started),
      stuckAfterMs: budgetMs + leaseMs + 30_000,
      pollMs: 1000,
      onRound: (done, total) => {
        if (Date.now() - lastPrint < 10_000) return
        lastPrint = Date.now()
        console.log(`  ${done}/${total} finished after ${round((Date.now() - started) / 1000)} s`)
      },
      abort: () => (server.running ? undefined : `the server exited (code ${server.exitCode})`),
    })
    server.rss.sampleNow()
    const crashed = !server.running
    return {
      server,
      serverCrashed: crashed,
      exitCode: server.exitCode,
      errorLines: server.errorLogLines(),
      logTail: crashed ? server.logTail() : '',
    }
  })
  const elapsedS = (Date.now() - started) / 1000

  for (const [result, doc] of tracked) {
    result.outcome = doc.outcome ?? 'UNFINISHED'
    result.detail = doc.outcome === 'ERROR' ? (doc.last?.error_details ?? '') : doc.note
    result.chunks = doc.last?.chunk_count ?? 0
    result.pages = doc.last?.doc_pages_count ?? 0
    result.durationS = doc.last?.duration ?? null
    result.attempts = doc.attempts.size
  }
  results.sort((a, b) => a.path.localeCompare(b.path))
  const markdown = render(results, {
    host: bench.machineAndLoad(),
    budgetS: budgetMs / 1000,
    settings: settingsLine(common),
    elapsedS,
    peak: server.rss.available ? mib(server.rss.peakHwmBytes) : 'n/a (no /proc)',
    peakAtS: (server.rss.peakRssAt - started) / 1000,
    peakDocs: [...tracked.entries()]
      .filter(([, doc]) => server.rss.peakRssAt > 0 && inFlightAt(doc, server.rss.peakRssAt))
      .map(([result]) => result.path),
    crashed: serverCrashed ? `yes (exit code ${exitCode})` : 'no',
    errorLines: errorLines.length,
  })
  if (serverCrashed) console.log(`\nserver log tail:\n${logTail}`)
  if (errorLines.length > 0) {
    console.log('\nserver error log lines (first 10):')
    for (const line of errorLines.slice(0, 10)) console.log(`  ${JSON.stringify(line).slice(0, 400)}`)
  }
  return { json: { machine: bench.machine, elapsedS, results, errorLines }, markdown }
}

interface RunInfo {
  readonly host: string
  readonly budgetS: number
  /** Workers, loader and PDF text source of the service. */
  readonly settings: string
  readonly elapsedS: number
  readonly peak: string
  /** Documents being processed when the sampled RSS peaked. */
  readonly peakDocs: readonly string[]
  readonly peakAtS: number
  readonly crashed: string
  readonly errorLines: number
}

const OUTCOMES = ['PROCESSED', 'ERROR', 'REJECTED', 'STUCK', 'UNFINISHED'] as const

function render(results: readonly FileResult[], run: RunInfo): string {
  const count = (list: readonly FileResult[], outcome: string) => list.filter((r) => r.outcome === outcome).length
  const byExt = new Map<string, FileResult[]>()
  for (const result of results) byExt.set(result.ext, [...(byExt.get(result.ext) ?? []), result])
  const formatRows = [...byExt.entries()]
    .sort((a, b) => b[1].length - a[1].length || a[0].localeCompare(b[0]))
    .map(([ext, list]) => [
      ext,
      list.length,
      ...OUTCOMES.map((o) => count(list, o)),
      list.filter((r) => r.outcome === 'PROCESSED' && r.chunks === 0).length,
    ])
  formatRows.push(['**all**', results.length, ...OUTCOMES.map((o) => count(results, o)), countEmpty(results)])

  const errors = results.filter((r) => r.outcome !== 'PROCESSED')
  const groups = new Map<string, FileResult[]>()
  for (const result of errors) {
    const key = `${result.outcome}: ${causeOf(result.detail)}`
    groups.set(key, [...(groups.get(key) ?? []), result])
  }
  const groupRows = [...groups.entries()]
    .sort((a, b) => b[1].length - a[1].length)
    .map(([cause, list]) => [cause, list.length, list.map((r) => r.path).join(', ')])
  const unspecific = results.filter((r) => r.outcome === 'ERROR' && UNSPECIFIC.test(r.detail))
  const empty = results.filter((r) => r.outcome === 'PROCESSED' && r.chunks === 0)
  const slowest = results
    .filter((r) => r.durationS !== null)
    .sort((a, b) => (b.durationS ?? 0) - (a.durationS ?? 0))
    .slice(0, 10)
  const retried = results.filter((r) => r.attempts > 1)

  const ok = count(results, 'STUCK') + count(results, 'UNFINISHED') === 0 && run.crashed === 'no'
  return [
    `- Machine: ${run.host}`,
    `- Settings: ${run.settings}, time budget ${run.budgetS} s per document.`,
    `- Wall time ${round(run.elapsedS)} s; peak RSS of the service (VmHWM) ${run.peak}; service exited during the run: ${run.crashed}; ` +
      `error-level log lines: ${run.errorLines}.`,
    `- The sampled RSS peaked ${round(run.peakAtS)} s after the first upload, with ${
      run.peakDocs.join(', ') || 'no document'
    } in processing.`,
    `- Target (every file PROCESSED or ERROR with a specific reason, none stuck, no crash): ${
      ok && unspecific.length === 0 ? 'met' : 'NOT met'
    }.`,
    '',
    table(['format', 'files', ...OUTCOMES, 'processed with 0 chunks'], formatRows),
    '',
    `Errors and other non-PROCESSED outcomes by cause (${errors.length}):`,
    '',
    errors.length ? table(['outcome: cause', 'files', 'paths'], groupRows) : '(none)',
    '',
    `Every non-PROCESSED file with its exact detail:`,
    '',
    errors.length
      ? table(
          ['file', 'outcome', 'detail'],
          errors.map((r) => [r.path, r.outcome, r.detail]),
        )
      : '(none)',
    '',
    `- Errors with an unspecific reason (${unspecific.length}): ${unspecific.map((r) => r.path).join(', ') || 'none'}.`,
    '',
    `- PROCESSED with no chunk (${empty.length}): ${empty.map((r) => `${r.path} [${r.tags || 'no tag'}]`).join(', ') || 'none'}.`,
    '',
    `- Retried after a lost lease (${retried.length}): ${retried.map((r) => r.path).join(', ') || 'none'}.`,
    '',
    'Slowest documents (service `duration`, s):',
    '',
    table(
      ['file', 'outcome', 'duration s', 'pages', 'chunks'],
      slowest.map((r) => [r.path, r.outcome, r.durationS ?? '', r.pages, r.chunks]),
    ),
  ].join('\n')
}

function countEmpty(results: readonly FileResult[]): number {
  return results.filter((r) => r.outcome === 'PROCESSED' && r.chunks === 0).length
}

runBench({
  name: 'ingest-robustness',
  usage: USAGE,
  options: { 'budget-s': { type: 'string', default: '120' }, only: { type: 'string' } },
  data: ['parser-robustness/MANIFEST.csv'],
  service: { timeoutMin: 25, logLevel: 'info' },
  run: main,
})
