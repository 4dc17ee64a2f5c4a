import { isRowLine } from '../../ingestion/chunking/tables.js'
import type { RetrievedChunk } from '../../retrieval/types.js'
import { termsAndPairs } from '../../text/pairs.js'
import { sentenceSegments } from '../../text/segments.js'

/** What the offline answerer may quote from a chunk: a sentence, or a table row under its head. */
export interface Passage {
  /** The sentence or the row, as written (cells joined by ` | `). */
  readonly text: string
  /**
   * For a row, the lines that make it readable alone: its table's title and unit, and its header
   * row (`| Three Months Ended July 2, 2023 | …`); empty for a sentence.
   */
  readonly head: string
  /** Its own terms. */
  readonly terms: ReadonlySet<string>
  /** The terms of its head and of the section label above it (empty for a sentence). */
  readonly headTerms: ReadonlySet<string>
  /** Pairs of adjacent words (stop words between them allowed), its own and its head's: `total current`. */
  readonly pairs: ReadonlySet<string>
}

const sentenceSegmenter = new Intl.Segmenter(undefined, { granularity: 'sentence' })
/** Citation markers inside document text would be mistaken for ours. */
const CITATION = /\[\d+\]/g
/** Fewer terms than this is a fragment (a page number, a lone label), not something to quote. */
const MIN_PASSAGE_TERMS = 2

function clean(text: string): string {
  return text.replace(CITATION, '').replace(/\s+/g, ' ').trim()
}

/** Lines split into sentences; the heading trail prose chunks may start with is context, not an answer. */
function sentencesOf(lines: readonly string[]): string[] {
  const rest = lines.length > 1 && lines[0]?.includes(' > ') ? lines.slice(1) : lines
  const sentences: string[] = []
  for (const line of rest) {
    for (const { segment } of sentenceSegments(sentenceSegmenter, line)) {
      const sentence = clean(segment)
      if (sentence !== '') sentences.push(sentence)
    }
  }
  return sentences
}

/**
 * The rows of a table chunk with the head that makes each readable alone. A table chunk starts
 * with its context lines (heading path, title and unit) and its header row, then its rows
 * (src/ingestion/chunking/tables.ts): the header row is the first line of cells. A line without
 * cells after it is a section label (`Cash flows from operating activities:`) or the first line of
 * a label that wraps: it gives no figure, so it is not quoted, but the rows after it are read with
 * it (`section`): `Total` under `Current liabilities:` is the current liabilities' total.
 */
function rowsOf(lines: readonly string[]): Array<{ head: string; row: string; section: string }> {
  const first = lines.findIndex(isRowLine)
  if (first < 0) return []
  // The heading path repeats the document's running header; the title and unit line says more.
  const context = lines.slice(0, first).filter((line) => line.trim() !== '')
  const title = context.length > 1 ? context.slice(1) : context
  const head = [...title, lines[first] as string].map(clean).join('\n')
  const rows: Array<{ head: string; row: string; section: string }> = []
  let section = ''
  for (const line of lines.slice(first + 1)) {
    const row = clean(line)
    if (row === '' || row.replaceAll('|', '').trim() === '') continue
    if (isRowLine(row)) rows.push({ head, row, section })
    else section = row
  }
  return rows
}

/** The quotable passages of a chunk in `language`, in chunk order. */
export function passagesOf(chunk: RetrievedChunk, language: string): Passage[] {
  const lines = chunk.text.split(/\n+/)
  if (chunk.metadata.category === 'table') {
    const rows = rowsOf(lines)
    if (rows.length > 0) {
      const contexts = new Map<string, { terms: ReadonlySet<string>; pairs: ReadonlySet<string> }>()
      return rows.flatMap(({ head, row, section }) => {
        const { terms, pairs } = termsAndPairs(row, language)
        if (terms.size < MIN_PASSAGE_TERMS) return []
        const key = `${head}\n${section}`
        let known = contexts.get(key)
        if (!known) {
          known = termsAndPairs(key, language)
          contexts.set(key, known)
        }
        for (const pair of known.pairs) pairs.add(pair)
        return [{ text: row, head, terms, headTerms: known.terms, pairs }]
      })
    }
  }
  const none: ReadonlySet<string> = new Set()
  return sentencesOf(lines).flatMap((text) => {
    const { terms, pairs } = termsAndPairs(text, language)
    if (terms.size < MIN_PASSAGE_TERMS + 1) return []
    return [{ text, head: '', terms, headTerms: none, pairs }]
  })
}
