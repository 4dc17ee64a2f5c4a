/**
 * Ingestion text quality: for each financebench evidence passage, the token coverage of its text
 * by the chunks of the cited page; `pdftotext` on the same page is the baseline in the same run.
 * Usage: npm run bench:ingest-quality -- [--help]
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { BenchApi } from '../support/api.js'
import { Bag, coverage, missingWords, pagesOf } from '../support/coverage.js'
import { hasPoppler, POPPLER_HINT, pdfText } from '../support/poppler.js'
import { round, table } from '../support/report.js'
import { mib } from '../support/rss.js'
import { COMMON_USAGE, type Results, runBench, type ServiceBench, settingsLine } from '../support/run-bench.js'
import { type Tracked, track, waitForAll } from '../support/wait.js'

const USAGE = `npm run bench:ingest-quality -- [options]

Ingests the financebench PDFs the questions cite, then measures, for every evidence passage, the
share of its words found in the chunks of the cited page (multiset token coverage, threshold 0.8).
  --threshold T          coverage that counts as found (default 0.8)
  --limit N              only the first N questions (a documented subset)
${COMMON_USAGE}`

interface Evidence {
  readonly question: string
  readonly doc: string
  /** 1-based, as Lantern numbers pages (the dataset's evidence_page_num is 0-based). */
  readonly page: number
  readonly text: string
}

interface Scored extends Evidence {
  /** Multiset coverage by the chunks of the cited page. */
  readonly coverage: number
  readonly presence: number
  readonly chunksOnPage: number
  /** The best neighbouring page (±1) and its coverage: a page-numbering slip shows up here. */
  readonly neighbour: { page: number; coverage: number }
  /** Coverage by all the document's chunks: low means the text is missing, not misplaced. */
  readonly wholeDocument: number
  /** Coverage of the same page by `pdftotext` (undefined without poppler). */
  readonly pdftotext: number | undefined
  readonly docState: string
  /** A few evidence words the page's chunks lack, to tell a parser loss from an annotation quirk. */
  readonly missing: readonly string[]
}

function loadEvidence(file: string, limit: number | undefined): Evidence[] {
  const lines = readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
  const evidence: Evidence[] = []
  for (const line of lines.slice(0, limit)) {
    const record = JSON.parse(line) as {
      financebench_id: string
      doc_name: string
      evidence: Array<{ evidence_text: string; doc_name?: string; evidence_page_num: number }>
    }
    for (const item of record.evidence) {
      evidence.push({
        question: record.financebench_id,
        doc: item.doc_name || record.doc_name,
        page: item.evidence_page_num + 1,
        text: item.evidence_text,
      })
    }
  }
  return evidence
}

/** The text of the chunks covering each page, per page number. */
function pageTexts(chunks: { documents: string[]; metadatas: Array<Record<string, unknown>> }): Map<number, string[]> {
  const pages = new Map<number, string[]>()
  chunks.documents.forEach((text, i) => {
    for (const page of pagesOf(chunks.metadatas[i]?.page_number)) pages.set(page, [...(pages.get(page) ?? []), text])
  })
  return pages
}

async function main(bench: ServiceBench): Promise<Results> {
  const { values, common } = bench
  const threshold = Number(values.threshold)
  const [questionsFile = '', pdfDir = ''] = bench.data
  const evidence = loadEvidence(questionsFile, values.limit ? Number(values.limit) : undefined)
  const docNames = [...new Set(evidence.map((e) => e.doc))].sort()
  const poppler = hasPoppler()
  if (!poppler) console.log(`pdftotext not found: ${POPPLER_HINT}; reporting the Lantern numbers alone`)
  bench.announce(`bench:ingest-quality: ${evidence.length} evidence passages in ${docNames.length} documents`)

  const docs = new Map<string, Tracked>()
  const pagesByDoc = new Map<string, Map<number, string[]>>()
  let started = 0
  const server = await bench.withServer({}, async (server) => {
    started = Date.now()
    const api = await BenchApi.connect(server.origin, await server.credentials())
    for (const name of docNames) {
      docs.set(
        name,
        track(await api.upload(join(pdfDir, `${name}.pdf`), `${name}.pdf`, { path: '/', loaderType: common.loader })),
      )
    }
    let lastPrint = 0
    await waitForAll(api, [...docs.values()], {
      timeoutMs: common.timeoutMs,
      stuckAfterMs: 600_000 + 60_000,
      pollMs: 1000,
      onRound: (done, total) => {
        if (Date.now() - lastPrint < 15_000) return
        lastPrint = Date.now()
        console.log(`  ${done}/${total} documents finished after ${round((Date.now() - started) / 1000)} s`)
      },
      abort: () => (server.running ? undefined : `the server exited (code ${server.exitCode})`),
    })
    for (const [name, doc] of docs) {
      if (doc.outcome === 'PROCESSED') pagesByDoc.set(name, pageTexts(await api.chunks(doc.id)))
    }
    return server
  })
  console.log(`ingested in ${round((Date.now() - started) / 1000)} s; scoring`)

  const scored: Scored[] = []
  for (const item of evidence) {
    const pages = pagesByDoc.get(item.doc) ?? new Map<number, string[]>()
    const onPage = pages.get(item.page) ?? []
    const pageBag = new Bag(onPage.join('\n'))
    const score = coverage(item.text, pageBag)
    const neighbours = [item.page - 1, item.page + 1].map((page) => ({
      page,
      coverage: coverage(item.text, new Bag((pages.get(page) ?? []).join('\n'))).multiset,
    }))
    const neighbour = neighbours.sort((a, b) => b.coverage - a.coverage)[0] ?? { page: 0, coverage: 0 }
    const everything = [...pages.values()].flat().join('\n')
    const baseline = poppler
      ? coverage(item.text, new Bag(await pdfText(join(pdfDir, `${item.doc}.pdf`), item.page))).multiset
      : undefined
    scored.push({
      ...item,
      coverage: score.multiset,
      presence: score.presence,
      chunksOnPage: onPage.length,
      neighbour,
      wholeDocument: coverage(item.text, new Bag(everything)).multiset,
      pdftotext: baseline,
      docState: docs.get(item.doc)?.outcome ?? 'not uploaded',
      missing: missingWords(item.text, pageBag),
    })
  }

  const markdown = render(scored, {
    host: bench.machineAndLoad(),
    threshold,
    docs: docNames.length,
    settings: settingsLine(common),
    peak: mib(server.rss.peakHwmBytes),
    notProcessed: [...docs.entries()]
      .filter(([, doc]) => doc.outcome !== 'PROCESSED')
      .map(([name, doc]) => `${name} (${doc.outcome}: ${doc.last?.error_details || doc.note})`),
  })
  return { json: { machine: bench.machine, threshold, scored }, markdown }
}

interface RunInfo {
  readonly host: string
  readonly threshold: number
  readonly docs: number
  /** Workers, loader and PDF text source of the service. */
  readonly settings: string
  readonly peak: string
  readonly notProcessed: readonly string[]
}

function render(scored: readonly Scored[], run: RunInfo): string {
  const pct = (part: number, whole: number) => `${round((100 * part) / Math.max(1, whole), 1)} %`
  const passed = scored.filter((s) => s.coverage >= run.threshold)
  const passedPresence = scored.filter((s) => s.presence >= run.threshold)
  const baselined = scored.filter((s) => s.pdftotext !== undefined)
  const baselinePassed = baselined.filter((s) => (s.pdftotext ?? 0) >= run.threshold)
  const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / Math.max(1, values.length)
  const failures = scored.filter((s) => s.coverage < run.threshold).sort((a, b) => a.coverage - b.coverage)
  const rows: Array<Array<string | number>> = [
    [
      'Lantern chunks of the cited page',
      `${passed.length}/${scored.length}`,
      pct(passed.length, scored.length),
      round(mean(scored.map((s) => s.coverage)), 3),
    ],
  ]
  if (baselined.length) {
    rows.push([
      'pdftotext of the cited page (baseline)',
      `${baselinePassed.length}/${baselined.length}`,
      pct(baselinePassed.length, baselined.length),
      round(mean(baselined.map((s) => s.pdftotext ?? 0)), 3),
    ])
  }
  const share = passed.length / Math.max(1, scored.length)
  return [
    `- Machine: ${run.host}`,
    `- Passages: ${scored.length} evidence items of ${run.docs} documents; ${run.settings}; ` + `peak RSS ${run.peak}.`,
    `- Coverage = multiset token coverage (lower-cased alphanumeric words; a word counts at most as often as it occurs ` +
      `on the page); a passage is found when coverage ≥ ${run.threshold}.`,
    '',
    table(['text source', `passages ≥ ${run.threshold}`, 'share', 'mean coverage'], rows),
    '',
    `- With set-style coverage (each evidence word found if it occurs on the page at all): ` +
      `${passedPresence.length}/${scored.length} (${pct(passedPresence.length, scored.length)}).`,
    `- Target ≥ 95 %: ${share >= 0.95 ? 'met' : 'NOT met'} (${pct(passed.length, scored.length)}).`,
    ...(run.notProcessed.length ? [`- Documents not PROCESSED: ${run.notProcessed.join('; ')}.`] : []),
    '',
    `Failures (${failures.length}), worst first; "±1 page" is the better neighbouring page, "whole doc" the ` +
      'coverage by every chunk of the document:',
    '',
    failures.length
      ? table(
          [
            'document',
            'page',
            'coverage',
            'set coverage',
            'chunks on page',
            '±1 page',
            'whole doc',
            'pdftotext',
            'missing words (sample)',
          ],
          failures.map((s) => [
            s.doc,
            s.page,
            round(s.coverage, 3),
            round(s.presence, 3),
            s.chunksOnPage,
            `p${s.neighbour.page}: ${round(s.neighbour.coverage, 3)}`,
            round(s.wholeDocument, 3),
            s.pdftotext === undefined ? 'n/a' : round(s.pdftotext, 3),
            s.missing.join(' '),
          ]),
        )
      : '(none)',
  ].join('\n')
}

runBench({
  name: 'ingest-quality',
  usage: USAGE,
  options: { threshold: { type: 'string', default: '0.8' }, limit: { type: 'string' } },
  data: ['financebench-subset/questions_subset.jsonl', 'financebench-subset/pdfs'],
  service: { timeoutMin: 25, logLevel: 'info' },
  run: main,
})
