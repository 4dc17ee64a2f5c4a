import type { DocumentRecord } from '../storage/ports/knowledge-base.js'
import type { StoredSource } from '../storage/ports/messages.js'
import type { QuestionLanguages } from '../text/answer-language.js'
import { composeDeclined, composeFailed, composeResult } from './compose.js'
import { completeTest } from './derived-test.js'
import { canRepair } from './llm-planner.js'
import { type AnalysisValue, guessResultType, shapeProblem, typedResult } from './result.js'
import { QueryError, Sandbox, type SandboxLimits, type SandboxTable } from './sandbox.js'
import type { LoadedDocument, TableCache } from './table-cache.js'
import {
  type PlanOutcome,
  type QueryPlan,
  type QuestionPlanner,
  quoteIdentifier,
  type ResultType,
  ROW_COLUMN,
  type TableSchema,
  type WordMapping,
} from './types.js'

/** The `analysis` extension field of send-message. */
export interface AnalysisReport {
  readonly result: AnalysisValue
  readonly resultType: ResultType
  /** The computation in plain words and the query. */
  readonly plan: string
  /** Which words were read as which columns and values (empty when the planner does not say: a model's query). */
  readonly mapping: readonly WordMapping[]
}

export interface AnalysisOutcome {
  /** `answered`: computed; `declined`: the planner could not map the question; `failed`: the query kept failing. */
  readonly kind: 'answered' | 'declined' | 'failed'
  readonly text: string
  readonly sources: readonly StoredSource[]
  /** Null unless answered. */
  readonly report: AnalysisReport | null
}

/** A table document to analyse, with its tag names (for the sources). */
export interface AnalysisDocument {
  readonly document: DocumentRecord
  readonly tags: readonly string[]
}

/** The tables of one question, loaded, named t1, t2, … */
export interface LoadedTables {
  readonly schemas: readonly TableSchema[]
  readonly sandboxTables: readonly SandboxTable[]
  readonly documents: ReadonlyMap<string, AnalysisDocument>
}

export interface DataAnalysisDeps {
  readonly cache: TableCache
  readonly planner: QuestionPlanner
  readonly limits: SandboxLimits
  /** Corrections asked of a planner that can repair (the LLM) after a failing query. */
  readonly maxRepairs?: number
  readonly onError?: (error: unknown, what: string) => void
}

/** Evidence rows cited at most. */
const EVIDENCE_ROWS = 20
/** Characters of one evidence row's text in a source. */
const ROW_TEXT_MAX = 1000

/**
 * Data-analysis mode: loads the documents' tables, asks the planner for one query, runs it in the
 * sandbox (a repairing planner gets the error back, at most `maxRepairs` times), and composes the
 * answer with the result, the computation, a result table and the rows that support it.
 */
export class DataAnalysis {
  constructor(private readonly deps: DataAnalysisDeps) {}

  async loadTables(documents: readonly AnalysisDocument[]): Promise<LoadedTables> {
    const loaded: { doc: AnalysisDocument; tables: LoadedDocument }[] = []
    for (const doc of documents) loaded.push({ doc, tables: await this.deps.cache.load(doc.document) })
    const schemas: TableSchema[] = []
    const sandboxTables: SandboxTable[] = []
    for (const { doc, tables } of loaded) {
      for (const table of tables.tables) {
        const sqlName = `t${schemas.length + 1}`
        schemas.push({
          sqlName,
          documentId: doc.document.id,
          filename: tables.filename,
          sheet: table.sheet,
          rowCount: table.rowCount,
          columns: table.columns,
          sampleRows: table.sampleRows,
        })
        sandboxTables.push({ sqlName, file: tables.file, table: table.table })
      }
    }
    return { schemas, sandboxTables, documents: new Map(documents.map((d) => [d.document.id, d])) }
  }

  /** Answers the question over the tables: computed, or declined or failed with the reason in words. */
  async answer(tables: LoadedTables, question: string, languages: QuestionLanguages): Promise<AnalysisOutcome> {
    const { planner } = this.deps
    const language = languages.answer
    if (tables.schemas.length === 0) return this.declined(tables, 'the documents hold no table with data', language)
    let outcome: PlanOutcome = await planner.plan(question, tables.schemas, languages.question)
    if (outcome.kind === 'declined') return this.declined(tables, outcome.reason, language)

    const sandbox = await Sandbox.open(tables.sandboxTables, this.deps.limits)
    try {
      let lastError = ''
      for (let attempt = 0; ; attempt++) {
        if (outcome.kind === 'declined') return this.declined(tables, outcome.reason, language)
        const plan: QueryPlan = outcome.plan
        try {
          const queried = await sandbox.query(plan.sql)
          const result = plan.test ? completeTest(queried, plan.test) : queried
          const resultType = plan.resultType ?? guessResultType(result)
          // A model's query may run yet answer in another shape than it said: it is told, once more at most.
          const problem = canRepair(planner) ? shapeProblem(result, resultType) : null
          if (problem) throw new QueryError(problem)
          const value = typedResult(result, resultType)
          const sources = await this.evidence(sandbox, tables, plan)
          return {
            kind: 'answered',
            text: composeResult(plan, result, value, language),
            sources,
            report: {
              result: value,
              resultType,
              plan: `${plan.explanation}\n${plan.sql.trim()}`,
              mapping: plan.mapping ?? [],
            },
          }
        } catch (error) {
          if (!(error instanceof QueryError)) throw error
          lastError = error.message
          if (!canRepair(planner) || attempt >= (this.deps.maxRepairs ?? 2)) break
          outcome = await planner.repair(question, tables.schemas, languages.question, plan.sql, error.message)
        }
      }
      return { kind: 'failed', text: composeFailed(lastError, tables.schemas, language), sources: [], report: null }
    } finally {
      sandbox.close()
    }
  }

  /**
   * Automatic routing in data-scientist bots: the answer when the question is computed, else null
   * (declined or failed), so the caller answers from the knowledge base instead.
   */
  async tryAnswer(
    tables: LoadedTables,
    question: string,
    languages: QuestionLanguages,
  ): Promise<AnalysisOutcome | null> {
    const outcome = await this.answer(tables, question, languages)
    return outcome.kind === 'answered' ? outcome : null
  }

  private declined(tables: LoadedTables, reason: string, language: string): AnalysisOutcome {
    return { kind: 'declined', text: composeDeclined(reason, tables.schemas, language), sources: [], report: null }
  }

  /** Sources: the evidence rows of the plan (row_idx = the row number in the file), else each document once. */
  private async evidence(sandbox: Sandbox, tables: LoadedTables, plan: QueryPlan): Promise<StoredSource[]> {
    const schema = tables.schemas.find((t) => t.sqlName === plan.evidenceTable)
    if (plan.evidenceSql && schema) {
      try {
        const rows = await sandbox.query(plan.evidenceSql, EVIDENCE_ROWS)
        const column = Math.max(0, rows.columns.indexOf(ROW_COLUMN))
        const numbers = [...new Set(rows.rows.map((row) => Number(row[column])).filter((n) => Number.isInteger(n)))]
        if (numbers.length > 0) {
          const content = await sandbox.query(
            `SELECT * FROM ${quoteIdentifier(schema.sqlName)} WHERE ${quoteIdentifier(ROW_COLUMN)} IN (${numbers.join(', ')})`,
            EVIDENCE_ROWS,
          )
          const textOf = new Map<number, string>()
          for (const row of content.rows) {
            const parts = content.columns.flatMap((name, i) =>
              name === ROW_COLUMN || row[i] === null ? [] : [`${name}: ${String(row[i])}`],
            )
            textOf.set(Number(row[content.columns.indexOf(ROW_COLUMN)]), parts.join(' | ').slice(0, ROW_TEXT_MAX))
          }
          return numbers.map((n) => this.source(tables, schema, String(n), textOf.get(n) ?? ''))
        }
      } catch (error) {
        this.deps.onError?.(error, 'evidence query failed')
      }
    }
    const seen = new Set<string>()
    return tables.schemas.flatMap((t) => {
      if (seen.has(t.documentId)) return []
      seen.add(t.documentId)
      const description = tables.schemas
        .filter((s) => s.documentId === t.documentId)
        .map((s) => `${s.sheet ?? s.filename}: ${s.rowCount} rows; columns ${s.columns.map((c) => c.name).join(', ')}`)
        .join('\n')
      return [this.source(tables, t, null, description)]
    })
  }

  private source(tables: LoadedTables, schema: TableSchema, row: string | null, content: string): StoredSource {
    const doc = tables.documents.get(schema.documentId)
    const document = doc?.document
    return {
      documentId: schema.documentId,
      objectName: document?.objectName ?? '',
      filename: schema.filename,
      description: document?.description ?? '',
      documentType: document?.documentType ?? '',
      page: null,
      pageNumber: row !== null && schema.sheet !== null ? `${schema.sheet}!${row}` : null,
      rowIdx: row,
      chunkIdx: null,
      content,
      tags: [...(doc?.tags ?? [])],
      usageScore: 1,
      retrievalMode: 'lookup',
    }
  }
}
