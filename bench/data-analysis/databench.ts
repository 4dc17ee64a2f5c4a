/**
 * Data-analysis mode on DataBench (SemEval-2025 Task 8) or InfiAgent-DABench. End to end by
 * default: every table uploaded through the API, every question asked through send-message with
 * `data_analysis: true` and `document_ids` (a bot with `data_scientist_mode`), the typed
 * `analysis.result` scored with the task's rules; the plain RAG answer (default bot, no
 * data-analysis mode) on the same questions in the same run as the baseline, scored on its text.
 * With LANTERN_LLM_BASE_URL set, a second service run measures the LLM planner.
 * `--direct`: the offline planner and DuckDB in this process (the service's table loader), no HTTP.
 * Usage: npm run bench:databench -- [--help]
 */
import { statSync } from 'node:fs'
import { join } from 'node:path'
import { createOfflinePlanner } from '../../src/data-analysis/offline-planner/index.js'
import { BenchApi } from '../support/api.js'
import { ChatApi } from '../support/chat-api.js'
import { requireData } from '../support/data.js'
import { round, table } from '../support/report.js'
import { COMMON_USAGE, load, type Results, runBench, type ServiceBench } from '../support/run-bench.js'
import { SPLITS, type Split, splitOf } from '../support/split.js'
import { track, waitForAll } from '../support/wait.js'
import { askAnalysis, askPlain, createAnalystChat } from './api.js'
import { DirectRunner } from './direct.js'
import { perTableReport } from './per-table.js'
import { type BenchQuestion, DATASET_DIRS, type Dataset, readQuestions } from './questions.js'
import { type AnswerType, numbersMatch, scoreDatabench, scoreText } from './scoring.js'

const USAGE = `npm run bench:databench -- [options]     (npm run bench:infiagent: --dataset infiagent)

  --dataset databench|databench-train|infiagent   questions and tables (default databench;
                         databench-train: 165 questions over 8 other tables, never used to develop the planner)
  --direct               planner + DuckDB in this process (no service, no baseline)
  --no-baseline          skip the plain RAG answers
  --limit N              only the first N questions
  --only P1,P2           only questions whose id starts with one of these prefixes (e.g. 071_COL,072)
  --split tune|held-out  only the questions over tables of that half (sha256 of the table id, as bench/support/split.ts)
  --cv                   also report leave-one-table-out: each table's right/wrong/declined and their mean over
                         tables, held-out tables first (bench/data-analysis/per-table.ts)
  --max-table-mb M       skip the questions over tables larger than M MB (ingestion time on a busy machine)
  --verbose              print every question with its result (misses only without it)
  --show-held-out        also print the questions over held-out tables of databench-train and infiagent
${COMMON_USAGE}
An LLM run is added when LANTERN_LLM_BASE_URL (and _API_KEY, _MODEL) are set in the environment.`

/** How one question went in one mode. */
interface Scored {
  readonly id: string
  readonly type: string
  /** `correct`, `wrong` (an answer that is not the gold), `declined`, `error`. */
  readonly verdict: 'correct' | 'wrong' | 'declined' | 'error'
  readonly result: unknown
  readonly plan: string
}

interface ModeReport {
  readonly mode: string
  readonly scored: Scored[]
  readonly seconds: number
}

function valueMatches(value: unknown, expected: string): boolean {
  if (value === null || value === undefined || Array.isArray(value) || typeof value === 'object') return false
  if (numbersMatch(value, expected)) return true
  return String(value).trim().toLowerCase() === expected.trim().toLowerCase()
}

/**
 * InfiAgent: every gold slot must be answered. Several named values (`values`) are matched slot by
 * slot by name (the question's format names them); a single slot may also be one plain value.
 */
function scoreInfiagent(result: unknown, gold: ReadonlyArray<readonly [string, string]>): boolean {
  if (result !== null && typeof result === 'object' && !Array.isArray(result)) {
    const named = new Map(Object.entries(result).map(([name, value]) => [name.toLowerCase(), value]))
    return gold.length > 0 && gold.every(([name, expected]) => valueMatches(named.get(name.toLowerCase()), expected))
  }
  if (gold.length !== 1) return false
  const value = Array.isArray(result) && result.length === 1 ? result[0] : result
  return valueMatches(value, gold[0]?.[1] ?? '')
}

function scoreResult(q: BenchQuestion, result: unknown): boolean {
  if (q.answerType === 'named_values') return scoreInfiagent(result, q.gold as ReadonlyArray<readonly [string, string]>)
  return scoreDatabench(result, q.gold as string, q.answerType as AnswerType)
}

function scoreAnswerText(q: BenchQuestion, text: string): boolean {
  if (q.answerType === 'named_values') {
    const gold = q.gold as ReadonlyArray<readonly [string, string]>
    return gold.every(([, value]) => {
      const numbers = Array.from(text.matchAll(/-?\d[\d,]*(?:\.\d+)?/g), (m) => m[0])
      return numbers.some((n) => numbersMatch(n, value)) || text.toLowerCase().includes(value.toLowerCase())
    })
  }
  return scoreText(text, q.gold as string, q.answerType as AnswerType)
}

function verdictOf(answered: boolean, correct: boolean): Scored['verdict'] {
  if (!answered) return 'declined'
  return correct ? 'correct' : 'wrong'
}

/** Prints one question's result: a miss, or any with `--verbose`. */
type QuestionLog = (q: BenchQuestion, s: Scored) => void

/** The sets no rule was written on: their held-out tables' questions are for figures, not for reading. */
const UNSEEN: ReadonlySet<Dataset> = new Set(['databench-train', 'infiagent'])

/**
 * A question's line is printed when it missed (every one with `verbose`), except a question over a
 * held-out table of an unseen set, which `--show-held-out` alone prints: a run over everything
 * (`--cv`) must not show what the planner is measured on.
 */
function questionLog(dataset: Dataset, verbose: boolean, showHeldOut: boolean): QuestionLog {
  return (q, s) => {
    if (!verbose && s.verdict === 'correct') return
    if (UNSEEN.has(dataset) && !showHeldOut && q.tableIds.some((id) => splitOf(id) === 'held-out')) return
    logLine(q, s)
  }
}

function logLine(q: BenchQuestion, s: Scored): void {
  const gold = typeof q.gold === 'string' ? q.gold : JSON.stringify(q.gold)
  console.log(
    `  ${s.verdict.padEnd(8)} ${q.id} | ${q.question.split('\n')[0]?.slice(0, 140)}\n           gold=${gold.slice(0, 120)} got=${JSON.stringify(s.result)?.slice(0, 120)} | ${s.plan.slice(0, 200)}`,
  )
}

async function runDirect(
  dataset: Dataset,
  dir: string,
  questions: readonly BenchQuestion[],
  log: QuestionLog,
): Promise<ModeReport> {
  const runner = await DirectRunner.create(join(dir, 'tables'))
  const planner = createOfflinePlanner()
  const started = Date.now()
  const scored: Scored[] = []
  for (const q of questions) {
    const answer = await runner.ask(planner, q.question, q.tableIds, 'en')
    const correct = answer.outcome === 'plan' && scoreResult(q, answer.result)
    const s: Scored = {
      id: q.id,
      type: q.answerType,
      verdict: answer.outcome === 'error' ? 'error' : verdictOf(answer.outcome === 'plan', correct),
      result: answer.result,
      plan: answer.plan,
    }
    log(q, s)
    scored.push(s)
  }
  return { mode: `offline planner, direct (${dataset})`, scored, seconds: (Date.now() - started) / 1000 }
}

/** One service run: upload the tables, then every question in data-analysis mode and (optionally) plain. */
function runService(
  { common, withServer }: ServiceBench,
  label: string,
  env: Record<string, string>,
  dir: string,
  questions: readonly BenchQuestion[],
  baseline: boolean,
  log: QuestionLog,
): Promise<ModeReport[]> {
  return withServer({ env }, async (server) => {
    const credentials = await server.credentials()
    const api = await ChatApi.connect(server.origin, credentials)
    const status = await BenchApi.connect(server.origin, credentials)
    const tableIds = [...new Set(questions.flatMap((q) => q.tableIds))].sort()
    const started = Date.now()
    const ids = new Map<string, string>()
    for (const id of tableIds) {
      ids.set(id, await status.upload(join(dir, 'tables', `${id}.csv`), `${id}.csv`, { path: '/tables/' }))
    }
    const docs = tableIds.map((id) => track(ids.get(id) as string))
    await waitForAll(status, docs, {
      timeoutMs: common.timeoutMs,
      stuckAfterMs: common.timeoutMs,
      pollMs: 1000,
      abort: () => (server.running ? undefined : `the server exited (code ${server.exitCode})`),
    })
    const failed = docs.filter((doc) => doc.outcome !== 'PROCESSED')
    console.log(
      `  ${label}: ${docs.length - failed.length}/${docs.length} tables processed in ${round((Date.now() - started) / 1000)} s`,
    )
    const analysis: Scored[] = []
    const plain: Scored[] = []
    const askedAt = Date.now()
    const analystBot = await createAnalystChat(api)
    for (const q of questions) {
      const documentIds = q.tableIds.map((id) => ids.get(id) as string)
      try {
        const answer = await askAnalysis(api, analystBot, q.question, documentIds)
        const a = answer.analysis
        const s: Scored = {
          id: q.id,
          type: q.answerType,
          verdict: verdictOf(a !== null, a !== null && scoreResult(q, a.result)),
          result: a?.result ?? null,
          plan: a?.plan ?? answer.text.slice(0, 200),
        }
        log(q, s)
        analysis.push(s)
      } catch (error) {
        analysis.push({ id: q.id, type: q.answerType, verdict: 'error', result: null, plan: (error as Error).message })
        log(q, analysis[analysis.length - 1] as Scored)
      }
      if (baseline) {
        try {
          const text = await askPlain(api, q.question)
          plain.push({
            id: q.id,
            type: q.answerType,
            verdict: scoreAnswerText(q, text) ? 'correct' : 'wrong',
            result: text.slice(0, 300),
            plan: '',
          })
        } catch (error) {
          plain.push({ id: q.id, type: q.answerType, verdict: 'error', result: null, plan: (error as Error).message })
        }
      }
    }
    const seconds = (Date.now() - askedAt) / 1000
    const reports: ModeReport[] = [{ mode: `${label}: data_analysis`, scored: analysis, seconds }]
    if (baseline) reports.push({ mode: `${label}: plain RAG baseline`, scored: plain, seconds })
    return reports
  })
}

function summary(report: ModeReport, types: readonly string[]): string[] {
  const share = (items: readonly Scored[]) => {
    const correct = items.filter((s) => s.verdict === 'correct').length
    return items.length === 0 ? '–' : `${round((100 * correct) / items.length, 1)} % (${correct}/${items.length})`
  }
  const count = (verdict: Scored['verdict']) => report.scored.filter((s) => s.verdict === verdict).length
  return [
    report.mode,
    share(report.scored),
    ...types.map((type) => share(report.scored.filter((s) => s.type === type))),
    String(count('wrong')),
    String(count('declined')),
    String(count('error')),
    `${round(report.seconds)} s`,
  ]
}

async function main(bench: ServiceBench): Promise<Results> {
  const { values } = bench
  const dataset = String(values.dataset) as Dataset
  if (!(dataset in DATASET_DIRS))
    throw new Error(`--dataset must be databench, databench-train or infiagent, got "${values.dataset}"`)
  const [dir] = requireData(`bench:${dataset}`, DATASET_DIRS[dataset])
  let questions = readQuestions(dir as string, dataset)
  if (values.only) {
    const prefixes = String(values.only).split(',')
    questions = questions.filter((q) => prefixes.some((prefix) => q.id.startsWith(prefix)))
  }
  if (values.split) {
    const split = String(values.split)
    if (!SPLITS.includes(split as Split)) throw new Error(`--split must be tune or held-out, got "${split}"`)
    questions = questions.filter((q) => q.tableIds.every((id) => splitOf(id) === split))
  }
  if (values['max-table-mb']) {
    const maxBytes = Number(values['max-table-mb']) * 1024 * 1024
    const size = (id: string) => statSync(join(dir as string, 'tables', `${id}.csv`)).size
    const skipped = questions.filter((q) => q.tableIds.some((id) => size(id) > maxBytes))
    if (skipped.length > 0)
      console.log(`skipping ${skipped.length} questions over tables above ${values['max-table-mb']} MB`)
    questions = questions.filter((q) => !skipped.includes(q))
  }
  if (values.limit) questions = questions.slice(0, Number(values.limit))
  const log = questionLog(dataset, Boolean(values.verbose), Boolean(values['show-held-out']))
  const loadBefore = bench.loadAtStart
  console.log(`${dataset}: ${questions.length} questions; load ${loadBefore}`)

  const reports: ModeReport[] = []
  if (values.direct) {
    reports.push(await runDirect(dataset, dir as string, questions, log))
  } else {
    const offlineEnv = {
      LANTERN_LLM_BASE_URL: '',
      LANTERN_ANALYSIS_TIMEOUT_MS: '30000',
      LANTERN_DOC_TIME_BUDGET_MS: '3600000',
    }
    reports.push(
      ...(await runService(bench, 'offline', offlineEnv, dir as string, questions, !values['no-baseline'], log)),
    )
    if (process.env.LANTERN_LLM_BASE_URL?.trim()) {
      reports.push(
        ...(await runService(
          bench,
          'LLM',
          { LANTERN_ANALYSIS_TIMEOUT_MS: '30000', LANTERN_DOC_TIME_BUDGET_MS: '3600000' },
          dir as string,
          questions,
          !values['no-baseline'],
          log,
        )),
      )
    }
  }

  const types = [...new Set(questions.map((q) => q.answerType))]
  const header = ['mode', 'overall', ...types, 'wrong', 'declined', 'errors', 'asking time']
  const overall = table(
    header,
    reports.map((report) => summary(report, types)),
  )
  const markdown = values.cv
    ? [overall, ...reports.map((report) => perTableReport(report.mode, report.scored, questions))].join('\n\n')
    : overall
  console.log(`\n${bench.machineLine}; load before ${loadBefore}, after ${load()}`)
  return {
    name: `analysis-${dataset}`,
    json: { machine: bench.machine, loadBefore, loadAfter: load(), reports },
    markdown,
  }
}

runBench({
  name: 'databench',
  usage: USAGE,
  options: {
    dataset: { type: 'string', default: 'databench' },
    direct: { type: 'boolean', default: false },
    'no-baseline': { type: 'boolean', default: false },
    limit: { type: 'string' },
    only: { type: 'string' },
    split: { type: 'string' },
    cv: { type: 'boolean', default: false },
    'max-table-mb': { type: 'string' },
    verbose: { type: 'boolean', default: false },
    'show-held-out': { type: 'boolean', default: false },
  },
  service: { timeoutMin: 120 },
  run: main,
})
