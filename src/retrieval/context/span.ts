import { kindsNamedIn } from '../../text/document-kinds.js'
import { type NamedThing, questionNames } from '../../text/names.js'
import { matchPeriods, type PeriodReference, periodReferences } from '../../text/periods.js'
import type { DocumentContextIndex } from './document-context.js'

/** A name of the question and the documents it is the subject (or file, or folder) of. */
export interface NamedSubject {
  readonly name: NamedThing
  readonly documents: readonly string[]
}

/** The documents a question names through their cards: who, when and what kind. */
export interface DocumentSpan {
  /**
   * The documents the question names, as many as it needs: each named subject's documents of the
   * period asked for (all of them for a trend), or the documents of that period when it names no
   * subject. Oldest first when `spread`, else best first; empty when it names nothing a card holds.
   */
  readonly documents: readonly string[]
  /**
   * The question spans several documents: a comparison of named subjects, or a trend over periods
   * (`each quarter`, `over the last three years`, `from 2021 to 2023`). Answers then quote each.
   */
  readonly spread: boolean
  /**
   * How well each candidate document's period fits the question's periods; when it names none, about
   * one subject with documents of several periods, 1 for its latest (and undated) documents.
   */
  readonly periodScores: ReadonlyMap<string, number>
  /** Names matched to documents, in question order. */
  readonly subjects: readonly NamedSubject[]
  /**
   * Names the question gives that no document in scope is about, certain or not (`Globex`, `JnJ`,
   * `USD`): what it asks may not be in the knowledge base at all (the answerer checks the passages).
   */
  readonly unknownNames: readonly NamedThing[]
}

/** The documents without a subject of their own that write a name of the question (mentions.ts). */
export type MentioningDocuments = (name: NamedThing) => readonly string[]

const NO_MENTIONS: MentioningDocuments = () => []

export const EMPTY_SPAN: DocumentSpan = {
  documents: [],
  spread: false,
  periodScores: new Map(),
  subjects: [],
  unknownNames: [],
}

/** Documents whose period fits at least this well (a part of it, matchPeriods' PART) count as the period asked for. */
const MIN_PERIOD_SCORE = 0.5

/** References that ask for several periods: `each quarter`, `the last three years`, `2019 to 2021`. */
function asksForSeveral(references: readonly PeriodReference[]): boolean {
  return references.some(
    (reference) =>
      reference.kind === 'every' ||
      (reference.kind === 'latest' && reference.count > 1) ||
      (reference.kind === 'absolute' && reference.grain === 'span'),
  )
}

/** The documents of `ids` whose period ends last (all of them when none has a period). */
function latestOf(context: DocumentContextIndex, ids: readonly string[]): readonly string[] {
  const end = (id: string) => context.period(id)?.end ?? ''
  const last = ids.reduce((latest, id) => (end(id) > latest ? end(id) : latest), '')
  return last === '' ? ids : ids.filter((id) => end(id) === last)
}

/**
 * What a question names of the documents in scope (null: every searchable document), read from
 * their cards and paths: the subjects it names (its names matched against the documents' subjects,
 * file names and folders), the periods it names resolved against those subjects' documents (`the
 * most recent quarter` of that company), and the kinds it names as a preference. A subject's
 * documents also include those without a subject of their own that write its name (`mentioning`,
 * mentions.ts). A pure function of the context index, the question and those mentions, so every
 * store and process finds the same span.
 */
export function documentSpan(
  context: DocumentContextIndex,
  question: string,
  language: string,
  scope: readonly string[] | null,
  mentioning: MentioningDocuments = NO_MENTIONS,
): DocumentSpan {
  if (context.size === 0) return EMPTY_SPAN
  const subjects: NamedSubject[] = []
  const unknownNames: NamedThing[] = []
  for (const name of questionNames(question, language)) {
    const documents = context.documentsNamed(name.terms, scope)
    if (documents.length > 0) subjects.push({ name, documents: [...new Set([...documents, ...mentioning(name)])] })
    else unknownNames.push(name)
  }
  const periods = periodReferences(question)
  const kinds = kindsNamedIn(question, language)
  // Documents of a subject or period that also are of a kind the question names, when some are.
  const ofKind = (ids: readonly string[]): readonly string[] => {
    if (kinds.length === 0) return ids
    const kept = ids.filter((id) => {
      const kind = context.record(id)?.card?.kind
      return kind !== null && kind !== undefined && (kinds as readonly string[]).includes(kind)
    })
    return kept.length > 0 ? kept : ids
  }
  const periodScores = new Map<string, number>()
  // Relative periods are resolved within each subject's documents: Globex's latest quarter.
  // A question about someone no document is about is not about every document of its period.
  const aboutOthers = subjects.length === 0 && unknownNames.some((name) => name.certain)
  const groups =
    subjects.length > 0
      ? subjects.map((subject) => ofKind(subject.documents))
      : aboutOthers
        ? []
        : [ofKind(scope ?? context.records().map((record) => record.documentId))]
  const chosen: string[] = []
  const comparison = new Set(subjects.map((subject) => subject.documents.join())).size > 1
  for (const group of groups) {
    if (periods.length === 0) {
      // Subjects compared with no period said: each one's latest document, not all of their history.
      if (comparison) chosen.push(...latestOf(context, group))
      else if (subjects.length > 0) {
        // One subject with no period said: its latest documents first, as people mean its current
        // state; its documents without a period are not older for it.
        const current = new Set([...latestOf(context, group), ...group.filter((id) => !context.period(id))])
        if (current.size < group.length) for (const id of current) periodScores.set(id, 1)
        chosen.push(...current, ...group.filter((id) => !current.has(id)))
      }
      continue
    }
    const scores = matchPeriods(
      periods,
      group.map((id) => ({ id, period: context.period(id) })),
    )
    for (const { id, score } of scores) if (score > 0) periodScores.set(id, Math.max(periodScores.get(id) ?? 0, score))
    const best = Math.max(0, ...scores.map((entry) => entry.score))
    if (best < MIN_PERIOD_SCORE) continue
    // Every document of the period asked for, or of a part of it: for `fiscal 2023`, the annual
    // report and the quarterly reports and releases within that year (the figure may be in any).
    chosen.push(
      ...scores
        .filter((entry) => entry.score >= MIN_PERIOD_SCORE)
        .sort((a, b) => b.score - a.score)
        .map((entry) => entry.id),
    )
  }
  const documents = [...new Set(chosen)]
  const spread = documents.length > 1 && (comparison || asksForSeveral(periods))
  if (spread) {
    // Oldest period first; within a period, the subjects in the question's order.
    const end = (id: string) => context.period(id)?.end ?? ''
    const named = (id: string) => subjects.findIndex((subject) => subject.documents.includes(id))
    documents.sort((a, b) => (end(a) < end(b) ? -1 : end(a) > end(b) ? 1 : named(a) - named(b) || (a < b ? -1 : 1)))
  }
  return { documents, spread, periodScores, subjects, unknownNames }
}
