/**
 * OCR throughput on a batch of one-page scans: pages per second end to end (upload → PROCESSED)
 * through a fresh service, with tesseract.js itself — one engine, loaded once, reading the same
 * pages one after the other, as the service's one OCR engine does — as the baseline, and the
 * service's CPU and peak resident memory. The pages are generated (sharp renders text as a 150 dpi
 * letter page), so the run needs no data. Usage: npm run bench:ingest-scans -- [--help]
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { availableParallelism, tmpdir } from 'node:os'
import { join } from 'node:path'
import sharp from 'sharp'
import { TesseractOcr } from '../../src/ingestion/ocr/ocr.js'
import { BenchApi } from '../support/api.js'
import { cpuTimes } from '../support/cpu.js'
import { round, table } from '../support/report.js'
import { mib } from '../support/rss.js'
import { COMMON_USAGE, type Results, runBench, type ServiceBench, settingsLine } from '../support/run-bench.js'
import { type Tracked, track, waitForAll } from '../support/wait.js'

const USAGE = `npm run bench:ingest-scans -- [options]

Uploads N generated one-page scans (PNG) to a fresh service and times them to PROCESSED, against
tesseract.js reading the same pages with one engine.
  --pages N              how many scans (default 12)
${COMMON_USAGE}`

const WORDS = (
  'the company reported revenue growth in the quarter while operating costs fell and the board ' +
  'approved a dividend for shareholders after reviewing cash flow capital expenditure and debt'
).split(' ')

/** A letter page at 150 dpi (1275 × 1650) with `lines` lines of prose, different on every page. */
function scanSvg(page: number, lines: number): string {
  const text: string[] = []
  for (let line = 0; line < lines; line++) {
    const words = Array.from({ length: 11 }, (_, i) => WORDS[(page * 7 + line * 3 + i * 5) % WORDS.length])
    text.push(
      `<text x="110" y="${150 + line * 44}" font-family="DejaVu Sans" font-size="24">${line + 1}. ${words.join(' ')}</text>`,
    )
  }
  return `<svg xmlns="http://www.w3.org/2000/svg" width="1275" height="1650"><rect width="100%" height="100%" fill="white"/>${text.join('')}</svg>`
}

async function main(bench: ServiceBench): Promise<Results> {
  const { values, common } = bench
  const count = Number(values.pages)
  bench.announce(`bench:ingest-scans: ${count} one-page scans, ${common.workers} workers`)
  const dir = await mkdtemp(join(tmpdir(), 'lantern-bench-scans-'))
  try {
    const files: string[] = []
    for (let page = 0; page < count; page++) {
      const path = join(dir, `scan-${String(page + 1).padStart(3, '0')}.png`)
      await writeFile(
        path,
        await sharp(Buffer.from(scanSvg(page, 30)))
          .png()
          .toBuffer(),
      )
      files.push(path)
    }
    const baselineMs = await tesseractAlone(files)
    console.log(`tesseract.js alone: ${round(baselineMs / 1000)} s`)
    const run = await lanternRun(bench, files)
    console.log(`lantern: ${run.processed}/${count} processed in ${round(run.elapsedMs / 1000)} s`)
    const cores = availableParallelism()
    const rate = (ms: number) => count / (ms / 1000)
    const markdown = [
      `- Machine: ${bench.machineAndLoad()}`,
      `- ${count} generated one-page scans (1275 × 1650 PNG, 30 lines of text each); ${settingsLine(common)}.`,
      '',
      table(
        ['run', 'wall s', 'pages/s', 'Lantern ÷ this'],
        [
          [
            `Lantern, ${common.workers} workers (upload → PROCESSED)`,
            round(run.elapsedMs / 1000),
            round(rate(run.elapsedMs), 2),
            '—',
          ],
          [
            'tesseract.js alone, one engine loaded once',
            round(baselineMs / 1000),
            round(rate(baselineMs), 2),
            round(rate(run.elapsedMs) / rate(baselineMs), 2),
          ],
        ],
      ),
      '',
      `- Lantern: ${run.processed}/${count} PROCESSED, ${run.chunks} chunks.`,
      `- Peak RSS of the service process (VmHWM, worker threads included): ${mib(run.peakHwmBytes)}.`,
      run.cpuSeconds === undefined
        ? '- CPU: n/a (no /proc)'
        : `- CPU of the service: ${round(run.cpuSeconds)} s (${round(run.cpuSeconds / count, 2)} s per page), ` +
          `${Math.round((run.cpuSeconds / ((run.elapsedMs / 1000) * cores)) * 100)} % of the ${cores} cores over the wall time.`,
    ].join('\n')
    return { json: { machine: bench.machine, count, baselineMs, run }, markdown }
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}

/** tesseract.js reading every page with one engine, started before the clock (as a warm service would have it). */
async function tesseractAlone(files: readonly string[]): Promise<number> {
  const engine = new TesseractOcr()
  try {
    await engine.recognize(
      await sharp(Buffer.from(scanSvg(0, 1)))
        .png()
        .toBuffer(),
      ['eng'],
    )
    const started = Date.now()
    for (const file of files) await engine.recognize(await readFile(file), ['eng'], { sidewaysRetry: true })
    return Date.now() - started
  } finally {
    await engine.terminate()
  }
}

interface ScanRun {
  readonly processed: number
  readonly chunks: number
  readonly elapsedMs: number
  readonly peakHwmBytes: number
  readonly cpuSeconds: number | undefined
}

async function lanternRun({ common, withServer }: ServiceBench, files: readonly string[]): Promise<ScanRun> {
  const docs: Tracked[] = []
  let started = 0
  const { server, cpuSeconds } = await withServer({}, async (server) => {
    const api = await BenchApi.connect(server.origin, await server.credentials())
    started = Date.now()
    for (const file of files)
      docs.push(track(await api.upload(file, file.split('/').pop() ?? 'scan.png', { path: '/' })))
    await waitForAll(api, docs, {
      timeoutMs: common.timeoutMs,
      stuckAfterMs: 600_000,
      pollMs: 500,
      abort: () => (server.running ? undefined : `the server exited (code ${server.exitCode})`),
    })
    server.rss.sampleNow()
    const cpu = cpuTimes(server.pid)
    return { server, cpuSeconds: cpu ? cpu.processSeconds + cpu.childSeconds : undefined }
  })
  const finishedAt = Math.max(started, ...docs.map((doc) => doc.finishedAt ?? Date.now()))
  return {
    processed: docs.filter((doc) => doc.outcome === 'PROCESSED').length,
    chunks: docs.reduce((sum, doc) => sum + (doc.last?.chunk_count ?? 0), 0),
    elapsedMs: finishedAt - started,
    peakHwmBytes: server.rss.peakHwmBytes,
    cpuSeconds,
  }
}

runBench({
  name: 'ingest-scans',
  usage: USAGE,
  options: { pages: { type: 'string', default: '12' } },
  service: { timeoutMin: 20, logLevel: 'info' },
  run: main,
})
