import type { TableSchema } from '../../types.js'
import { type ColumnMention, findColumnMentions } from '../columns.js'
import type { Cues, QuotedSpan } from '../cues/types.js'
import { fold, splitHeader, stemsOf, words } from '../tokenise.js'
import { findQuotedValue, findValueMentions, type ValueMention } from '../values.js'

/** The columns and cell values the question names, in all the tables, before one table is chosen. */
export interface Mentions {
  /** In question order. */
  readonly columns: readonly ColumnMention[]
  readonly values: readonly ValueMention[]
  /** Quoted text that is neither a header nor a seen value: searched in a text column. */
  readonly searched: readonly QuotedSpan[]
}

/** Values come first when they cover more of the question than a column mention at the same place. */
function resolveOverlaps(
  columns: readonly ColumnMention[],
  values: readonly ValueMention[],
): { columns: ColumnMention[]; values: ValueMention[] } {
  const keptValues: ValueMention[] = []
  const droppedColumns = new Set<ColumnMention>()
  for (const value of values) {
    const overlapping = columns.filter((c) => c.start <= value.end && value.start <= c.end)
    const valueLength = value.end - value.start + 1
    const beats = overlapping.every(
      (c) => valueLength > c.end - c.start + 1 || (valueLength === c.end - c.start + 1 && c.coverage < 1),
    )
    if (!beats) continue
    for (const c of overlapping) droppedColumns.add(c)
    keptValues.push(value)
  }
  return { columns: columns.filter((c) => !droppedColumns.has(c)), values: keptValues }
}

/** The header a quoted text names ('Weight Class'), written alike or stemmed alike. */
function quotedHeader(quote: QuotedSpan, tables: readonly TableSchema[]): ColumnMention | null {
  const quotedStems = words(quote.text).map((word) => stemsOf(word)[1] ?? word)
  const header = tables
    .flatMap((table) => table.columns.map((column) => ({ table, column })))
    .find(({ column }) => {
      if (fold(column.name) === fold(quote.text)) return true
      const headerStems = words(splitHeader(column.name)).map((word) => stemsOf(word)[1] ?? word)
      return headerStems.length === quotedStems.length && headerStems.every((stem, i) => stem === quotedStems[i])
    })
  return header ? { ...header, start: quote.start, end: quote.end, strength: 9, coverage: 1 } : null
}

/** The question's column and value words, on the tokens the cues did not take. */
export function findMentions(cues: Cues, tables: readonly TableSchema[]): Mentions {
  const blocked = new Set<number>(cues.used)
  for (const quote of cues.quoted) for (let i = quote.start; i <= quote.end; i++) blocked.add(i)
  const named = findColumnMentions(cues.tokens, tables, blocked)
  const valueMentions = findValueMentions(cues.tokens, tables, blocked, new Set(named.map((m) => m.column)))
  const resolved = resolveOverlaps(named, valueMentions)
  const columns = resolved.columns
  const values = resolved.values
  // a quoted text is a header, else a seen value ('Hacendado'), else text searched in the nearest text column
  const searched: QuotedSpan[] = []
  for (const quote of cues.quoted) {
    const header = quotedHeader(quote, tables)
    if (header) {
      columns.push(header)
      continue
    }
    const seen = findQuotedValue(quote.text, tables)
    if (seen) {
      values.push({ ...seen, start: quote.start, end: quote.end })
      continue
    }
    searched.push(quote)
  }
  columns.sort((a, b) => a.start - b.start)
  return { columns, values, searched }
}
