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

/**
 * `databench`: the 218 questions over 13 tables the planner was developed on; `databench-train`:
 * the 165 DataBench train/dev questions over the 8 other tables whose file is there, never used to
 * develop it (its unseen-question figure); `infiagent`: InfiAgent-DABench.
 */
export type Dataset = 'databench' | 'databench-train' | 'infiagent'

export const DATASET_DIRS: Readonly<Record<Dataset, string>> = {
  databench: 'databench-semeval2025-test',
  'databench-train': 'databench-train',
  infiagent: 'infiagent-dabench',
}

const QUESTION_FILES: Readonly<Record<Dataset, string>> = {
  databench: 'questions.dev.jsonl',
  'databench-train': 'questions.with_table.jsonl',
  infiagent: 'questions.dev.jsonl',
}

export function readQuestions(dir: string, dataset: Dataset): BenchQuestion[] {
  const lines = readFileSync(join(dir, QUESTION_FILES[dataset]), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
  return lines.map((line) => {
    const raw = JSON.parse(line) as Record<string, unknown>
    if (dataset !== 'infiagent') {
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
