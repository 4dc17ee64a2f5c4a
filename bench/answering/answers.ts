/**
 * Answers on the financebench subset: each question is sent to a new chat (default bot, whole
 * knowledge base) and scored on (a) whether the sources include the evidence document and page and
 * (b) whether the answer text contains the gold figure or phrase. Offline answerer always; the same
 * with an LLM when LANTERN_LLM_BASE_URL is set. Usage: npm run bench:answers -- [--help]
 */
import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { BenchApi } from '../support/api.js'
import { ChatApi, pool, quantile } from '../support/chat-api.js'
import { requireData } from '../support/data.js'
import { coversPage, type GoldKind, matchesGold } from '../support/gold.js'
import { readJsonl } from '../support/ir-metrics.js'
import { COMMON_USAGE, type CommonOptions, parseOptions } from '../support/options.js'
import { load, machine, machineLine, round, saveResults, table } from '../support/report.js'
import { BenchServer } from '../support/server.js'
import { track, waitForAll } from '../support/wait.js'

const USAGE = `npm run bench:answers -- [options]

Uploads the financebench PDFs the questions need, then asks each of the 100 questions in its own chat.
  --limit N              only the first N questions (and their PDFs)
  --concurrency N        uploads in flight (default 4)
${COMMON_USAGE}
An LLM run is added when LANTERN_LLM_BASE_URL (and _API_KEY, _MODEL) are set in the environment.`

interface Question {
  readonly financebench_id: string
  readonly doc_name: string
  readonly question_type: string
  readonly question: string
  readonly answer: string
  readonly evidence: ReadonlyArray<{ readonly doc_name: string; readonly evidence_page_num: number }>
}

interface Outcome {
  readonly id: string
  readonly type: string
  readonly docHit: boolean
  readonly pageHit: boolean
  readonly goldKind: GoldKind
  readonly goldHit: boolean
  /** The same question through the search extension (limit 10): evidence document / page in the hits. */
  readonly searchDocHit: boolean
  readonly searchPageHit: boolean
  readonly notFound: boolean
  readonly ms: number
  readonly sources: string[]
  readonly answer: string
  readonly error?: string
}

interface ModeResult {
  readonly mode: string
  readonly outcomes: Outcome[]
  readonly ingestSeconds: number
  readonly chunks: number
  readonly failedDocs: string[]
}

async function run(
  mode: string,
  env: Record<string, string>,
  questions: readonly Question[],
  pdfDir: string,
  common: CommonOptions,
  concurrency: number,
): Promise<ModeResult> {
  const server = await BenchServer.start({
    runtime: common.runtime,
    workers: common.workers,
    keep: common.keep,
    logLevel: 'warn',
    env,
  })
  try {
    const credentials = await server.credentials()
    const api = await ChatApi.connect(server.origin, credentials)
    const status = await BenchApi.connect(server.origin, credentials)
    const names = [...new Set(questions.map((q) => q.doc_name))].sort()
    const started = Date.now()
    const ids = await pool(names, concurrency, (name) =>
      status.upload(join(pdfDir, `${name}.pdf`), `${name}.pdf`, { path: '/', loaderType: common.loader }),
    )
    const docs = ids.map((id) => track(id))
    let lastPrint = 0
    await waitForAll(status, docs, {
      timeoutMs: common.timeoutMs,
      stuckAfterMs: 600_000 + 60_000,
      pollMs: 1000,
      onRound: (done, total) => {
        if (Date.now() - lastPrint < 15_000) return
        lastPrint = Date.now()
        console.log(`  ${mode}: ${done}/${total} PDFs processed after ${round((Date.now() - started) / 1000)} s`)
      },
      abort: () => (server.running ? undefined : `the server exited (code ${server.exitCode})`),
    })
    const ingestSeconds = (Date.now() - started) / 1000
    const failedDocs = docs.flatMap((doc, i) =>
      doc.outcome === 'PROCESSED' ? [] : [`${names[i]}: ${doc.outcome} ${doc.last?.error_details ?? doc.note}`],
    )
    const chunks = docs.reduce((sum, doc) => sum + (doc.last?.chunk_count ?? 0), 0)
    console.log(
      `  ${mode}: ${docs.length - failedDocs.length}/${docs.length} PDFs, ${chunks} chunks in ${round(ingestSeconds)} s; asking ${questions.length} questions`,
    )
    const outcomes: Outcome[] = []
    for (const q of questions) {
      const pages = q.evidence.filter((e) => e.doc_name === q.doc_name).map((e) => e.evidence_page_num + 1)
      const t0 = performance.now()
      try {
        const chatId = await api.createChat(q.financebench_id)
        const answer = await api.send(chatId, q.question)
        const ms = performance.now() - t0
        const fromDoc = answer.sources.filter((s) => s.object_name.endsWith(`${q.doc_name}.pdf`))
        const gold = matchesGold(answer.text, q.answer)
        const { hits } = await api.search(q.question, 10)
        const hitsFromDoc = hits.filter((h) => h.object_name.endsWith(`${q.doc_name}.pdf`))
        outcomes.push({
          id: q.financebench_id,
          type: q.question_type,
          docHit: fromDoc.length > 0,
          pageHit: fromDoc.some((s) => pages.some((page) => coversPage(s.page_number, page))),
          goldKind: gold.kind,
          goldHit: gold.hit,
          searchDocHit: hitsFromDoc.length > 0,
          searchPageHit: hitsFromDoc.some((h) => pages.some((page) => coversPage(h.page_number, page))),
          notFound: answer.sources.length === 0,
          ms,
          sources: answer.sources.map((s) => `${s.filename} p.${s.page_number}`),
          answer: answer.text,
        })
      } catch (error) {
        outcomes.push({
          id: q.financebench_id,
          type: q.question_type,
          docHit: false,
          pageHit: false,
          goldKind: matchesGold('', q.answer).kind,
          goldHit: false,
          searchDocHit: false,
          searchPageHit: false,
          notFound: true,
          ms: performance.now() - t0,
          sources: [],
          answer: '',
          error: (error as Error).message.slice(0, 300),
        })
      }
    }
    return { mode, outcomes, ingestSeconds, chunks, failedDocs }
  } finally {
    await server.stop()
  }
}

const pct = (part: number, whole: number) => (whole > 0 ? `${round((100 * part) / whole, 1)}%` : '-')

function rows(result: ModeResult): Array<Array<string | number>> {
  const groups: Array<[string, Outcome[]]> = [['all', result.outcomes]]
  for (const type of [...new Set(result.outcomes.map((o) => o.type))].sort()) {
    groups.push([type, result.outcomes.filter((o) => o.type === type)])
  }
  return groups.map(([label, list]) => [
    `${result.mode}: ${label}`,
    list.length,
    pct(list.filter((o) => o.docHit).length, list.length),
    pct(list.filter((o) => o.pageHit).length, list.length),
    pct(list.filter((o) => o.goldHit).length, list.length),
    pct(list.filter((o) => o.notFound).length, list.length),
    pct(list.filter((o) => o.searchDocHit).length, list.length),
    pct(list.filter((o) => o.searchPageHit).length, list.length),
    round(
      quantile(
        list.map((o) => o.ms),
        0.5,
      ),
    ),
  ])
}

async function main(): Promise<void> {
  const { common, values } = parseOptions(
    USAGE,
    { limit: { type: 'string' }, concurrency: { type: 'string', default: '4' } },
    40,
  )
  const [dir] = requireData('bench:answers', 'financebench-subset') as [string]
  const pdfDir = join(dir, 'pdfs')
  const available = new Set(readdirSync(pdfDir).map((name) => name.replace(/\.pdf$/i, '')))
  let questions = readJsonl<Question>(join(dir, 'questions_subset.jsonl')).filter((q) => available.has(q.doc_name))
  if (values.limit) questions = questions.slice(0, Number(values.limit))
  const host = machine()
  const loadAtStart = load()
  console.log(`bench:answers: ${questions.length} questions, ${new Set(questions.map((q) => q.doc_name)).size} PDFs`)
  const modes: Array<[string, Record<string, string>]> = [['offline', {}]]
  const llm = process.env.LANTERN_LLM_BASE_URL?.trim()
  if (llm) {
    const env: Record<string, string> = {}
    for (const name of ['LANTERN_LLM_BASE_URL', 'LANTERN_LLM_API_KEY', 'LANTERN_LLM_MODEL']) {
      const value = process.env[name]
      if (value) env[name] = value
    }
    modes.push([`llm (${process.env.LANTERN_LLM_MODEL ?? 'default model'})`, env])
  }
  const results: ModeResult[] = []
  for (const [mode, env] of modes)
    results.push(await run(mode, env, questions, pdfDir, common, Number(values.concurrency)))

  const kinds = (result: ModeResult) =>
    (['number', 'figure', 'phrase'] as const)
      .map((kind) => {
        const list = result.outcomes.filter((o) => o.goldKind === kind)
        return `${kind} ${list.filter((o) => o.goldHit).length}/${list.length}`
      })
      .join(', ')
  const markdown = [
    `Machine: ${machineLine(host)}; load ${loadAtStart}.`,
    ...results.map(
      (r) =>
        `${r.mode}: ${r.outcomes.length} questions; ingestion of the PDFs ${round(r.ingestSeconds)} s, ${r.chunks} chunks${r.failedDocs.length ? `; not processed: ${r.failedDocs.join('; ')}` : ''}; gold matches by kind: ${kinds(r)}; errors: ${r.outcomes.filter((o) => o.error).length}.`,
    ),
    '',
    table(
      [
        'answerer: question type',
        'questions',
        'evidence document in sources',
        'evidence document + page in sources',
        'gold figure/phrase in answer',
        'answers without sources (not found)',
        'search top-10: evidence document',
        'search top-10: document + page',
        'send-message p50 (ms)',
      ],
      results.flatMap(rows),
    ),
    llm ? '' : '\nNo LLM configured (LANTERN_LLM_BASE_URL unset): offline answerer only.',
  ].join('\n')
  const saved = saveResults('answers', { machine: host, load: loadAtStart, results }, markdown)
  console.log(`\n${markdown}\n\nsaved: ${saved}`)
}

main().catch((error: unknown) => {
  console.error(error)
  process.exit(1)
})
