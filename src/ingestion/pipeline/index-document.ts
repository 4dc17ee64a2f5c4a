import { systemClock, type Timestamp } from '../../lib/clock.js'
import { newId } from '../../lib/ids.js'
import { impactOf } from '../../retrieval/bm25.js'
import type { ChunkWithPostings, Posting } from '../../storage/ports/chunks.js'
import type { Repositories } from '../../storage/store.js'
import { forEachTerm } from '../../text/analysis.js'
import { tableChunkTitle } from '../chunking/tables.js'
import type { ChunkDraft, ProcessedDocument } from './pipeline-types.js'

/**
 * The term frequencies of one chunk (in order of first occurrence) and its length for BM25: its
 * terms that are words. Numbers are indexed (a question may name a year) but do not make a chunk
 * longer: a table row of five figures is no more diluted than its label, and a financial
 * statement's chunks would otherwise rank below any paragraph that repeats the question's words.
 */
function termFrequencies(text: string, language: string): { frequencies: Map<string, number>; termCount: number } {
  const frequencies = new Map<string, number>()
  let termCount = 0
  forEachTerm(text, language, (term) => {
    frequencies.set(term, (frequencies.get(term) ?? 0) + 1)
    const first = term.charCodeAt(0)
    if (first < 48 || first > 57) termCount++
  })
  return { frequencies, termCount }
}

/**
 * Postings in one string, `<tf>:<term>` separated by U+001E: a large table has hundreds of
 * thousands of chunks, and one string per chunk costs a fraction of an object per term, in the
 * processing thread and again once copied to the main thread. Terms are word segments, never
 * control characters.
 */
const RECORD = '\u001e'

/** Term frequencies (term → tf, in their order) as one string. */
export function encodePostings(frequencies: ReadonlyMap<string, number>): string {
  const records: string[] = []
  for (const [term, tf] of frequencies) records.push(`${tf}:${term}`)
  return records.join(RECORD)
}

export function decodePostings(encoded: string): Posting[] {
  if (encoded === '') return []
  return encoded.split(RECORD).map((entry) => {
    const colon = entry.indexOf(':')
    return { term: entry.slice(colon + 1), tf: Number(entry.slice(0, colon)) }
  })
}

/**
 * The chunk with its postings: computed here only when the processing thread did not. A table
 * chunk's title counts twice (as a title field weighs more in BM25F): its rows are figures and
 * labels, and what the table is ("Consolidated Statements of Cash Flows") is said once, where a
 * page of prose about cash flows says it in every sentence. The length stays the text's own.
 */
export function withPostings(draft: ChunkDraft, language: string): ChunkDraft {
  if (draft.postings !== undefined && draft.termCount !== undefined) return draft
  const { frequencies, termCount } = termFrequencies(draft.text, language)
  if (draft.metadata.category === 'table') {
    forEachTerm(tableChunkTitle(draft.text), language, (term) => {
      frequencies.set(term, (frequencies.get(term) ?? 0) + 1)
    })
  }
  return { ...draft, postings: encodePostings(frequencies), termCount }
}

/** A chunk draft as the store writes it: a new id, and its postings decoded only when written. */
export function indexed(
  companyId: string,
  documentId: string,
  draft: ChunkDraft,
  language: string,
  createdAt: Timestamp,
) {
  const { postings: encoded = '', termCount = 0 } = withPostings(draft, language)
  const chunk: ChunkWithPostings = {
    chunk: {
      id: newId(),
      companyId,
      documentId,
      idx: draft.idx,
      text: draft.text,
      tokenCount: draft.tokenCount,
      termCount,
      pageNumber: draft.pageNumber,
      rowIdx: draft.rowIdx,
      metadata: draft.metadata,
      language,
      createdAt,
    },
    // Decoded when the store writes them, a batch at a time, not all at once for the document.
    // The index reads postings in order of their BM25 term-frequency part, computed once here.
    get postings() {
      return decodePostings(encoded).map(({ term, tf }) => ({ term, tf, impact: impactOf(tf, termCount) }))
    },
  }
  return chunk
}

/**
 * Writes the chunks of a processed document and their postings (terms by `analyze` in the
 * document's language, normally computed by processDocument in the processing thread; `term_count`
 * per chunk for BM25), replacing the previous ones. Call it
 * inside the transaction that marks the document PROCESSED, so searches see either the old
 * version or the new one, never a mix. Returns false, writing nothing, when the document no longer
 * exists (deleted while it was processed).
 */
export async function indexDocument(
  tx: Repositories,
  companyId: string,
  documentId: string,
  processed: ProcessedDocument,
  createdAt: Timestamp = systemClock.now(),
): Promise<boolean> {
  const document = await tx.knowledgeBase.findById(companyId, documentId)
  if (document?.kind !== 'document') return false
  const chunks = processed.chunks.map((draft) => indexed(companyId, documentId, draft, processed.language, createdAt))
  await tx.chunks.replaceForDocument(companyId, documentId, chunks)
  return true
}
