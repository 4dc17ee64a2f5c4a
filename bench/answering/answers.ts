/**
 * Answers on the financebench subset (docs/benchmarks.md "Answers (financebench)"): the PDFs are
 * uploaded under opaque names and again one folder per company, each question is asked in its own
 * chat, and every run reports the right document and evidence page in the sources, the gold figure
 * in the answer, "not found", and send-message times, for the held-out companies, the tune
 * companies and all. Usage: npm run bench:answers -- [--help]
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { round } from '../support/report.js'
import {
  COMMON_USAGE,
  type CommonOptions,
  load,
  type Results,
  runBench,
  type ServiceBench,
  UsageError,
  type Values,
} from '../support/run-bench.js'
import { SPLITS, splitOf } from '../support/split.js'
import { type FinancebenchSet, loadSet, type Question } from './financebench/dataset.js'
import { fillKnowledgeBases, type KnowledgeBase } from './financebench/knowledge-bases.js'
import {
  ABSTENTION_GROUPS,
  abstentionGroups,
  type KnowledgeBasePlan,
  LAYOUTS,
  type Layout,
  layoutPlan,
  OPAQUE_SEED,
} from './financebench/layouts.js'
import { type Manifest, readManifest, writeManifest } from './financebench/manifest.js'
import { askRuns } from './financebench/runs.js'
import {
  abstentionTable,
  answersTable,
  RUNS,
  type Run,
  type RunResult,
  selectionTable,
  targetsTable,
  typesTable,
} from './financebench/summary.js'

const USAGE = `npm run bench:answers -- [options]

Uploads the financebench PDFs into tenants of one service and asks each question in its own chat.
  --layouts LIST         comma-separated: opaque (/filings/filing-NNN.pdf, seeded shuffle), folders
                         (/<company>/<doc_name>.pdf); default opaque,folders
  --runs LIST            comma-separated: answers (default bot), selection (a bot with
                         auto_document_selector "always"), abstention (knowledge bases lacking the
                         question's company, opaque names); default answers,selection,abstention
  --questions SET        tune | held-out | all (default all): the companies whose questions are asked
  --limit N              only the first N of those questions, and only their PDFs are uploaded
  --concurrency N        uploads in flight (default 4)
  --show-held-out        also write the per-question details of held-out questions
  --reuse DIR            start the service on DIR, a data folder kept by an earlier run (--keep):
                         its tenants and processed PDFs are reused, only missing ones are uploaded
                         (the chunks are those of the earlier run's ingestion code)
${COMMON_USAGE}
An LLM answers run is added when LANTERN_LLM_BASE_URL (and _API_KEY, _MODEL) are set in the environment.`

interface Settings {
  readonly common: CommonOptions
  readonly layouts: readonly Layout[]
  readonly runs: readonly Run[]
  readonly questionSet: 'tune' | 'held-out' | 'all'
  readonly limit: number | undefined
  readonly concurrency: number
  readonly showHeldOut: boolean
  readonly reuse: string | undefined
}

function list<T extends string>(name: string, raw: unknown, allowed: readonly T[]): T[] {
  const items = String(raw)
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean)
  for (const item of items) {
    if (!allowed.includes(item as T)) throw new UsageError(`--${name}: "${item}" is not one of ${allowed.join(', ')}`)
  }
  return allowed.filter((item) => items.includes(item))
}

function settingsFrom(common: CommonOptions, values: Values): Settings {
  const questionSet = String(values.questions)
  if (questionSet !== 'tune' && questionSet !== 'held-out' && questionSet !== 'all') {
    throw new UsageError(`--questions must be tune, held-out or all, got "${questionSet}"`)
  }
  const limit = values.limit === undefined ? undefined : Number(values.limit)
  if (limit !== undefined && !(Number.isInteger(limit) && limit > 0))
    throw new UsageError('--limit must be a positive integer')
  return {
    common,
    layouts: list('layouts', values.layouts, LAYOUTS),
    runs: list('runs', values.runs, RUNS),
    questionSet,
    limit,
    concurrency: Number(values.concurrency),
    showHeldOut: Boolean(values['show-held-out']),
    reuse: values.reuse === undefined ? undefined : String(values.reuse),
  }
}

/**
 * The knowledge bases the runs need, each holding `documents` (less the excluded companies'); an
 * abstention knowledge base only when some question's company is left out of it.
 */
function knowledgeBasePlans(
  settings: Settings,
  set: FinancebenchSet,
  questions: readonly Question[],
  documents: string[],
): KnowledgeBasePlan[] {
  const plans: KnowledgeBasePlan[] = []
  if (settings.runs.includes('answers') || settings.runs.includes('selection')) {
    for (const layout of settings.layouts) plans.push(layoutPlan(layout, layout, documents, set.companyOf))
  }
  if (settings.runs.includes('abstention')) {
    // Groups over every company of the set, so that a company's group does not depend on --limit.
    const asked = new Set(questions.map((q) => q.company))
    for (const [i, group] of abstentionGroups(set.companyOf.values(), ABSTENTION_GROUPS).entries()) {
      if (!group.some((company) => asked.has(company))) continue
      plans.push(layoutPlan(`abstention-${i + 1}`, 'opaque', documents, set.companyOf, group))
    }
  }
  return plans
}

function llmEnv(): { label: string; env: Record<string, string> } | undefined {
  if (!process.env.LANTERN_LLM_BASE_URL?.trim()) return undefined
  const env: Record<string, string> = {}
  for (const name of ['LANTERN_LLM_BASE_URL', 'LANTERN_LLM_API_KEY', 'LANTERN_LLM_MODEL']) {
    const value = process.env[name]
    if (value) env[name] = value
  }
  return { label: `llm (${process.env.LANTERN_LLM_MODEL ?? 'default model'})`, env }
}

function describeKnowledgeBase(kb: KnowledgeBase): string {
  const without = kb.plan.excludedCompanies.length > 0 ? ` (without ${kb.plan.excludedCompanies.join(', ')})` : ''
  const failed = kb.failed.length > 0 ? `; not processed: ${kb.failed.join('; ')}` : ''
  return `${kb.plan.key}${without}: ${kb.documentIds.size} PDFs, ${kb.chunks} chunks${failed}`
}

function resultLine(result: RunResult): string {
  const kinds = (['number', 'figure', 'phrase'] as const)
    .map((kind) => {
      const list = result.outcomes.filter((o) => o.goldKind === kind)
      return `${kind} ${list.filter((o) => o.goldHit).length}/${list.length}`
    })
    .join(', ')
  const errors = result.outcomes.filter((o) => o.error).length
  const smallTalk = result.outcomes.filter((o) => o.smallTalk).length
  return `${result.answerer}, ${result.run}, ${result.layout}: gold matches by kind ${kinds}; failed requests ${errors}; answered as small talk ${smallTalk}.`
}

async function main(bench: ServiceBench): Promise<Results> {
  const { common } = bench
  const settings = settingsFrom(common, bench.values)
  const set = loadSet(bench.data[0] ?? '')
  let questions: Question[] = set.questions.filter(
    (q) => settings.questionSet === 'all' || splitOf(q.company) === settings.questionSet,
  )
  if (settings.limit !== undefined) questions = questions.slice(0, settings.limit)
  // The whole set's PDFs, unless --limit asks for a quick run: then only the questions' own.
  const documents =
    settings.limit === undefined ? [...set.companyOf.keys()] : [...new Set(questions.map((q) => q.doc_name))]
  const plans = knowledgeBasePlans(settings, set, questions, documents)
  const counts = SPLITS.map((split) => `${split} ${questions.filter((q) => splitOf(q.company) === split).length}`)
  console.log(
    `bench:answers: ${questions.length} questions (${counts.join(', ')}); runs ${settings.runs.join(', ')}; layouts ${settings.layouts.join(', ')}; opaque names seed ${OPAQUE_SEED}; knowledge bases ${plans.map((p) => p.key).join(', ')}`,
  )

  const dataDir = settings.reuse ?? (await mkdtemp(join(tmpdir(), 'lantern-bench-')))
  const ingestion = { pdfText: common.pdfText ?? 'service default', loader: common.loader ?? 'service default' }
  let manifest: Manifest
  if (settings.reuse !== undefined) {
    const kept = readManifest(dataDir)
    if (!kept) throw new Error(`${dataDir} holds no bench-answers.json: not a folder kept by bench:answers --keep`)
    manifest = kept
    console.log(`  reusing ${dataDir}, built by ${manifest.created} (${JSON.stringify(manifest.ingestion)})`)
    if (JSON.stringify(manifest.ingestion) !== JSON.stringify(ingestion)) {
      console.warn(
        `warning: the kept folder was ingested with ${JSON.stringify(manifest.ingestion)}, not with these options`,
      )
    }
  } else {
    manifest = { version: 1, created: bench.machineLine, opaqueSeed: OPAQUE_SEED, ingestion, tenants: {} }
    writeManifest(dataDir, manifest)
  }
  if (manifest.opaqueSeed !== OPAQUE_SEED) throw new Error(`${dataDir} was built with seed ${manifest.opaqueSeed}`)
  const saveBot = (kb: KnowledgeBase, botId: string) => {
    kb.tenant.selectionBotId = botId
    writeManifest(dataDir, manifest)
  }

  const results: RunResult[] = []
  let knowledgeBases: KnowledgeBase[] = []
  let ingestSeconds = 0
  const uploadedBefore = Object.values(manifest.tenants).reduce((n, t) => n + Object.keys(t.documents).length, 0)
  try {
    await bench.withServer({ dataDir }, async (server) => {
      const started = Date.now()
      knowledgeBases = await fillKnowledgeBases(server, manifest, plans, {
        runtime: common.runtime,
        pdfDir: set.pdfDir,
        concurrency: settings.concurrency,
        loader: common.loader,
        timeoutMs: common.timeoutMs,
      })
      ingestSeconds = (Date.now() - started) / 1000
      for (const kb of knowledgeBases) console.log(`  ${describeKnowledgeBase(kb)}`)
      results.push(
        ...(await askRuns({
          answerer: 'offline',
          origin: server.origin,
          runs: settings.runs,
          layouts: settings.layouts,
          questions,
          knowledgeBases,
          saveBot,
        })),
      )
    })
    const llm = llmEnv()
    if (llm && settings.runs.includes('answers')) {
      // Ingestion does not use the LLM: the same knowledge bases serve, on a restarted service.
      await bench.withServer({ env: llm.env, dataDir }, async (server) => {
        results.push(
          ...(await askRuns({
            answerer: llm.label,
            origin: server.origin,
            runs: ['answers'],
            layouts: settings.layouts,
            questions,
            knowledgeBases,
            saveBot,
          })),
        )
      })
    }
  } finally {
    if (common.keep || settings.reuse !== undefined) {
      console.log(`data folder kept: measure again with --reuse ${dataDir}`)
    } else {
      await rm(dataDir, { recursive: true, force: true })
      console.log(`data folder ${dataDir} removed (--keep keeps it for --reuse)`)
    }
  }

  const uploaded = Object.values(manifest.tenants).reduce((n, t) => n + Object.keys(t.documents).length, 0)
  const markdown = [
    `Machine: ${bench.machineLine}; load at start ${bench.loadAtStart}, at end ${load()}.`,
    `Questions: ${questions.length} (${counts.join(', ')}), each in a new chat, one at a time. Opaque names: seed ${OPAQUE_SEED}.`,
    `Knowledge bases (one tenant each): ${knowledgeBases.map(describeKnowledgeBase).join('; ')}.`,
    settings.reuse !== undefined && uploaded === uploadedBefore
      ? `Ingestion: reused (${manifest.created}).`
      : `Ingestion: ${uploaded - uploadedBefore} PDFs uploaded and processed in ${round(ingestSeconds)} s (${common.workers} workers).`,
    ...results.map(resultLine),
    '',
    targetsTable(results),
    '',
    answersTable(results),
    ...(settings.runs.includes('selection') ? ['', selectionTable(results)] : []),
    ...(settings.runs.includes('abstention') ? ['', abstentionTable(results)] : []),
    '',
    typesTable(results),
    llmEnv() ? '' : '\nNo LLM configured (LANTERN_LLM_BASE_URL unset): offline answerer only.',
  ].join('\n')
  const shown = (result: RunResult) =>
    settings.showHeldOut ? result.outcomes : result.outcomes.filter((o) => o.split === 'tune')
  const json = {
    machine: bench.machine,
    load: bench.loadAtStart,
    settings: { ...settings, common: undefined, ...common },
    opaqueSeed: OPAQUE_SEED,
    knowledgeBases: knowledgeBases.map((kb) => ({
      key: kb.plan.key,
      layout: kb.plan.layout,
      excludedCompanies: kb.plan.excludedCompanies,
      documents: kb.documentIds.size,
      chunks: kb.chunks,
      failed: kb.failed,
    })),
    heldOutDetails: settings.showHeldOut ? 'shown' : 'left out (--show-held-out to write them)',
    results: results.map((result) => ({ ...result, outcomes: shown(result) })),
  }
  return { json, markdown }
}

runBench({
  name: 'answers',
  usage: USAGE,
  options: {
    layouts: { type: 'string', default: LAYOUTS.join(',') },
    runs: { type: 'string', default: RUNS.join(',') },
    questions: { type: 'string', default: 'all' },
    limit: { type: 'string' },
    concurrency: { type: 'string', default: '4' },
    'show-held-out': { type: 'boolean', default: false },
    reuse: { type: 'string' },
  },
  data: ['financebench-subset'],
  service: { timeoutMin: 120 },
  run: main,
})
