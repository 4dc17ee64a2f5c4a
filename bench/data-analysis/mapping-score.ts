import { round } from '../support/report.js'

/**
 * The columns a planner intent uses against the gold `columns_used`, counted over a group of
 * questions. Column measures count mapped questions only (an intent was produced); recall and
 * precision are micro averages over columns. A gold that lists no column ("how many rows are
 * there?") is matched exactly by an intent that reads none (count(*)).
 */

export interface Mapping {
  readonly id: string
  readonly split: 'train' | 'dev'
  readonly answerType: string
  readonly gold: readonly string[]
  /** The columns the intent uses; null when the planner declined. */
  readonly used: readonly string[] | null
  /** The decline reason, or '' when mapped. */
  readonly reason: string
}

export interface MappingSummary {
  readonly questions: number
  readonly declined: number
  readonly mapped: number
  readonly exact: number
  readonly goldColumns: number
  readonly goldRecalled: number
  readonly usedColumns: number
  readonly usedInGold: number
  readonly wrong: number
}

/** A mapped question is wrong when it uses a column outside the gold, or none of the gold columns (if any). */
export function wrongColumn(gold: readonly string[], used: readonly string[]): boolean {
  const golden = new Set(gold)
  const outside = used.some((column) => !golden.has(column))
  return outside || (golden.size > 0 && !used.some((column) => golden.has(column)))
}

export function summarise(mappings: readonly Mapping[]): MappingSummary {
  let declined = 0
  let exact = 0
  let goldColumns = 0
  let goldRecalled = 0
  let usedColumns = 0
  let usedInGold = 0
  let wrong = 0
  for (const { gold, used } of mappings) {
    if (used === null) {
      declined++
      continue
    }
    const golden = new Set(gold)
    const hits = used.filter((column) => golden.has(column)).length
    goldColumns += golden.size
    goldRecalled += hits
    usedColumns += used.length
    usedInGold += hits
    if (hits === golden.size && used.length === golden.size) exact++
    if (wrongColumn(gold, used)) wrong++
  }
  const questions = mappings.length
  return {
    questions,
    declined,
    mapped: questions - declined,
    exact,
    goldColumns,
    goldRecalled,
    usedColumns,
    usedInGold,
    wrong,
  }
}

const percent = (part: number, whole: number): string =>
  whole === 0 ? '–' : `${round((100 * part) / whole, 1)} % (${part}/${whole})`

/** The measures as report cells: see SUMMARY_HEADER. */
export function summaryCells(s: MappingSummary): string[] {
  return [
    String(s.questions),
    percent(s.declined, s.questions),
    percent(s.mapped, s.questions),
    percent(s.exact, s.mapped),
    percent(s.goldRecalled, s.goldColumns),
    percent(s.usedInGold, s.usedColumns),
    percent(s.wrong, s.mapped),
  ]
}

export const SUMMARY_HEADER = [
  'questions',
  'declined',
  'mapped',
  'exact set (of mapped)',
  'gold recalled',
  'precision',
  'wrong column (of mapped)',
] as const
