import { round, table } from '../support/report.js'
import { SPLITS, splitOf } from '../support/split.js'
import type { BenchQuestion } from './questions.js'

/** One scored question, as the benchmark's reports hold it. */
interface Verdict {
  readonly id: string
  readonly verdict: 'correct' | 'wrong' | 'declined' | 'error'
}

interface TableFigures {
  readonly table: string
  readonly questions: number
  readonly right: number
  readonly wrong: number
  readonly declined: number
}

const percent = (part: number, whole: number) => (whole === 0 ? '–' : `${round((100 * part) / whole, 1)} %`)

/**
 * Leave-one-table-out, as `--cv` reports it: each table's questions scored on their own, then the
 * mean over the tables (each table weighs the same, whatever its number of questions), held-out
 * tables (sha256 of the id odd) first. The offline planner fits nothing to data, so a table left
 * out of its tuning is planned exactly as in the plain run; what the split guards is the person
 * tuning it, who looks only at the tune tables.
 */
export function perTableReport(mode: string, scored: readonly Verdict[], questions: readonly BenchQuestion[]): string {
  const tableOf = new Map(questions.map((q) => [q.id, q.tableIds.join(' & ')]))
  const byTable = new Map<string, Verdict[]>()
  for (const s of scored) {
    const id = tableOf.get(s.id) ?? '?'
    byTable.set(id, [...(byTable.get(id) ?? []), s])
  }
  const figures: TableFigures[] = [...byTable]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([id, items]) => ({
      table: id,
      questions: items.length,
      right: items.filter((s) => s.verdict === 'correct').length,
      wrong: items.filter((s) => s.verdict === 'wrong').length,
      declined: items.filter((s) => s.verdict === 'declined').length,
    }))
  const mean = (rows: readonly TableFigures[], pick: (f: TableFigures) => number) =>
    rows.length === 0
      ? '–'
      : `${round(rows.reduce((sum, f) => sum + (100 * pick(f)) / f.questions, 0) / rows.length, 1)} %`
  const rows: string[][] = []
  for (const split of SPLITS) {
    const part = figures.filter((f) => f.table.split(' & ').every((id) => splitOf(id) === split))
    for (const f of part) {
      rows.push([
        f.table,
        split,
        String(f.questions),
        percent(f.right, f.questions),
        percent(f.wrong, f.questions),
        percent(f.declined, f.questions),
      ])
    }
    rows.push([
      `**mean over ${part.length} ${split} tables**`,
      split,
      String(part.reduce((n, f) => n + f.questions, 0)),
      mean(part, (f) => f.right),
      mean(part, (f) => f.wrong),
      mean(part, (f) => f.declined),
    ])
  }
  rows.push([
    `**mean over all ${figures.length} tables**`,
    'all',
    String(scored.length),
    mean(figures, (f) => f.right),
    mean(figures, (f) => f.wrong),
    mean(figures, (f) => f.declined),
  ])
  return `${mode}, leave-one-table-out:\n\n${table(['table', 'split', 'questions', 'right', 'wrong', 'declined'], rows)}`
}
