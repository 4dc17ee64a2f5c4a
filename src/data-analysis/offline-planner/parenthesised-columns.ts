import { escapeRegex } from '../../lib/regex.js'
import type { TableSchema } from '../types.js'

/**
 * A column named in parentheses after the words that describe it ("the mean of the maximum
 * temperature (TMAX_F)", "each passenger class ('Pclass')"): the description is the column's, not
 * the question's cues ("maximum" is no superlative there), so it is replaced by the column's name,
 * quoted. Only an exact header (quotes and case aside) in the parentheses, and a description of at
 * most four plain words after a determiner: a relative clause or a preposition inside ("the
 * passengers who survived (Survived)") says more than a name, and the text is left as it is.
 */

const DETERMINERS = 'the|a|an|its|their|each|every'
const DESCRIPTION_WORDS = String.raw`(?:(?!(?:who|which|that|with|of|in|for|by|and|or|to|from|on|at|between|than|per)\b)[\p{L}\p{N}-]+\s+){1,4}`

export function nameParenthesisedColumns(question: string, tables: readonly TableSchema[]): string {
  let text = question
  const names = [...new Set(tables.flatMap((table) => table.columns.map((column) => column.name)))]
  // Longer names first, so that "Close Price" is not read as "Close".
  for (const name of names.sort((a, b) => b.length - a.length)) {
    const pattern = new RegExp(
      String.raw`\b(${DETERMINERS})\s+${DESCRIPTION_WORDS}\(\s*["'‘“]?${escapeRegex(name)}["'’”]?\s*\)`,
      'giu',
    )
    text = text.replace(pattern, (_, determiner: string) => `${determiner} "${name}"`)
  }
  return text
}
