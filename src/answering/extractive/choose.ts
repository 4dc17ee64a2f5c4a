import type { DocumentSpan } from '../../retrieval/context/span.js'
import type { RetrievedChunk } from '../../retrieval/types.js'
import type { Candidate } from './candidate.js'
import type { ExtractiveOptions } from './options.js'
import type { Passage } from './passages.js'

function overlap(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size === 0 || b.size === 0) return 0
  let shared = 0
  for (const term of a) if (b.has(term)) shared++
  return shared / Math.min(a.size, b.size)
}

/** Most other sources cited beside one quote for writing the same passage. */
const MAX_ALSO_IN = 2

/** The same words and figures, in any layout (`$66,608` and `66,608` analyse alike). */
function samePassage(a: Candidate, b: Candidate): boolean {
  const x = a.passage.terms
  const y = b.passage.terms
  return x.size === y.size && [...x].every((term) => y.has(term))
}

/**
 * The best passages (`candidates` best first), near-duplicates skipped, far weaker ones (under half
 * the best) left out. A skipped passage that repeats a quoted one word for word on another source
 * is cited beside it instead.
 */
export function bestCandidates(candidates: readonly Candidate[], options: ExtractiveOptions): Candidate[] {
  const best = candidates[0]
  if (!best) return []
  const chosen: Array<{ candidate: Candidate; alsoIn: number[] }> = []
  for (const candidate of candidates) {
    if (candidate.score < best.score * 0.5) break
    const terms = candidate.passage.terms
    const twin = chosen.find((kept) => overlap(kept.candidate.passage.terms, terms) > options.duplicateOverlap)
    if (!twin) {
      // Once the answer is full, what follows may still repeat a quoted passage elsewhere.
      if (chosen.length < options.maxSentences) chosen.push({ candidate, alsoIn: [] })
      continue
    }
    const { source } = candidate
    if (
      samePassage(twin.candidate, candidate) &&
      source !== twin.candidate.source &&
      !twin.alsoIn.includes(source) &&
      twin.alsoIn.length < MAX_ALSO_IN
    )
      twin.alsoIn.push(source)
  }
  return chosen.map(({ candidate, alsoIn }) => (alsoIn.length > 0 ? { ...candidate, alsoIn } : candidate))
}

/**
 * A number that names one amount of a document: four digits or more (`24371`, `1234.5`), not a year
 * or a round count. Shorter ones (`14.8`, `3.75`) recur by chance among a filing's hundreds of pages.
 */
const FIGURE = /^(?=(?:\D*\d){4})\d+(?:\.\d+)?$/
const YEAR_OR_ROUND = /^(?:19\d\d|20\d\d|\d0+)$/

function figuresOf(terms: ReadonlySet<string>): string[] {
  return [...terms].filter((term) => FIGURE.test(term) && !YEAR_OR_ROUND.test(term))
}

/**
 * The quoted passages, each also citing (up to MAX_ALSO_IN in all) the other sources of its
 * document that state one of its figures: a 10-K gives a quarter's net sales in its MD&A and again
 * in its statements, and the reader should see both pages. Only figures that name one amount count
 * (FIGURE): a year or a round `1000` is in every filing.
 */
export function withFigureSources(
  picked: readonly Candidate[],
  sources: readonly RetrievedChunk[],
  passages: readonly (readonly Passage[])[],
): Candidate[] {
  return picked.map((candidate) => {
    const figures = figuresOf(candidate.passage.terms)
    const alsoIn = [...(candidate.alsoIn ?? [])]
    if (figures.length === 0 || alsoIn.length >= MAX_ALSO_IN) return candidate
    const documentId = sources[candidate.source]?.documentId
    sources.forEach((source, index) => {
      if (alsoIn.length >= MAX_ALSO_IN || index === candidate.source || alsoIn.includes(index)) return
      if (source.documentId !== documentId) return
      const states = (passages[index] ?? []).some((passage) => figures.some((figure) => passage.terms.has(figure)))
      if (states) alsoIn.push(index)
    })
    return alsoIn.length > (candidate.alsoIn?.length ?? 0) ? { ...candidate, alsoIn } : candidate
  })
}

/** A row's label, its first cell folded (`total net sales`); undefined for a sentence. */
function rowLabel(candidate: Candidate): string | undefined {
  if (candidate.passage.head === '') return undefined
  const label = candidate.passage.text.split('|')[0]?.trim().toLowerCase()
  return label === '' ? undefined : label
}

/**
 * The row label most of the documents can quote, each by a candidate at least half as good as its
 * own best: a trend reads one line item across the periods. Undefined when no label is shared by
 * two documents.
 */
function sharedLabel(perDocument: readonly (readonly Candidate[])[]): string | undefined {
  const votes = new Map<string, { documents: number; score: number }>()
  for (const candidates of perDocument) {
    const best = candidates[0]
    if (!best) continue
    const labels = new Map<string, number>()
    for (const candidate of candidates) {
      const label = rowLabel(candidate)
      if (label !== undefined && candidate.score >= best.score * 0.5 && !labels.has(label))
        labels.set(label, candidate.score)
    }
    for (const [label, score] of labels) {
      const vote = votes.get(label) ?? { documents: 0, score: 0 }
      votes.set(label, { documents: vote.documents + 1, score: vote.score + score })
    }
  }
  let chosen: string | undefined
  let top = { documents: 1, score: 0 }
  for (const [label, vote] of votes) {
    if (vote.documents > top.documents || (vote.documents === top.documents && vote.score > top.score)) {
      chosen = label
      top = vote
    }
  }
  return chosen
}

/**
 * One passage per document of a span over several documents, in the span's order; undefined when
 * the question spans one document, or fewer than two of its documents have a passage to quote.
 * Where most documents can quote the same row (`Total net sales`), each that can quotes it, so the
 * periods are compared line for line rather than each by whatever row ranked first in it.
 */
export function spreadCandidates(
  candidates: readonly Candidate[],
  sources: readonly RetrievedChunk[],
  span: DocumentSpan | undefined,
  maxSpread: number,
): Candidate[] | undefined {
  if (!span?.spread) return undefined
  const perDocument = span.documents
    .map((documentId) => candidates.filter((candidate) => sources[candidate.source]?.documentId === documentId))
    .filter((list) => list.length > 0)
    .slice(0, maxSpread)
  if (perDocument.length < 2) return undefined
  const label = sharedLabel(perDocument)
  return perDocument.map((list) => {
    const best = list[0] as Candidate
    const same = label === undefined ? undefined : list.find((candidate) => rowLabel(candidate) === label)
    return same && same.score >= best.score * 0.5 ? same : best
  })
}
