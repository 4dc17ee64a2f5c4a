import type { DocumentContextRecord } from '../../storage/ports/search.js'
import { analyze, analyzeTokens } from '../../text/analysis.js'
import { foldWord } from '../../text/folding.js'
import { LEGAL_FORM_WORDS } from '../../text/legal-forms.js'

/** Where a context term comes from; a term in several fields counts once, with its best weight. */
export type ContextField = 'subject' | 'name' | 'kind'

/**
 * How much a match in each field says about the document. Who it is about and what its file or
 * folder is called identify it; a kind also describes documents of other subjects. A title is no
 * part of the context: it is the first line of the document's text, so its words are in its chunks
 * already, and counting them again ranked titles over abstracts (CACM nDCG@10 0.43 → 0.37 in process).
 */
export const FIELD_WEIGHTS: Readonly<Record<ContextField, number>> = { subject: 1, name: 1, kind: 0.5 }

/** Longest name whose words are also indexed joined (`Foot Locker` → `footlocker`): people write names both ways. */
const MAX_JOINED_WORDS = 3

/** The terms of a subject: its words without legal forms, and those words joined when they are a short name. */
function subjectTerms(subject: string, language: string): string[] {
  const tokens = analyzeTokens(subject, language).filter((token) => !LEGAL_FORM_WORDS.has(foldWord(token.surface)))
  const terms = tokens.map((token) => token.term)
  const words = [...new Set(tokens.map((token) => token.position))].map(
    (position) => tokens.find((token) => token.position === position)?.surface ?? '',
  )
  if (words.length >= 2 && words.length <= MAX_JOINED_WORDS) terms.push(...analyze(words.join(''), language))
  return terms
}

/** A file name or folder path as words: extension dropped, separators as spaces. */
export function pathWords(objectName: string): { filename: string; folders: string } {
  const cut = objectName.lastIndexOf('/')
  const filename = objectName
    .slice(cut + 1)
    .replace(/\.[A-Za-z0-9]{1,5}$/, '')
    .replace(/[_\-.+]+/g, ' ')
  const folders = objectName
    .slice(0, cut + 1)
    .split('/')
    .join(' ')
  return { filename, folders }
}

/** Fields that say which document it is (who it is about, what its file or folder is called). */
export const IDENTIFYING_FIELDS: ReadonlySet<ContextField> = new Set(['subject', 'name'])

/**
 * The context terms of a document with the field that weighs most among those holding each: its
 * card's subjects and kind, its file name and folders, analysed in the document's language.
 */
export function contextTerms(record: DocumentContextRecord): Map<string, ContextField> {
  const terms = new Map<string, ContextField>()
  const add = (field: ContextField, list: readonly string[]) => {
    for (const term of list) {
      const known = terms.get(term)
      if (!known || FIELD_WEIGHTS[field] > FIELD_WEIGHTS[known]) terms.set(term, field)
    }
  }
  const { language, card } = record
  const { filename, folders } = pathWords(record.objectName)
  // Numbers in paths are counters and codes (`CACM-60.txt`, `filing-017.pdf`) more often than
  // anything a question names; a period in a name is read into the card's period instead.
  add(
    'name',
    analyze(`${filename}\n${folders}`, language).filter((term) => !/^\p{N}+$/u.test(term)),
  )
  if (card) {
    for (const subject of card.subjects) add('subject', subjectTerms(subject, language))
    if (card.kind) add('kind', analyze(card.kind, language))
  }
  return terms
}
