import type { ColumnSchema, TableSchema } from '../types.js'
import { quoteIdentifier } from '../types.js'
import { isNumeric } from './columns.js'
import { columnNamed } from './named-column.js'

/**
 * Missing values the question fills before asking ("Replace missing values in LoanAmount with the
 * median value of the column", "fill the missing values with the mean of their respective
 * columns", "impute missing values in Age using the mean"): the table is read through a SELECT
 * that fills them (DuckDB's `median`, `avg`, the most frequent value, or the constant said), over
 * the whole column as pandas' `fillna(df[c].median())` does, and the question is asked without the
 * sentences that say it. English only; each filled column must be named exactly (quotes and case
 * aside), the mean and median only fill numeric columns; otherwise nothing is filled and the
 * question is declined as before ("fill", "replace", "impute").
 */

export type FillValue =
  | { readonly kind: 'mean' | 'median' | 'mode' }
  | { readonly kind: 'constant'; readonly value: string | number }

export interface Fill {
  readonly column: ColumnSchema
  readonly value: FillValue
}

export interface FilledQuestion {
  readonly question: string
  readonly tables: TableSchema[]
  readonly fills: readonly Fill[]
}

/** A sentence that fills missing values: a verb of filling and the missing values. */
const FILL_SENTENCE =
  /\b(?:fill(?:s|ed|ing)?|replac(?:e|es|ed|ing)|imput(?:e|es|ed|ing|ation))\b[^.?!\n]*\b(?:missing|null|nan|na|empty)\b|\b(?:missing|null|nan|na|empty)\b[^.?!\n]*\b(?:fill(?:s|ed|ing)?|replac(?:e|es|ed|ing)|imput(?:e|es|ed|ing))\b/i
/** A sentence that only announces the handling of missing values ("by handling missing values in A and B"). */
const HANDLING = /\bhandl(?:e|es|ed|ing)\s+(?:the\s+|any\s+)?(?:missing|null)\s+values?\b/i
/** What fills: a statistic of the column, or a quoted or numeric constant. */
const VALUE = String.raw`(?:the\s+)?(?:(mean|average|median|mode|most\s+frequent)\b|["'‘“]([^"'’”]{1,40})["'’”]|(-?\d+(?:\.\d+)?)\b)`
/** "… in <column> with <value>", "… of <column> by <value>", "… for <column> using <value>". */
const PER_COLUMN = new RegExp(
  // The column's words hold no "in", "of", "for": "filling in missing values in X with …" names X.
  String.raw`\b(?:in|of|for)\s+((?:(?!\b(?:in|of|for)\b).){1,60}?)\s+(?:with|by|using)\s+${VALUE}`,
  'giu',
)
/** "the missing values with the mean values of their respective columns": every column it fits. */
const EVERY_COLUMN = new RegExp(
  String.raw`\b(?:missing|null|nan)\s+values?\s+(?:with|by|using)\s+${VALUE}[^.?!\n]*\b(?:respective|own|corresponding|each)\b`,
  'iu',
)

const GROUP_WORDS = /\b(?:same|each|per|group|groups|grouped|within|by|across|respective|corresponding)\b/i

function fillValue(statistic: string | undefined, quoted: string | undefined, number: string | undefined): FillValue {
  if (quoted !== undefined) return { kind: 'constant', value: quoted }
  if (number !== undefined) return { kind: 'constant', value: Number(number) }
  const word = (statistic ?? '').toLowerCase()
  return { kind: word === 'median' ? 'median' : word === 'mode' || word.startsWith('most') ? 'mode' : 'mean' }
}

/** Whether a value can fill a column: a statistic of numbers only for numbers, a constant of its kind. */
function fits(column: ColumnSchema, value: FillValue): boolean {
  if (value.kind === 'mean' || value.kind === 'median') return isNumeric(column)
  if (value.kind === 'constant') return typeof value.value === 'number' ? isNumeric(column) : column.type === 'text'
  return true
}

/** The fills one sentence says (none when every column it names is complete), or null when it says filling but none can be read. */
function fillsOf(sentence: string, table: TableSchema): Fill[] | null {
  const fills: Fill[] = []
  for (const match of sentence.matchAll(PER_COLUMN)) {
    const column = columnNamed(match[1] ?? '', table.columns)
    if (!column) continue
    // "with the mean of the same country", "the median per class": a value per group, not read.
    const tail = sentence.slice((match.index ?? 0) + match[0].length).split(/\band\s+(?:in|of|for)\b|[,;]/)[0] ?? ''
    if (GROUP_WORDS.test(tail)) return null
    const value = fillValue(match[2], match[3], match[4])
    if (!fits(column, value)) return null
    fills.push({ column, value })
  }
  if (fills.length > 0) return fills
  const every = EVERY_COLUMN.exec(sentence)
  if (!every) return null
  const value = fillValue(every[1], every[2], every[3])
  // Columns without a missing value need no filling: none may be the answer.
  return table.columns
    .filter((column) => column.nullCount > 0 && fits(column, value))
    .map((column) => ({ column, value }))
}

function fillSql(fill: Fill, from: string): string {
  const c = quoteIdentifier(fill.column.name)
  const { value } = fill
  let by: string
  if (value.kind === 'constant')
    by = typeof value.value === 'number' ? String(value.value) : `'${value.value.replaceAll("'", "''")}'`
  else if (value.kind === 'mean') by = `(SELECT avg(${c}) FROM ${from})`
  else if (value.kind === 'median') by = `(SELECT median(${c}) FROM ${from})`
  // The most frequent value; among equally frequent ones the smallest, as pandas' mode()[0].
  else by = `(SELECT ${c} FROM ${from} WHERE ${c} IS NOT NULL GROUP BY ${c} ORDER BY count(*) DESC, ${c} LIMIT 1)`
  return `coalesce(${c}, ${by}) AS ${c}`
}

/** The question with its missing values filled, or null when it fills none the planner can read. */
export function filledColumns(question: string, tables: readonly TableSchema[]): FilledQuestion | null {
  const sentences = question.split(/(?<=[.?!])\s+|\n+/u)
  if (tables.length !== 1) return null
  const [table] = tables as [TableSchema]
  const fills: Fill[] = []
  const kept: string[] = []
  let said = false
  for (const sentence of sentences) {
    if (!FILL_SENTENCE.test(sentence)) {
      kept.push(sentence)
      continue
    }
    const read = fillsOf(sentence, table)
    if (!read) return null
    said = true
    fills.push(...read)
  }
  if (!said || new Set(fills.map((fill) => fill.column)).size !== fills.length) return null
  const filled: TableSchema = {
    ...table,
    sqlName:
      fills.length === 0
        ? table.sqlName
        : `(SELECT * REPLACE (${fills.map((fill) => fillSql(fill, table.sqlName)).join(', ')}) FROM ${table.sqlName})`,
    columns: table.columns.map((column) => {
      const fill = fills.find((f) => f.column === column)
      if (!fill) return column
      const averaged = fill.value.kind === 'mean' || fill.value.kind === 'median'
      return { ...column, nullCount: 0, ...(averaged ? { type: 'number' as const } : {}) }
    }),
  }
  // A sentence announcing the handling of the missing values says nothing more once they are filled.
  const rest = kept.filter((sentence) => !HANDLING.test(sentence)).join('\n')
  return { question: rest, tables: [filled], fills }
}
