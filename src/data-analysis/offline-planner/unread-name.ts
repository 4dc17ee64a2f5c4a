import type { Grounding } from './grounding/grounding.js'
import type { Intent } from './intent.js'
import { WORDLIKE_VALUES } from './lexicon/vague-words.js'
import { type Declined, declined } from './recognition.js'
import { isRead, isStopWord, tableNameWords } from './unread-words.js'

/**
 * "How many complaints were made in **Queens**?": a word written with a capital inside a sentence
 * is a name, and a name is a value of some column. When no column, value or cue took it, the plan
 * would count or rank the rows as if it had not been said. Said only where the values of the
 * table's text columns are known (a table read from its schema alone knows none). Not names: the
 * first word of a sentence, acronyms (`GDP`, a measure as often as a value), words of the table's
 * own name (`IBM` in `IBM_HR`), and statistics, which name their methods (Pearson, Shapiro, SciPy).
 */
export function unreadName(g: Grounding, intent: Intent): Declined | null {
  if (intent.shape.kind === 'statistics') return null
  const text = g.table.columns.filter((c) => c.type === 'text')
  if (text.every((c) => c.topValues.length === 0)) return null
  const ownName = tableNameWords(g)
  const name = g.tokens.find(
    (t) =>
      t.capitalized &&
      !t.sentenceStart &&
      !t.acronym &&
      /^\p{L}{2,}$/u.test(t.text) &&
      !isStopWord(t.text) &&
      !WORDLIKE_VALUES.has(t.text) &&
      !ownName.has(t.text) &&
      !isRead(g, t.index),
  )
  if (!name) return null
  return declined(`"${name.text}" reads as a name, but it is neither a value seen in the table nor a column`)
}
