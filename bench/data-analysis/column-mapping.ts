/**
 * How well the offline planner maps a question's words to table columns, on all 1,308 DataBench
 * train/dev questions (issue 24, "Generalisation"): the planner's cue reading and recognition
 * only (no SQL, no answer), the columns its intent uses against the gold `columns_used`.
 * Variant "schema only": every table described from SCHEMAS.csv alone (names and types, no cell
 * known), so all 65 tables count. Variant "loaded table": the 8 tables that are there in full,
 * loaded with the service's own loader (real top values, min/max), for their 165 questions.
 * Usage: npm run bench:column-mapping -- [--help]
 */
import { dirname, join } from 'node:path'
import { readCues } from '../../src/data-analysis/offline-planner/cues/index.js'
import { intentColumns } from '../../src/data-analysis/offline-planner/intent-columns.js'
import { recognise } from '../../src/data-analysis/offline-planner/recognise.js'
import type { TableSchema } from '../../src/data-analysis/types.js'
import { round, table } from '../support/report.js'
import { type Bench, load, type Results, runBench } from '../support/run-bench.js'
import { splitOf } from '../support/split.js'
import { parseColumnsUsed } from './columns-used.js'
import {
  readSchemas,
  readTrainQuestions,
  schemaOnlyTable,
  serviceNames,
  type TrainQuestion,
} from './databench-train.js'
import { DirectRunner } from './direct.js'
import { type Mapping, SUMMARY_HEADER, summarise, summaryCells } from './mapping-score.js'

const USAGE = `npm run bench:column-mapping -- [options]

  --verbose     print every question whose columns are not exactly the gold's, with its gold and columns
                (not those over the unseen set's held-out tables, 001–003 among them, without --show-held-out)
Reads ../shared/data/databench-train (or $BENCH_DATA_DIR/databench-train); no service is started.`

const DATA_DIR = 'databench-train'
const ANSWER_TYPES = ['boolean', 'category', 'number', 'list[category]', 'list[number]'] as const
/** Dev (050–065) first: the held-out figure. */
const SPLITS = [['dev'], ['train'], ['dev', 'train']] as const

/** One question through cue reading and recognition; `names` maps the service's header names to SCHEMAS.csv's. */
function mapQuestion(q: TrainQuestion, schema: TableSchema, names: ReadonlyMap<string, string>): Mapping {
  const gold = parseColumnsUsed(q.columnsUsed, [...names.values()])
  const base = { id: q.id, split: q.split, answerType: q.answerType, gold }
  const question = q.question.trim()
  // the planner's own entry declines an empty question before reading it (offline-planner/index.ts)
  if (question === '') return { ...base, used: null, reason: 'the question is empty' }
  const recognition = recognise(readCues(question), [schema])
  if (recognition.kind === 'declined') return { ...base, used: null, reason: recognition.reason }
  const used = intentColumns(recognition.intent).map((name) => names.get(name) ?? name)
  return { ...base, used, reason: '' }
}

/** The per-split (dev, train, all) and per-answer-type rows of one variant. */
function section(title: string, mappings: readonly Mapping[], byType: boolean): string {
  const rows: string[][] = []
  for (const splits of SPLITS) {
    const inSplit = mappings.filter((m) => (splits as readonly string[]).includes(m.split))
    const label = splits.length === 1 ? (splits[0] as string) : 'all'
    rows.push([label, 'all types', ...summaryCells(summarise(inSplit))])
    if (!byType) continue
    for (const type of ANSWER_TYPES) {
      rows.push([label, type, ...summaryCells(summarise(inSplit.filter((m) => m.answerType === type)))])
    }
  }
  return `### ${title}\n\n${table(['split', 'answer type', ...SUMMARY_HEADER], rows)}`
}

/** The most frequent decline reasons, with quoted words and numbers blanked so that they group. */
function declineReasons(title: string, mappings: readonly Mapping[]): string {
  const counts = new Map<string, number>()
  for (const m of mappings) {
    if (m.used !== null) continue
    const reason = m.reason.replace(/"[^"]*"/g, '"…"').replace(/-?\d+(\.\d+)?/g, 'N')
    counts.set(reason, (counts.get(reason) ?? 0) + 1)
  }
  const rows = [...counts].sort((a, b) => b[1] - a[1]).slice(0, 10)
  return `### ${title}\n\n${table(
    ['declined', 'reason'],
    rows.map(([reason, n]) => [n, reason]),
  )}`
}

/**
 * Prints a question whose columns are not the gold's, unless its table is one of the unseen set's
 * held-out tables (bench:databench --dataset databench-train): those questions are for figures.
 */
function logMapping(q: TrainQuestion, m: Mapping, variant: string, showHeldOut: boolean): void {
  const same = m.used !== null && m.used.length === m.gold.length && m.used.every((c) => m.gold.includes(c))
  if (same || (q.full && splitOf(q.tableId) === 'held-out' && !showHeldOut)) return
  const got = m.used === null ? `declined: ${m.reason}` : JSON.stringify(m.used)
  console.log(`  ${variant} ${q.id} | ${q.question.slice(0, 120)}\n      gold=${JSON.stringify(m.gold)} got=${got}`)
}

async function main(bench: Bench): Promise<Results> {
  const dir = dirname(bench.data[0] as string)
  const verbose = Boolean(bench.values.verbose)
  const showHeldOut = Boolean(bench.values['show-held-out'])
  const questions = readTrainQuestions(dir)
  const schemas = readSchemas(dir)
  bench.announce(`column mapping: ${questions.length} DataBench train/dev questions, ${schemas.size} table schemas`)
  const columnsOf = (id: string) => {
    const columns = schemas.get(id)
    if (!columns) throw new Error(`${id} is not in SCHEMAS.csv`)
    return columns
  }
  const namesOf = (id: string) => serviceNames(columnsOf(id).map((column) => column.name))

  let started = Date.now()
  const schemaOnly: Mapping[] = []
  for (const q of questions) {
    const m = mapQuestion(q, schemaOnlyTable(q.tableId, columnsOf(q.tableId)), namesOf(q.tableId))
    if (verbose) logMapping(q, m, 'schema', showHeldOut)
    schemaOnly.push(m)
  }
  const schemaSeconds = (Date.now() - started) / 1000

  started = Date.now()
  const runner = await DirectRunner.create(join(dir, 'tables'))
  const full = questions.filter((q) => q.full)
  const loaded: Mapping[] = []
  for (const q of full) {
    const [schema] = (await runner.tables([q.tableId])) as [TableSchema]
    const names = namesOf(q.tableId)
    const strangers = schema.columns.filter((column) => !names.has(column.name)).map((column) => column.name)
    if (strangers.length > 0)
      throw new Error(`${q.tableId}: loaded columns not in SCHEMAS.csv: ${strangers.join(', ')}`)
    const m = mapQuestion(q, schema, names)
    if (verbose) logMapping(q, m, 'loaded', showHeldOut)
    loaded.push(m)
  }
  const loadedSeconds = (Date.now() - started) / 1000
  const fullIds = new Set(full.map((q) => q.id))

  const goldOutsideSchema = questions.flatMap((q, i) => {
    const known = new Set(columnsOf(q.tableId).map((column) => column.name))
    return (schemaOnly[i]?.gold ?? []).filter((c) => !known.has(c)).map((c) => `${q.id} "${c}"`)
  })
  const withoutGold = schemaOnly.filter((m) => m.gold.length === 0).map((m) => m.id)

  const machine = `${bench.machineAndLoad()}; schema only ${round(schemaSeconds, 1)} s, loaded tables ${round(loadedSeconds, 1)} s (loading included)`
  const markdown = [
    machine,
    section(`Schema only (SCHEMAS.csv, no cell known): ${schemaOnly.length} questions`, schemaOnly, true),
    section(`Loaded tables (service loader, 8 full tables): ${loaded.length} questions`, loaded, true),
    section(
      `Schema only, the same ${loaded.length} questions (compare with the loaded tables)`,
      schemaOnly.filter((m) => fullIds.has(m.id)),
      false,
    ),
    declineReasons('Decline reasons, schema only', schemaOnly),
    declineReasons('Decline reasons, loaded tables', loaded),
    `Gold columns not in SCHEMAS.csv (never recalled): ${goldOutsideSchema.join('; ') || 'none'}. ` +
      `Questions whose gold lists no column (an intent reading none matches them): ${withoutGold.join(', ') || 'none'}.`,
  ].join('\n\n')
  return {
    json: { machine: bench.machine, loadBefore: bench.loadAtStart, loadAfter: load(), schemaOnly, loaded },
    markdown,
  }
}

runBench({
  name: 'column-mapping',
  usage: USAGE,
  options: { verbose: { type: 'boolean', default: false }, 'show-held-out': { type: 'boolean', default: false } },
  data: [`${DATA_DIR}/questions.jsonl`, `${DATA_DIR}/SCHEMAS.csv`, `${DATA_DIR}/tables`],
  run: main,
})
