import type { ColumnSchema, TableSchema } from '../types.js'
import { FILLERS, WORDLIKE_VALUES } from './lexicon/vague-words.js'
import { fold, stemsOf, type Token, words } from './tokenise.js'

/** A cell value of a text column named in the question ("working in sales" → Department = 'Sales'). */
export interface ValueMention {
  readonly table: TableSchema
  readonly column: ColumnSchema
  /** The value as stored (for list-like cells `[a, b]`: one item). */
  readonly value: string
  /** True when the column holds list-like cells and the value is one of their items. */
  readonly item: boolean
  readonly start: number
  readonly end: number
  /** Matched by its first words only. */
  readonly partial?: boolean
  /** Other columns of the table holding the same value, none of them named: the planner cannot choose. */
  readonly ties?: readonly ColumnSchema[]
}

/** `[Hacendado, Mercadona]` → its items; any other cell → null. */
export function listItems(cell: string): string[] | null {
  const trimmed = cell.trim()
  if (!trimmed.startsWith('[') || !trimmed.endsWith(']')) return null
  return trimmed
    .slice(1, -1)
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '')
}

export function isListColumn(column: ColumnSchema): boolean {
  const sample = column.topValues.slice(0, 10)
  return sample.length > 0 && sample.every((value) => listItems(value) !== null)
}

interface Candidate {
  readonly value: string
  readonly item: boolean
  readonly stems: ReadonlyArray<ReadonlySet<string>>
  readonly words: readonly string[]
}

const candidateCache = new WeakMap<ColumnSchema, Candidate[]>()

function candidatesOf(column: ColumnSchema): Candidate[] {
  const cached = candidateCache.get(column)
  if (cached) return cached
  const list = isListColumn(column)
  const seen = new Set<string>()
  const out: Candidate[] = []
  const values = list ? column.topValues.flatMap((cell) => listItems(cell) ?? []) : column.topValues
  for (const value of values) {
    const key = fold(value.trim())
    if (seen.has(key) || WORDLIKE_VALUES.has(key) || !/\p{L}/u.test(key)) continue
    seen.add(key)
    const valueWords = words(value.replace(/%20/g, ' ').replace(/_/g, ' ')).filter((word) => !FILLERS.has(word))
    if (valueWords.length === 0 || valueWords.length > 8) continue
    out.push({
      value: list ? value.trim() : value,
      item: list,
      stems: valueWords.map((word) => new Set(stemsOf(word))),
      words: valueWords,
    })
  }
  candidateCache.set(column, out)
  return out
}

function matchAt(tokens: readonly Token[], start: number, candidate: Candidate, blocked: ReadonlySet<number>): number {
  let slot = 0
  let j = start
  while (slot < candidate.stems.length && j < tokens.length) {
    const token = tokens[j]
    if (!token || blocked.has(j)) return -1
    const stems = candidate.stems[slot]
    const word = candidate.words[slot] ?? ''
    const close = token.text === word || token.text.startsWith(word) || word.startsWith(token.text)
    const derived = word.length >= 5 && token.text.startsWith(word)
    if (stems && close && (derived || token.stems.some((stem) => stems.has(stem)))) {
      slot++
      if (slot === candidate.stems.length) return j
    } else if (!(FILLERS.has(token.text) && slot > 0)) return -1
    j++
  }
  return -1
}

/**
 * Every cell value the question names, longest first and without overlaps; when one phrase is a
 * value of several columns, the column also named in the question wins, else the column with the
 * fewest distinct values (the most categorical one).
 */
export function findValueMentions(
  tokens: readonly Token[],
  tables: readonly TableSchema[],
  blocked: ReadonlySet<number>,
  preferredColumns: ReadonlySet<ColumnSchema>,
): ValueMention[] {
  const found: ValueMention[] = []
  for (const table of tables) {
    for (const column of table.columns) {
      if (column.type !== 'text') continue
      const candidates = candidatesOf(column)
      for (const candidate of candidates) {
        for (let start = 0; start < tokens.length; start++) {
          const end = matchAt(tokens, start, candidate, blocked)
          if (end >= 0) found.push({ table, column, value: candidate.value, item: candidate.item, start, end })
        }
      }
      // "Sapiens" for "Sapiens A Brief History…", "computer science" for "Computer Science & Engineering":
      // the first words of one value only, distinctive enough (4+ letters) and shared by no other value
      for (const candidate of candidates) {
        if (candidate.words.length < 2 || (candidate.words[0]?.length ?? 0) < 4) continue
        for (const prefixLength of [2, 1]) {
          if (prefixLength >= candidate.words.length) continue
          const prefix = candidate.words.slice(0, prefixLength)
          const shared = candidates.filter((other) => prefix.every((word, i) => other.words[i] === word))
          if (shared.length !== 1) continue
          const partial = { ...candidate, stems: candidate.stems.slice(0, prefixLength), words: prefix }
          let matched = false
          for (let start = 0; start < tokens.length; start++) {
            const end = matchAt(tokens, start, partial, blocked)
            // one word alone must look like a name ("Sapiens"), not an ordinary word ("first")
            if (end >= 0 && (prefixLength > 1 || tokens[start]?.capitalized)) {
              found.push({ table, column, value: candidate.value, item: candidate.item, start, end, partial: true })
              matched = true
            }
          }
          if (matched) break
        }
      }
    }
  }
  const rank = (mention: ValueMention) =>
    (mention.end - mention.start) * 100 +
    (mention.partial ? -60 : 0) +
    (preferredColumns.has(mention.column) ? 50 : 0) +
    (fold(mention.value) ===
    tokens
      .slice(mention.start, mention.end + 1)
      .map((t) => t.text)
      .join(' ')
      ? 10
      : 0) -
    Math.min(mention.column.distinctCount, 9999) / 10000
  found.sort((a, b) => rank(b) - rank(a))
  const taken = new Set<number>()
  const accepted: ValueMention[] = []
  for (const mention of found) {
    let overlaps = false
    for (let i = mention.start; i <= mention.end; i++) if (taken.has(i)) overlaps = true
    if (overlaps) continue
    for (let i = mention.start; i <= mention.end; i++) taken.add(i)
    // "often" answered in several survey columns: the fewest distinct values is no reason to pick one
    const ties = found
      .filter(
        (other) =>
          other.table === mention.table &&
          other.column !== mention.column &&
          other.start === mention.start &&
          other.end === mention.end &&
          !other.partial &&
          !mention.partial &&
          fold(other.value) === fold(mention.value) &&
          !preferredColumns.has(other.column) &&
          !preferredColumns.has(mention.column),
      )
      .map((other) => other.column)
    accepted.push(ties.length > 0 ? { ...mention, ties } : mention)
  }
  return accepted.sort((a, b) => a.start - b.start)
}

/** Finds a quoted string among a column's seen values (exact, case-insensitive). */
export function findQuotedValue(
  quoted: string,
  tables: readonly TableSchema[],
): Omit<ValueMention, 'start' | 'end'> | null {
  const key = fold(quoted.trim())
  for (const table of tables) {
    for (const column of table.columns) {
      if (column.type !== 'text') continue
      for (const candidate of candidatesOf(column)) {
        if (fold(candidate.value.trim()) === key) return { table, column, value: candidate.value, item: candidate.item }
      }
    }
  }
  return null
}
