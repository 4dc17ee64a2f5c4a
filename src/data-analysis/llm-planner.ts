import type { ChatMessage, ChatModel } from '../answering/types.js'
import type { PlanOutcome, QuestionPlanner, ResultType, TableSchema } from './types.js'
import { quoteIdentifier, ROW_COLUMN } from './types.js'

/** A planner that can be told why its query failed and asked for a corrected one. */
export interface RepairingPlanner extends QuestionPlanner {
  repair(
    question: string,
    tables: readonly TableSchema[],
    language: string,
    failedSql: string,
    error: string,
  ): Promise<PlanOutcome>
}

export function canRepair(planner: QuestionPlanner): planner is RepairingPlanner {
  return typeof (planner as Partial<RepairingPlanner>).repair === 'function'
}

const RESULT_TYPES: readonly ResultType[] = [
  'boolean',
  'number',
  'category',
  'list[number]',
  'list[category]',
  'table',
  'values',
]

/** The schema as the model sees it: SQL names, types, units and sample values. */
export function describeTables(tables: readonly TableSchema[]): string {
  return tables
    .map((table) => {
      const title = `Table ${table.sqlName} — file "${table.filename}"${table.sheet ? `, sheet "${table.sheet}"` : ''}, ${table.rowCount} rows`
      const columns = table.columns.map((column) => {
        const unit = column.unit ? `, ${column.unit}` : ''
        const samples =
          column.topValues.length > 0
            ? `; values e.g. ${column.topValues
                .slice(0, 8)
                .map((v) => JSON.stringify(v))
                .join(', ')}`
            : column.min !== null
              ? `; from ${column.min} to ${column.max}`
              : ''
        return `  - ${quoteIdentifier(column.name)} ${column.type}${unit}${samples}${column.nullCount > 0 ? `; ${column.nullCount} empty` : ''}`
      })
      const sample = (table.sampleRows ?? []).map((row) => `  | ${row.map((cell) => cell ?? '').join(' | ')} |`)
      return [
        title,
        `  - ${quoteIdentifier(ROW_COLUMN)} integer: the row number in the file (for evidence)`,
        ...columns,
        ...(sample.length > 0
          ? [`  first rows (${table.columns.map((column) => column.name).join(' | ')}):`, ...sample]
          : []),
      ].join('\n')
    })
    .join('\n\n')
}

const SYSTEM = `You answer questions about tables by writing ONE DuckDB SQL query.
Rules:
- One read-only SELECT (or WITH … SELECT) statement over the tables listed, by their SQL names (t1, t2, …). No other statement, no file functions.
- Always double-quote column names exactly as listed.
- Percent columns hold the number shown (12 % is 12); currency columns hold the amount.
- Return only what answers the question (one value when the question asks for one).
- When it asks for several values ("the mean and the standard deviation"), return one row with one column per value, named after it, and result_type "values".
Reply with a JSON object only:
{"sql": "<the query>", "result_type": "boolean|number|category|list[number]|list[category]|table|values", "explanation": "<the computation in plain words, in the question's language>", "evidence_sql": "<optional: SELECT \\"${ROW_COLUMN}\\" FROM <one table> … returning up to 20 rows that support the answer>", "evidence_table": "<that table's SQL name>"}
If the tables cannot answer the question, reply {"declined": "<why, in the question's language>"}.`

function extractJson(content: string): Record<string, unknown> | null {
  const fenced = /```(?:json)?\s*([\s\S]*?)```/.exec(content)
  const body = fenced?.[1] ?? content
  const start = body.indexOf('{')
  const end = body.lastIndexOf('}')
  if (start < 0 || end <= start) return null
  try {
    const parsed: unknown = JSON.parse(body.slice(start, end + 1))
    return typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : null
  } catch {
    return null
  }
}

/** Reads the model's reply: the JSON plan, else a bare ```sql block. */
export function parsePlanReply(content: string, fallbackExplanation: string): PlanOutcome {
  const json = extractJson(content)
  if (json) {
    if (typeof json.declined === 'string' && typeof json.sql !== 'string')
      return { kind: 'declined', reason: json.declined }
    if (typeof json.sql === 'string' && json.sql.trim() !== '') {
      const resultType = RESULT_TYPES.includes(json.result_type as ResultType)
        ? (json.result_type as ResultType)
        : 'table'
      const evidenceSql =
        typeof json.evidence_sql === 'string' && json.evidence_sql.trim() ? json.evidence_sql : undefined
      const evidenceTable = typeof json.evidence_table === 'string' ? json.evidence_table : undefined
      return {
        kind: 'plan',
        plan: {
          sql: json.sql.trim().replace(/;\s*$/, ''),
          resultType,
          explanation:
            typeof json.explanation === 'string' && json.explanation.trim() ? json.explanation : fallbackExplanation,
          ...(evidenceSql && evidenceTable ? { evidenceSql, evidenceTable } : {}),
        },
      }
    }
  }
  const sql = /```sql\s*([\s\S]*?)```/i.exec(content)?.[1]?.trim()
  if (sql)
    return {
      kind: 'plan',
      plan: { sql: sql.replace(/;\s*$/, ''), resultType: 'table', explanation: fallbackExplanation },
    }
  return { kind: 'declined', reason: 'the language model did not return a query' }
}

/**
 * The LLM planner: the model sees the tables' schemas (names, types, sample values) and writes one
 * SQL query; told the error of a failed query, it writes a corrected one.
 */
export class LlmPlanner implements RepairingPlanner {
  constructor(
    private readonly model: ChatModel,
    private readonly timeoutMs = 60_000,
  ) {}

  async plan(question: string, tables: readonly TableSchema[], language: string): Promise<PlanOutcome> {
    return this.ask([
      { role: 'system', content: SYSTEM },
      { role: 'user', content: this.prompt(question, tables, language) },
    ])
  }

  async repair(
    question: string,
    tables: readonly TableSchema[],
    language: string,
    failedSql: string,
    error: string,
  ): Promise<PlanOutcome> {
    return this.ask([
      { role: 'system', content: SYSTEM },
      { role: 'user', content: this.prompt(question, tables, language) },
      { role: 'assistant', content: JSON.stringify({ sql: failedSql }) },
      {
        role: 'user',
        content: `The query was not right:\n${error}\nWrite a corrected query. Reply with the JSON object only.`,
      },
    ])
  }

  private prompt(question: string, tables: readonly TableSchema[], language: string): string {
    return `Tables:\n${describeTables(tables)}\n\nQuestion (language: ${language}): ${question}`
  }

  private async ask(messages: ChatMessage[]): Promise<PlanOutcome> {
    const content = await this.model.complete(messages, { signal: AbortSignal.timeout(this.timeoutMs) })
    return parsePlanReply(content, 'query written by the language model')
  }
}
