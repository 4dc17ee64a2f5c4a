import { escapeRegex } from '../../lib/regex.js'
import type { ColumnSchema, TableSchema } from '../types.js'
import { quoteIdentifier } from '../types.js'
import { isNumeric } from './columns.js'
import { formulaOf } from './derived-formula.js'
import { listedColumns } from './listed-columns.js'
import { columnNamed } from './named-column.js'

/**
 * A column the question defines from others before asking about it ("Create a new feature called
 * "TotalIncome" by adding the ApplicantIncome and CoapplicantIncome columns. Calculate its mean"):
 * the table is read through a SELECT that adds it, and the question is asked without its
 * definition. English only; every operand must be a column's exact name (quotes and case aside),
 * otherwise nothing is derived and the question is declined as before.
 */

/** `a new feature called "X"`, `a new column named X`, `a new feature 'X'` (quoted, the name right after the noun). */
const NEW_NAME =
  /\b(?:feature|column|variable|field)\s+(?:(?:called|named|titled)\s+(?:["'“‘`]([^"'”’`]{1,60})["'”’`]|([\p{L}_][\p{L}\p{N}_.-]{0,59}))|["'“‘`]([^"'”’`]{1,60})["'”’`])/iu

type Operation = '+' | '-' | '*' | '/'

/** A sentence right after the new name that defines it by a pronoun ("It should be the sum of …", "It is calculated as …"). */
const FOLLOWING_DEFINITION = /^\s*(?:it|this)\s+(?:should\s+be|is|will\s+be|must\s+be)\b/i

/** How a definition says its operation, with where its operands are: `a`, then `b` (for `-` and `/`, a − b and a ÷ b). */
const DEFINITIONS: ReadonlyArray<{ pattern: RegExp; operation: Operation; reversed?: boolean }> = [
  { pattern: /\bby\s+(?:adding|summing)(?:\s+up)?\s+(.+?)(?:\s+together)?\s*(?:[.;]|$)/iu, operation: '+' },
  { pattern: /\bby\s+multiplying\s+(.+?)\s+(?:with|by|and)\s+(.+?)\s*(?:[.;]|$)/iu, operation: '*' },
  { pattern: /\bby\s+dividing\s+(.+?)\s+by\s+(.+?)\s*(?:[.;]|$)/iu, operation: '/' },
  { pattern: /\bby\s+subtracting\s+(.+?)\s+from\s+(.+?)\s*(?:[.;]|$)/iu, operation: '-', reversed: true },
  { pattern: /\bratio\s+of\s+(.+?)\s+(?:to|and|over)\s+(.+?)\s*(?:[.;]|$)/iu, operation: '/' },
  { pattern: /\bdifference\s+between\s+(.+?)\s+and\s+(.+?)\s*(?:[.;]|$)/iu, operation: '-' },
  { pattern: /\bsum\s+of\s+(.+?)\s*(?:[.;]|$)/iu, operation: '+' },
]

/** The operands of an addition: `A and B`, `A, B and C`, `A, B, and C`. */
function addends(phrase: string): string[] {
  return phrase.split(/\s*,\s*(?:and\s+)?|\s+and\s+|\s+with\s+/i).filter((part) => part.trim() !== '')
}

/** The sentence of `text` around `index`: from the previous stop to the next. */
export function sentenceAt(text: string, index: number): { start: number; end: number } {
  const before = text.slice(0, index)
  const start = Math.max(before.lastIndexOf('. '), before.lastIndexOf('? '), before.lastIndexOf('\n'))
  const after = text.slice(index).search(/\.(?:\s|$)|\?|\n/)
  return { start: start < 0 ? 0 : start + 1, end: after < 0 ? text.length : index + after + 1 }
}

/**
 * The text without the sentences that say the definition again ("Create X by multiplying exper and
 * looks."): each sentence that names every operand, whose columns the rest of the question does
 * not ask about.
 */
function withoutRestatements(text: string, operands: readonly ColumnSchema[]): string {
  const names = operands.map(
    (column) => new RegExp(`(?<![\\p{L}\\p{N}_])${escapeRegex(column.name)}(?![\\p{L}\\p{N}_])`, 'iu'),
  )
  return text
    .split(/(?<=[.?!])\s+|\n+/u)
    .filter((part) => !names.every((pattern) => pattern.test(part)))
    .join('\n')
}

/** The expression a definition in words gives ("by dividing A by B"), with its operands in order. */
function definitionOf(definition: string, table: TableSchema): { expression: string; ordered: ColumnSchema[] } | null {
  for (const { pattern, operation, reversed } of DEFINITIONS) {
    const found = pattern.exec(definition)
    if (!found?.[1]) continue
    const phrases = operation === '+' && !found[2] ? addends(found[1]) : [found[1], found[2] ?? '']
    let operands = phrases.map((phrase) => columnNamed(phrase, table.columns))
    // A sum of names that hold "and" themselves, or after a description: read by the names.
    if (operation === '+' && !found[2] && operands.some((column) => column === null))
      operands = listedColumns(found[1], table.columns) ?? operands
    if (operands.length < 2 || operands.some((column) => column === null || !isNumeric(column))) continue
    const ordered = (reversed ? [...operands].reverse() : operands) as ColumnSchema[]
    const sql = ordered.map((column) => quoteIdentifier(column.name))
    return { expression: operation === '/' ? `${sql[0]} / NULLIF(${sql[1]}, 0)` : sql.join(` ${operation} `), ordered }
  }
  return null
}

/** The expression of a formula the question writes (`X = (A - B) / C`, derived-formula.ts). */
function formulaIn(
  question: string,
  name: string,
  table: TableSchema,
): { expression: string; ordered: ColumnSchema[] } | null {
  const formula = formulaOf(question, name, table.columns)
  return formula ? { expression: formula.expression, ordered: [...formula.operands] } : null
}

export interface DerivedQuestion {
  /** The question without the definition, the new column named where it said "this new feature". */
  readonly question: string
  /** The tables, the one holding the operands read through a SELECT that adds the column. */
  readonly tables: TableSchema[]
  readonly column: ColumnSchema
}

/** The column the question defines and the question to ask with it, or null when it defines none the planner can read. */
export function derivedColumn(question: string, tables: readonly TableSchema[]): DerivedQuestion | null {
  const named = NEW_NAME.exec(question)
  if (!named) return null
  const name = (named[1] ?? named[2] ?? named[3] ?? '').trim()
  if (name === '') return null
  const namedAt = sentenceAt(question, named.index)
  // "… a new feature called "STEM". It should be the sum of …": the definition in the next sentence.
  const following = sentenceAt(question, Math.min(namedAt.end + 1, question.length))
  const next = question.slice(following.start, following.end)
  const sentence = FOLLOWING_DEFINITION.test(next) ? { start: namedAt.start, end: following.end } : namedAt
  const definition = question.slice(sentence.start, sentence.end)
  for (const table of tables) {
    if (table.columns.some((column) => column.name.toLowerCase() === name.toLowerCase())) continue
    const defined = definitionOf(definition, table) ?? formulaIn(question, name, table)
    if (!defined) continue
    const { expression, ordered } = defined
    const column: ColumnSchema = {
      name,
      type: 'number',
      unit: null,
      nullCount: 0,
      distinctCount: table.rowCount,
      topValues: [],
      min: null,
      max: null,
    }
    const derived: TableSchema = {
      ...table,
      sqlName: `(SELECT *, (${expression}) AS ${quoteIdentifier(name)} FROM ${table.sqlName})`,
      columns: [...table.columns, column],
    }
    const rest = withoutRestatements(`${question.slice(0, sentence.start)} ${question.slice(sentence.end)}`, ordered)
      .replace(/\b(?:this|the|that)\s+new\s+(?:feature|column|variable|field)\b/giu, `"${name}"`)
      // "the "average power-to-weight ratio"": words quoted with the new name are words about it, the name quoted alone.
      .replace(
        new RegExp(`["'“‘]([^"'”’\n]*?)\\b${escapeRegex(name)}\\b([^"'”’\n]*?)["'”’]`, 'giu'),
        (whole: string, before: string, after: string) =>
          before.trim() === '' && after.trim() === '' ? whole : `${before}"${name}"${after}`,
      )
      // What is left of "feature" speaks of the column now defined, which the table has.
      .replace(/\bfeatures?\b/giu, 'column')
      .trim()
    return { question: rest, tables: tables.map((t) => (t === table ? derived : t)), column }
  }
  return null
}
