import { escapeRegex } from '../../lib/regex.js'
import type { ColumnSchema } from '../types.js'
import { isNumeric } from './columns.js'

/**
 * "the percentages of graduates in the fields of Computer Science, Engineering, Math and
 * Statistics, and Physical Sciences": a list of numeric columns by their exact names, where a name
 * may hold "and" itself (`Math and Statistics`), so the list is read by the names, longest first,
 * not split at every "and". Before the first name only a description ending in "of" may stand;
 * between names only commas and "and". Anything else (a word no name holds, a number) and no list
 * is read: null.
 */
export function listedColumns(phrase: string, columns: readonly ColumnSchema[]): ColumnSchema[] | null {
  const text = phrase.trim()
  const found: Array<{ column: ColumnSchema; start: number; end: number }> = []
  const byLength = [...columns].filter(isNumeric).sort((a, b) => b.name.length - a.name.length)
  for (const column of byLength) {
    const pattern = new RegExp(`(?<![\\p{L}\\p{N}_])${escapeRegex(column.name)}(?![\\p{L}\\p{N}_])`, 'giu')
    for (const m of text.matchAll(pattern)) {
      const start = m.index ?? 0
      const end = start + m[0].length
      if (!found.some((f) => start < f.end && f.start < end)) found.push({ column, start, end })
    }
  }
  if (found.length < 2) return null
  found.sort((a, b) => a.start - b.start)
  const [first] = found
  if (!first) return null
  const preamble = text.slice(0, first.start).trim()
  if (preamble !== '' && (!/\bof$/i.test(preamble) || /\d/.test(preamble))) return null
  for (const [i, item] of found.entries()) {
    const next = found[i + 1]
    const between = text.slice(item.end, next ? next.start : text.length).trim()
    const separator = next ? /^(?:,|,?\s*and|,?\s*the)*$/i : /^(?:columns?)?$/i
    if (!separator.test(between.replace(/\s+/g, ' ').replace(/\s*,\s*/g, ','))) return null
  }
  return found.map((f) => f.column)
}
