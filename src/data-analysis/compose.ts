import { type AnalysisValue, cleanNumber, markdownTable } from './result.js'
import type { QueryResult } from './sandbox.js'
import type { QueryPlan, TableSchema, WordMapping } from './types.js'

interface AnalysisPhrases {
  readonly answer: (value: string) => string
  readonly yes: string
  readonly no: string
  readonly empty: string
  readonly tableIntro: (rows: number) => string
  readonly truncated: (rows: number) => string
  readonly computed: string
  readonly read: string
  readonly query: string
  readonly declined: (reason: string) => string
  readonly failed: (error: string) => string
  readonly tables: string
}

const PHRASES: Readonly<Record<'en' | 'fr', AnalysisPhrases>> = {
  en: {
    answer: (value) => `The answer is **${value}**.`,
    yes: '**Yes.**',
    no: '**No.**',
    empty: 'No row matches: the result is empty.',
    tableIntro: (rows) => `The result has ${rows} row${rows === 1 ? '' : 's'}:`,
    truncated: (rows) => `(only the first ${rows} rows are shown)`,
    computed: 'How it was computed',
    read: 'Words read',
    query: 'Query',
    declined: (reason) => `I could not compute this from the tables: ${reason}`,
    failed: (error) => `I could not compute this: the query failed (${error}).`,
    tables: 'Tables available',
  },
  fr: {
    answer: (value) => `La réponse est **${value}**.`,
    yes: '**Oui.**',
    no: '**Non.**',
    empty: 'Aucune ligne ne correspond : le résultat est vide.',
    tableIntro: (rows) => `Le résultat compte ${rows} ligne${rows === 1 ? '' : 's'} :`,
    truncated: (rows) => `(seules les ${rows} premières lignes sont affichées)`,
    computed: 'Calcul effectué',
    read: 'Mots lus',
    query: 'Requête',
    declined: (reason) => `Je n'ai pas pu calculer cela à partir des tableaux : ${reason}`,
    failed: (error) => `Je n'ai pas pu calculer cela : la requête a échoué (${error}).`,
    tables: 'Tableaux disponibles',
  },
}

function phrases(language: string): AnalysisPhrases {
  return language === 'fr' ? PHRASES.fr : PHRASES.en
}

function valueText(value: unknown, language: string): string {
  if (typeof value === 'number') {
    const n = cleanNumber(value)
    return language === 'fr' ? String(n).replace('.', ',') : String(n)
  }
  return value === null || value === undefined ? '∅' : String(value)
}

/** The answer text of a computed result: the result in words, the computation, a small result table. */
export function composeResult(plan: QueryPlan, result: QueryResult, value: AnalysisValue, language: string): string {
  const p = phrases(language)
  const parts: string[] = []
  if (plan.resultType === 'table' || result.rows.length === 0) {
    parts.push(result.rows.length === 0 ? p.empty : p.tableIntro(result.rows.length))
  } else if (plan.resultType === 'boolean') {
    parts.push(value === true ? p.yes : value === false ? p.no : p.answer(valueText(value, language)))
  } else if (plan.resultType === 'values' && value !== null && typeof value === 'object' && !Array.isArray(value)) {
    const named = Object.entries(value).map(([name, v]) => `${name} = ${valueText(v, language)}`)
    parts.push(p.answer(named.join('; ')))
  } else if (Array.isArray(value)) {
    parts.push(p.answer(value.map((v) => valueText(v, language)).join(', ')))
  } else {
    parts.push(p.answer(valueText(value, language)))
  }
  parts.push(`${p.computed}: ${plan.explanation}`)
  if (plan.mapping && plan.mapping.length > 0) parts.push(`${p.read}: ${plan.mapping.map(mappingText).join('; ')}`)
  parts.push(`${p.query}:\n\`\`\`sql\n${plan.sql.trim()}\n\`\`\``)
  if (result.rows.length > 0) {
    const table = markdownTable(result)
    if (table) parts.push(result.rows.length > 10 ? `${table}\n\n${p.truncated(10)}` : table)
  }
  return parts.join('\n\n')
}

/** `"late" → "status" = 'late'`, `"amount" → "amount"`. */
function mappingText(mapping: WordMapping): string {
  const target = mapping.value === null ? `"${mapping.column}"` : `"${mapping.column}" = '${mapping.value}'`
  return `"${mapping.words}" → ${target}`
}

function tableList(tables: readonly TableSchema[]): string {
  return tables
    .map((t) => `- ${t.filename}${t.sheet ? ` (${t.sheet})` : ''}: ${t.columns.map((c) => c.name).join(', ')}`)
    .join('\n')
}

/** The answer when the planner could not map the question: what failed, and what the tables hold. */
export function composeDeclined(reason: string, tables: readonly TableSchema[], language: string): string {
  const p = phrases(language)
  return `${p.declined(reason)}\n\n${p.tables}:\n${tableList(tables)}`
}

/** The answer when the query kept failing after the repairs. */
export function composeFailed(error: string, tables: readonly TableSchema[], language: string): string {
  const p = phrases(language)
  return `${p.failed(error.split('\n')[0] ?? error)}\n\n${p.tables}:\n${tableList(tables)}`
}
