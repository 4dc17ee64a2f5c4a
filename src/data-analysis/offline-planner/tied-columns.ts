import type { ColumnSchema } from '../types.js'
import type { Grounding } from './grounding/grounding.js'
import type { Intent } from './intent.js'
import { intentColumns } from './intent-columns.js'
import { GENERIC_WORDS } from './lexicon/vague-words.js'
import { type Declined, declined } from './recognition.js'
import { ordinalValue, splitHeader, stemsOf, words } from './tokenise.js'
import { spanWords } from './unread-words.js'

/** Prepositions that end a header's head: `YearsInCurrentRole` is years, qualified by "in current role". */
const PREPOSITIONS = new Set(['in', 'of', 'at', 'per', 'for', 'by', 'on', 'to', 'with', 'from', 'since'])

/** The noun a header is about: its last plain word before a preposition (`JobRole` → role, `YearsInCurrentRole` → years). */
function headOf(column: ColumnSchema): string | null {
  const all = words(splitHeader(column.name))
  const cut = all.findIndex((word, i) => i > 0 && PREPOSITIONS.has(word))
  const before = cut > 0 ? all.slice(0, cut) : all
  return before.filter((word) => /^\p{L}+$/u.test(word) && !GENERIC_WORDS.has(word)).at(-1) ?? null
}

/** Whether the mention's words say the header's head noun. */
function saysHead(g: Grounding, start: number, end: number, column: ColumnSchema): boolean {
  const head = headOf(column)
  if (!head) return false
  const headStems = new Set(stemsOf(head))
  return g.tokens.slice(start, end + 1).some((t) => t.stems.some((stem) => headStems.has(stem)))
}

/**
 * "the 2 highest start values" names `start_fee` and `start_hour` by "start" alone, exactly as
 * well: the shorter header wins the tie, a coin toss. When neither header is said whole, nothing
 * in the question chooses, so the planner declines and names both. A header said whole beside a
 * longer one that shares its word ("price" for `price` and `price_usd`) is no tie: the mention
 * covers all of its own header. Nor is a word that is one header's head noun and only qualifies
 * the other's ("role": `JobRole`, `YearsInCurrentRole`), nor one an ordinal numbers as the chosen
 * header alone ("the first tier": `Tier 1`; a plan that chose `Tier 1` for "the second tier" still
 * declines).
 */
export function tiedColumns(g: Grounding, intent: Intent): Declined | null {
  const used = new Set(intentColumns(intent))
  const tied = g.mentions.find(
    (m) => m.start >= 0 && m.coverage < 1 && (m.ties?.length ?? 0) > 0 && used.has(m.column.name),
  )
  const other = tied?.ties?.[0]
  if (!tied || !other) return null
  // "the most common role": `JobRole` is a role, `YearsInCurrentRole` a number of years
  const headSaid = (column: ColumnSchema) => saysHead(g, tied.start, tied.end, column)
  if (headSaid(tied.column) && !(tied.ties ?? []).some(headSaid)) return null
  // "the first tier": `Tier 1`, not `Tier 2`
  const ordinal = ordinalValue(g.tokens[tied.start - 1]?.text ?? '')
  const numbered = (column: ColumnSchema) =>
    ordinal !== null && words(splitHeader(column.name)).includes(String(ordinal))
  if (numbered(tied.column) && !(tied.ties ?? []).some(numbered)) return null
  return declined(
    `"${spanWords(g, tied.start, tied.end)}" names "${tied.column.name}" and "${other.name}" equally, and says neither whole`,
  )
}
