import { languageResources } from '../../text/languages.js'
import type { TableSchema } from '../types.js'
import type { Grounding } from './grounding/grounding.js'
import { splitHeader, words } from './tokenise.js'

/** English and French stop words, folded: words that name nothing in a table. */
const STOP_WORDS = [languageResources('en').stopwords, languageResources('fr').stopwords]

export const isStopWord = (text: string): boolean => STOP_WORDS.some((stop) => stop.has(text))

/** Whether a cue, a column or value mention, or a quote took the question's token at `at`. */
export function isRead(g: Grounding, at: number, withColumns = true): boolean {
  const inside = (span: { start: number; end: number }) => span.start <= at && at <= span.end
  return (
    g.cues.used.has(at) ||
    (withColumns && g.mentions.some(inside)) ||
    g.valueMentions.some(inside) ||
    g.cues.quoted.some(inside)
  )
}

/** The words of the table's own name (`066_IBM_HR.csv` → ibm, hr): the dataset, not a condition on it. */
export function tableNameWords(g: Pick<Grounding, 'table'> | TableSchema): ReadonlySet<string> {
  const table = 'table' in g ? g.table : g
  return new Set(words(splitHeader(table.filename.replace(/\.[^.]+$/, ''))))
}

/** The question's words from `start` to `end`, as said (folded). */
export const spanWords = (g: Grounding, start: number, end: number): string =>
  g.tokens
    .slice(start, end + 1)
    .map((t) => t.text)
    .join(' ')
