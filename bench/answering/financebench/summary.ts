import { quantile } from '../../support/chat-api.js'
import { round, table } from '../../support/report.js'
import { SPLITS } from '../../support/split.js'
import type { Outcome } from './ask.js'
import type { Layout } from './layouts.js'

/** What a run asks: the default bot; a bot that always selects documents; knowledge bases lacking the company. */
export type Run = 'answers' | 'selection' | 'abstention'

export const RUNS: readonly Run[] = ['answers', 'selection', 'abstention']

/** The outcomes of one run on one layout with one answerer. */
export interface RunResult {
  /** `offline`, or `llm (<model>)`. */
  readonly answerer: string
  readonly run: Run
  readonly layout: Layout
  readonly outcomes: readonly Outcome[]
}

const share = (list: readonly Outcome[], test: (o: Outcome) => boolean) =>
  list.length > 0 ? list.filter(test).length / list.length : Number.NaN
const pct = (value: number) => (Number.isNaN(value) ? '-' : `${round(100 * value, 1)}%`)
const ms = (list: readonly Outcome[], q: number) =>
  list.length > 0
    ? round(
        quantile(
          list.map((o) => o.ms),
          q,
        ),
      )
    : '-'

/** held-out, tune, all: the groups every table reports, in that order (empty ones left out). */
function bySplit(outcomes: readonly Outcome[]): Array<[string, Outcome[]]> {
  const groups: Array<[string, Outcome[]]> = SPLITS.map((split) => [split, outcomes.filter((o) => o.split === split)])
  groups.push(['all', [...outcomes]])
  return groups.filter(([, list]) => list.length > 0)
}

const label = (result: RunResult) => `${result.answerer}, ${result.run}, ${result.layout}`

/** Right document, evidence page, gold, "not found", search top-10, timings: answers and selection runs. */
export function answersTable(results: readonly RunResult[]): string {
  const rows = results
    .filter((result) => result.run !== 'abstention')
    .flatMap((result) =>
      bySplit(result.outcomes).map(([split, list]) => {
        const searched = list.filter((o) => o.search !== undefined)
        return [
          `${label(result)}: ${split}`,
          list.length,
          pct(share(list, (o) => o.docHit)),
          pct(share(list, (o) => o.pageHit)),
          pct(share(list, (o) => o.goldHit)),
          pct(share(list, (o) => o.notFound)),
          pct(share(searched, (o) => o.search?.docHit === true)),
          pct(share(searched, (o) => o.search?.pageHit === true)),
          ms(list, 0.5),
          ms(list, 0.99),
        ]
      }),
    )
  return table(
    [
      'answerer, run, layout: split',
      'questions',
      'right document in sources',
      'evidence page in sources',
      'gold figure/phrase in answer',
      'not found (no sources)',
      'search top-10: right document',
      'search top-10: evidence page',
      'send-message p50 (ms)',
      'p99 (ms)',
    ],
    rows,
  )
}

/** The answers run's outcomes of the same answerer and layout, by question id. */
function withoutSelection(results: readonly RunResult[], result: RunResult): Map<string, Outcome> {
  const twin = results.find((r) => r.run === 'answers' && r.answerer === result.answerer && r.layout === result.layout)
  return new Map((twin?.outcomes ?? []).map((o) => [o.id, o]))
}

/** What automatic selection chose, and the right document in sources with and without it. */
export function selectionTable(results: readonly RunResult[]): string {
  const rows = results
    .filter((result) => result.run === 'selection')
    .flatMap((result) => {
      const twin = withoutSelection(results, result)
      return bySplit(result.outcomes).map(([split, list]) => {
        const paired = list.flatMap((o) => twin.get(o.id) ?? [])
        return [
          `${label(result)}: ${split}`,
          list.length,
          pct(share(list, (o) => o.validatedAutodocs === true)),
          pct(share(list, (o) => o.filteredHasDoc)),
          pct(share(list, (o) => o.docHit)),
          paired.length === list.length ? pct(share(paired, (o) => o.docHit)) : '-',
        ]
      })
    })
  return table(
    [
      'answerer, run, layout: split',
      'questions',
      'validated_autodocs true',
      'right document in documents_filtered',
      'right document in sources',
      'same, default bot (answers run)',
    ],
    rows,
  )
}

/** Honest abstention: the questions asked of knowledge bases without their company's filings. */
export function abstentionTable(results: readonly RunResult[]): string {
  const rows = results
    .filter((result) => result.run === 'abstention')
    .flatMap((result) =>
      bySplit(result.outcomes).map(([split, list]) => [
        `${label(result)}: ${split}`,
        list.length,
        pct(share(list, (o) => o.notFound)),
        pct(share(list, (o) => o.sources.length > 0)),
        ms(list, 0.5),
        ms(list, 0.99),
      ]),
    )
  return table(
    [
      'answerer, run, layout: split',
      'questions',
      '"not found" with no sources',
      'answered with sources (wrong company)',
      'send-message p50 (ms)',
      'p99 (ms)',
    ],
    rows,
  )
}

/** Answers and selection runs by question type, over all questions (split "all" only). */
export function typesTable(results: readonly RunResult[]): string {
  const rows = results
    .filter((result) => result.run !== 'abstention')
    .flatMap((result) =>
      [...new Set(result.outcomes.map((o) => o.type))].sort().map((type) => {
        const list = result.outcomes.filter((o) => o.type === type)
        return [
          `${label(result)}: ${type}`,
          list.length,
          pct(share(list, (o) => o.docHit)),
          pct(share(list, (o) => o.pageHit)),
          pct(share(list, (o) => o.goldHit)),
          pct(share(list, (o) => o.notFound)),
        ]
      }),
    )
  return table(
    [
      'answerer, run, layout: question type (all)',
      'questions',
      'right document in sources',
      'evidence page in sources',
      'gold figure/phrase in answer',
      'not found (no sources)',
    ],
    rows,
  )
}

interface Target {
  readonly name: string
  /** The measured share of a split, or NaN when the runs needed were not made. */
  readonly value: (split: string) => number
  readonly met: (value: number, split: string) => boolean
}

/** The targets for the offline answerer, per split: held-out, tune, all. */
export function targetsTable(results: readonly RunResult[]): string {
  const find = (run: string, layout: string) =>
    results.find((r) => r.answerer === 'offline' && r.run === run && r.layout === layout)
  const inSplit = (result: RunResult | undefined, split: string) =>
    (result?.outcomes ?? []).filter((o) => split === 'all' || o.split === split)
  const atLeast = (run: Run, test: (o: Outcome) => boolean, threshold: number): Omit<Target, 'name'> => ({
    value: (split) => share(inSplit(find(run, 'opaque'), split), test),
    met: (value) => value >= threshold,
  })
  const targets: Target[] = [
    { name: 'right document in sources ≥ 85% (answers, opaque)', ...atLeast('answers', (o) => o.docHit, 0.85) },
    { name: 'evidence page in sources ≥ 50% (answers, opaque)', ...atLeast('answers', (o) => o.pageHit, 0.5) },
    { name: 'gold figure in the answer ≥ 30% (answers, opaque)', ...atLeast('answers', (o) => o.goldHit, 0.3) },
    {
      name: '"not found" with no sources ≥ 90% (abstention, opaque)',
      ...atLeast('abstention', (o) => o.notFound, 0.9),
    },
  ]
  for (const layout of ['opaque', 'folders'] as const) {
    const baseline = (split: string) => share(inSplit(find('answers', layout), split), (o) => o.docHit)
    targets.push({
      name: `right document in sources with selection ≥ without (${layout})`,
      value: (split) =>
        Number.isNaN(baseline(split)) ? Number.NaN : share(inSplit(find('selection', layout), split), (o) => o.docHit),
      met: (value, split) => value >= baseline(split),
    })
  }
  const cell = (target: Target, split: string) => {
    const value = target.value(split)
    return Number.isNaN(value) ? '-' : `${pct(value)} ${target.met(value, split) ? 'met' : 'missed'}`
  }
  const splits = ['held-out', 'tune', 'all']
  return table(
    ['target (offline answerer)', ...splits],
    targets.map((target) => [target.name, ...splits.map((split) => cell(target, split))]),
  )
}
