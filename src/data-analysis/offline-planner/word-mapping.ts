import type { WordMapping } from '../types.js'
import type { Grounding } from './grounding/grounding.js'
import type { Intent } from './intent.js'
import { intentColumns } from './intent-columns.js'

/**
 * The question's words read as the columns and values the intent uses, in question order: what
 * an answer shows so that a reader can check the planner understood ("late" → status = 'late').
 * Mentions of columns the intent does not use are left out; so are columns it uses without a word
 * naming them (the entity column of a "who" question).
 */
export function wordMapping(g: Grounding, intent: Intent): WordMapping[] {
  const used = new Set(intentColumns(intent))
  const words = (start: number, end: number) =>
    g.tokens
      .slice(start, end + 1)
      .map((token) => token.text)
      .join(' ')
  const found: (WordMapping & { readonly at: number })[] = []
  for (const m of g.mentions) {
    if (used.has(m.column.name) && m.start >= 0)
      found.push({ at: m.start, words: words(m.start, m.end), column: m.column.name, value: null })
  }
  for (const v of g.valueMentions) {
    if (used.has(v.column.name))
      found.push({ at: v.start, words: words(v.start, v.end), column: v.column.name, value: v.value })
  }
  const seen = new Set<string>()
  return found
    .sort((a, b) => a.at - b.at)
    .filter((m) => {
      const key = `${m.words}\u0000${m.column}\u0000${m.value}`
      if (seen.has(key)) return false
      seen.add(key)
      return true
    })
    .map(({ words: w, column, value }) => ({ words: w, column, value }))
}
