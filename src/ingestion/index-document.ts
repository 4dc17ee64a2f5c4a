import { systemClock, type Timestamp } from '../lib/clock.js'
import { newId } from '../lib/ids.js'
import { analyze } from '../retrieval/analysis.js'
import { impactOf } from '../retrieval/bm25.js'
import type { ChunkWithPostings, Posting } from '../storage/ports/chunks.js'
import type { Repositories } from '../storage/store.js'
import type { ChunkDraft, ProcessedDocument } from './pipeline-types.js'

/** The postings of one chunk (term → frequency, in order of first occurrence) and its length in terms. */
export function postingsOf(text: string, language: string): { postings: Posting[]; termCount: number } {
  const terms = analyze(text, language)
  const frequencies = new Map<string, number>()
  for (const term of terms) frequencies.set(term, (frequencies.get(term) ?? 0) + 1)
  return { postings: [...frequencies].map(([term, tf]) => ({ term, tf })), termCount: terms.length }
}

/** The chunk with its postings: computed here only when the processing thread did not. */
export function withPostings(draft: ChunkDraft, language: string): ChunkDraft {
  return draft.postings && draft.termCount !== undefined ? draft : { ...draft, ...postingsOf(draft.text, language) }
}

function indexed(companyId: string, documentId: string, draft: ChunkDraft, language: string, createdAt: Timestamp) {
  const { postings, termCount } =
    draft.postings && draft.termCount !== undefined
      ? { postings: draft.postings, termCount: draft.termCount }
      : postingsOf(draft.text, language)
  // The index reads postings in order of their BM25 term-frequency part, computed once here.
  const indexedPostings = postings.map(({ term, tf }) => ({ term, tf, impact: impactOf(tf, termCount) }))
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
    postings: indexedPostings,
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
