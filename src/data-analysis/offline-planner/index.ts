import type { PlanOutcome, QuestionPlanner, TableSchema } from '../types.js'
import { convertedColumns } from './converted-columns.js'
import { readCues } from './cues/index.js'
import { derivedColumn } from './derived-column.js'
import { explain } from './explain.js'
import { type Fill, filledColumns } from './filled-columns.js'
import { nameParenthesisedColumns } from './parenthesised-columns.js'
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
      // "the maximum temperature (TMAX_F)": the column named in parentheses is what the words before it describe.
      const named = nameParenthesisedColumns(trimmed, tables)
      // A text column the question converts to numbers ("convert X to numeric") is read as numbers.
      const typed = convertedColumns(named, tables) ?? tables
      // Missing values the question fills first ("replace missing values in X with the median") are filled in its table.
      const filled = filledColumns(named, typed)
      // A column the question defines first ("a new feature called X by adding A and B") is added to its table.
      const derived = derivedColumn(filled?.question ?? named, filled?.tables ?? typed)
      const recognition = recognise(
        readCues(derived?.question ?? filled?.question ?? named),
        derived?.tables ?? filled?.tables ?? typed,
      )
      if (recognition.kind === 'declined') return recognition
      try {
        const explanation = explain(recognition.intent, language) + (filled ? fillWords(filled.fills, language) : '')
        const plan = buildPlan(recognition.intent, explanation)
        return { kind: 'plan', plan: { ...plan, mapping: recognition.mapping ?? [] } }
      } catch (error) {
        return { kind: 'declined', reason: `the query could not be built: ${(error as Error).message}` }
      }
    },
  }
}

/** The fills said in the explanation: `Missing values of "LoanAmount" filled with its median first.` */
function fillWords(fills: readonly Fill[], language: string): string {
  const fr = language === 'fr'
  if (fills.length === 0)
    return fr ? ' Les colonnes à remplir n’ont aucune valeur manquante.' : ' The columns to fill have no missing value.'
  const names = {
    mean: fr ? 'sa moyenne' : 'its mean',
    median: fr ? 'sa médiane' : 'its median',
    mode: fr ? 'sa valeur la plus fréquente' : 'its most frequent value',
  }
  const each = fills.map(({ column, value }) => {
    const by = value.kind === 'constant' ? JSON.stringify(value.value) : names[value.kind]
    return `"${column.name}" ${fr ? 'remplies par' : 'filled with'} ${by}`
  })
  return fr
    ? ` Valeurs manquantes d'abord remplacées (sur toute la table) : ${each.join(', ')}.`
    : ` Missing values first filled over the whole table: ${each.join(', ')}.`
}
