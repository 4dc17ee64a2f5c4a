import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { AnswerType } from './scoring.js'

/** One benchmark question, DataBench or InfiAgent-DABench, in one shape. */
export interface BenchQuestion {
  readonly id: string
  readonly tableIds: readonly string[]
  /** The text sent (InfiAgent: question + constraints + format). */
  readonly question: string
  readonly answerType: AnswerType | 'named_values'
  /** DataBench: the gold string; InfiAgent: the `[name, value]` slots. */
  readonly gold: string | ReadonlyArray<readonly [string, string]>
  readonly level?: string
}

export type Dataset = 'databench' | 'infiagent'

export const DATASET_DIRS: Readonly<Record<Dataset, string>> = {
  databench: 'databench-semeval2025-test',
  infiagent: 'infiagent-dabench',
}

export function readQuestions(dir: string, dataset: Dataset): BenchQuestion[] {
  const lines = readFileSync(join(dir, 'questions.dev.jsonl'), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
  return lines.map((line) => {
    const raw = JSON.parse(line) as Record<string, unknown>
    if (dataset === 'databench') {
      return {
        id: String(raw.id),
        tableIds: raw.table_ids as string[],
        question: String(raw.question),
        answerType: raw.answer_type as AnswerType,
        gold: String(raw.answer),
      }
    }
    return {
      id: String(raw.id),
      tableIds: raw.table_ids as string[],
      question: `${String(raw.question)}\n${String(raw.constraints)}\n${String(raw.format)}`,
      answerType: 'named_values',
      gold: raw.answer as Array<[string, string]>,
      level: String(raw.level),
    }
  })
}
