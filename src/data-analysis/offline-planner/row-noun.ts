import type { ColumnSchema, TableSchema } from '../types.js'
import { entityColumn, isIdLike } from './column-traits.js'
import { isNumeric } from './columns.js'
import type { Superlative } from './cues/types.js'
import type { Grounding } from './grounding/grounding.js'
import { ENTITY_HEADER, ID_HEADER } from './lexicon/headers.js'
import { ROW_COUNT_NOUNS } from './lexicon/limits.js'
import { WHICH_GAP_WORDS } from './lexicon/question-forms.js'
import { QUANTITY_SUPERLATIVES, ROW_RELATIVE_WORDS } from './lexicon/superlatives.js'
import { FILLERS } from './lexicon/vague-words.js'
import { fold, singularOf, splitHeader } from './tokenise.js'
import { isRead, isStopWord, tableNameWords } from './unread-words.js'

/** Verbs between a row noun and its superlative ("which Pokémon has the lowest …"). */
const HAVING_VERBS = new Set(['has', 'have', 'had', 'is', 'are', 'was', 'were', 'ont'])

/**
 * "which Pokémon", "the Pokémon with the highest …" over `051_Pokemon.csv`: a word of the table's
 * own name that no column, value or cue took names the table's rows, and a row is answered by
 * its name column. Only the table's name is trusted: another unread noun may be a column the
 * table lacks, and answering it with the name column would be a guess.
 */
export function namesTableRows(g: Grounding, at: number): boolean {
  const token = g.tokens[at]
  if (!token || token.number !== null || isRead(g, at)) return false
  return isTableRowWord(g.table, token.text)
}

/** A word of the table's own name, singular or plural (`051_Pokemon.csv`: "pokemon"). */
export function isTableRowWord(table: TableSchema, text: string): boolean {
  if (text.length < 3) return false
  const own = [...tableNameWords(table)].filter((word) => word.length >= 3 && !/\d/.test(word))
  return own.some((word) => word === text || singularOf(word) === singularOf(text))
}

/** "which Pokémon …", "which 5 Pokémon …": the noun after "which" names the table's rows. */
export function whichNamesRows(g: Grounding): boolean {
  if (g.whichIndex < 0 || g.whichNoun) return false
  return namesTableRows(g, whichNounIndex(g))
}

/**
 * "Which 5 dragons have the lowest speed?": "which" asks after a noun that nothing read (not the
 * table's own name, not a column), so the ranked numbers would not say which ones. "Which are the
 * three lowest scores?" asks for the numbers. The noun, or null.
 */
export function whichNounUnread(g: Grounding): string | null {
  if (g.whichIndex < 0 || g.whichNoun) return null
  // right after "which" (or its limit): "what is the current record …" asks after no noun
  const limitAfter = g.tokens[g.whichIndex + 1]?.number !== null && g.cues.used.has(g.whichIndex + 1)
  const at = g.whichIndex + (limitAfter ? 2 : 1)
  const token = g.tokens[at]
  if (!token || !/^\p{L}+$/u.test(token.text) || isStopWord(token.text)) return null
  return !WHICH_GAP_WORDS.has(token.text) && !FILLERS.has(token.text) && !isRead(g, at) ? token.text : null
}

/** The token after "which", past the limit ("which 5 …") and gap words ("which is the …"). */
function whichNounIndex(g: Grounding): number {
  let at = g.whichIndex + 1
  // the limit ("which 5 …") and gap words ("which is the …") sit between "which" and its noun
  while (at < g.tokens.length) {
    const text = g.tokens[at]?.text ?? ''
    if (!(g.cues.used.has(at) && g.tokens[at]?.number !== null) && !WHICH_GAP_WORDS.has(text) && !FILLERS.has(text))
      break
    at++
  }
  return at
}

/**
 * "the type of the Pokémon with the highest defense", "which Pokémon has the lowest speed": the
 * superlative ranks the table's own rows, one by one (not a category's total).
 */
export function rowNounRanked(g: Grounding, superlativeIndex: number): boolean {
  for (let at = superlativeIndex - 1; at >= 0; at--) {
    if (namesTableRows(g, at)) return true
    const text = g.tokens[at]?.text ?? ''
    if (!FILLERS.has(text) && !ROW_RELATIVE_WORDS.has(text) && !HAVING_VERBS.has(text) && !g.cues.used.has(at))
      return false
  }
  return false
}

/**
 * "the most orders", "the most entries", "the most Pokémon": a quantity superlative before a word
 * for the rows (a row noun, the table's own name, or an identifier said without its "id") ranks
 * by a number of rows.
 */
export function ranksByRowCount(g: Grounding, superlative: Superlative): boolean {
  if (superlative.mode || !QUANTITY_SUPERLATIVES.has(g.tokens[superlative.index]?.text ?? '')) return false
  const at = superlative.index + 1
  const text = g.tokens[at]?.text ?? ''
  const mention = g.mentions.find((m) => m.start === at)
  if (mention) {
    const said = g.tokens.slice(mention.start, mention.end + 1).map((t) => t.text)
    return isIdLike(mention.column) && !ID_HEADER.test(said.join(' '))
  }
  return ROW_COUNT_NOUNS.has(text) || isTableRowWord(g.table, text)
}

/**
 * "List the top 2 cities with the most orders": the groups ranked by their rows are the one text
 * column named before the superlative (an opening "Name the …" is the instruction, not a column).
 */
export function groupRankedByRows(g: Grounding, superlative: Superlative): ColumnSchema | null {
  if (!ranksByRowCount(g, superlative)) return null
  const named = g.subjects.filter(
    (m) => m.end < superlative.index && !isNumeric(m.column) && !isIdLike(m.column) && !(m.start === 0 && g.cues.list),
  )
  return named.length === 1 ? (named[0]?.column ?? null) : null
}

/**
 * The column that names each of the table's rows: a name-like header ("name", "title") whose
 * values are (almost) all different. A repeated or unnamed text column would answer with a
 * category, not the row, so there is none then.
 */
export function rowNameColumn(table: TableSchema): ColumnSchema | null {
  const named = entityColumn(table)
  if (!named || !ENTITY_HEADER.test(fold(splitHeader(named.name)))) return null
  return named.distinctCount >= table.rowCount * 0.9 ? named : null
}
