import type { PlanOutcome, QuestionPlanner, TableSchema } from '../types.js'
import { readCues } from './cues/index.js'
import { derivedColumn } from './derived-column.js'
import { explain } from './explain.js'
import { recognise } from './recognise.js'
import { buildPlan } from './sql.js'

/**
 * The offline question planner (no LLM): reads the question's cues (form, aggregates,
 * superlatives, comparators, limits), maps its words to columns by header and to cells by the
 * values seen, recognises one supported shape and builds one read-only DuckDB query. It declines,
 * with the reason, whenever a word it needs cannot be mapped: it never guesses a column.
 */
export function createOfflinePlanner(): QuestionPlanner {
  return {
    async plan(question: string, tables: readonly TableSchema[], language: string): Promise<PlanOutcome> {
      const trimmed = question.trim()
      if (trimmed === '') return { kind: 'declined', reason: 'the question is empty' }
      // A column the question defines first ("a new feature called X by adding A and B") is added to its table.
      const derived = derivedColumn(trimmed, tables)
      const recognition = recognise(readCues(derived?.question ?? trimmed), derived?.tables ?? tables)
      if (recognition.kind === 'declined') return recognition
      try {
        const plan = buildPlan(recognition.intent, explain(recognition.intent, language))
        return { kind: 'plan', plan: { ...plan, mapping: recognition.mapping ?? [] } }
      } catch (error) {
        return { kind: 'declined', reason: `the query could not be built: ${(error as Error).message}` }
      }
    },
  }
}
