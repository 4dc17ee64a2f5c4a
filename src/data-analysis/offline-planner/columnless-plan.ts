import type { Grounding } from './grounding/grounding.js'
import type { Intent } from './intent.js'
import { intentColumns } from './intent-columns.js'
import { WHOLE_TABLE_WORDS } from './lexicon/statistics.js'
import { FILLERS, GENERIC_WORDS } from './lexicon/vague-words.js'
import { type Declined, declined } from './recognition.js'
import { isRead, isStopWord, tableNameWords } from './unread-words.js'

/** Words that name the table or its rows themselves ("in the dataset", "how many records"), English and French, folded. */
const TABLE_WORDS = new Set([
  ...WHOLE_TABLE_WORDS,
  'datasets',
  'tables',
  'row',
  'rows',
  'record',
  'records',
  'entry',
  'entries',
  'line',
  'lines',
  'total',
  'unique',
  'different',
  'distinct',
  'exactly',
  'donnees',
  'ligne',
  'lignes',
  'enregistrement',
  'enregistrements',
  'entree',
  'entrees',
  'differents',
  'differentes',
  'uniques',
])

/** Verbs a question asks with about the table as a whole ("does the dataset contain …", "listed"). */
const TABLE_VERBS = new Set([
  'does',
  'did',
  'contain',
  'contains',
  'include',
  'includes',
  'hold',
  'holds',
  'has',
  'have',
  'listed',
  'recorded',
  'present',
  'represented',
  'exist',
  'exists',
  'contient',
  'contiennent',
  'compte',
  'existe',
  'existent',
])

/** A word that may name something: not a stop word, a vague word, a number or punctuation. */
export function isContentWord(text: string): boolean {
  if (text.length < 3 || !/^\p{L}+$/u.test(text)) return false
  return (
    !FILLERS.has(text) &&
    !GENERIC_WORDS.has(text) &&
    !TABLE_WORDS.has(text) &&
    !TABLE_VERBS.has(text) &&
    !isStopWord(text)
  )
}

/**
 * "How many entries were posted **in the morning**?" planned as the number of rows: a plan that
 * reads no column answers the same whatever the question says beyond its counted noun. When more
 * words than that one noun (and the table's own name) are left that nothing read, one of them is
 * a condition the planner could not map, and the count would be of every row. A plan over named
 * columns is not judged here: its unread words are often a paraphrase of what it reads.
 */
export function columnlessPlan(g: Grounding, intent: Intent): Declined | null {
  if (intentColumns(intent).length > 0) return null
  const ownName = tableNameWords(g)
  // a column the question names and the plan does not read is unread too ("titles with more than 100 characters")
  const unread = g.tokens.filter((t) => isContentWord(t.text) && !ownName.has(t.text) && !isRead(g, t.index, false))
  if (unread.length <= 1) return null
  const said = unread.map((t) => `"${t.text}"`).join(', ')
  return declined(`the plan reads no column, but the question also says ${said}, which could not be mapped`)
}
