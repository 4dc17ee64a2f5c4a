import { mentions, questionNames } from '../../text/names.js'
import type { RetrievedChunk, Retriever } from '../types.js'
import type { DocumentContextIndex } from './document-context.js'
import { type DocumentSpan, documentSpan, EMPTY_SPAN, type MentioningDocuments } from './span.js'

/**
 * Chunks of a document whose card names no subject that must write a subject's name for the
 * document to count among that subject's: a release that names its issuer on every page, not a
 * manual that cites a supplier once.
 */
const MIN_MENTIONING_CHUNKS = 2

/** Chunks read per document without a subject, up to a cap, to count where a name is written. */
const CHUNKS_PER_DOCUMENT = 4
const MAX_CHUNKS_READ = 64

/** A search within some documents, ranked as any other (no context, no span). */
export type ScopedSearch = (text: string, documentIds: readonly string[], limit: number) => Promise<RetrievedChunk[]>

/** `retriever`'s search as a ScopedSearch, in `language`. */
export function scopedSearch(retriever: Retriever, companyId: string, language: string): ScopedSearch {
  return (text, documentIds, limit) =>
    retriever.search(companyId, { text, language, scope: { documentIds: [...documentIds] }, limit, span: EMPTY_SPAN })
}

/**
 * For each name of the question that is some documents' subject, the documents of `scope` whose
 * card names no subject and whose own text writes that name in at least MIN_MENTIONING_CHUNKS
 * chunks. A card may miss its subject (a cover the reader cannot parse); such a document is not
 * known to be about anyone else, and leaving it out of the subject's documents would keep a
 * company's own release from answering about it. A name no card holds is left as it is: a
 * document without a subject that mentions it may be about anyone.
 */
async function mentioningDocuments(
  context: DocumentContextIndex,
  question: string,
  language: string,
  scope: readonly string[] | null,
  search: ScopedSearch,
): Promise<MentioningDocuments> {
  const ids = scope ?? context.records().map((record) => record.documentId)
  const unnamed = ids.filter((id) => (context.record(id)?.card?.subjects.length ?? 0) === 0)
  if (unnamed.length === 0) return () => []
  const known = questionNames(question, language).filter((name) => context.documentsNamed(name.terms, scope).length > 0)
  if (known.length === 0) return () => []
  const limit = Math.min(MAX_CHUNKS_READ, unnamed.length * CHUNKS_PER_DOCUMENT)
  const bySurface = new Map<string, readonly string[]>()
  for (const name of known) {
    const counts = new Map<string, number>()
    for (const chunk of await search(name.surface, unnamed, limit)) {
      if (mentions(chunk.text, name)) counts.set(chunk.documentId, (counts.get(chunk.documentId) ?? 0) + 1)
    }
    bySurface.set(
      name.surface,
      [...counts].filter(([, count]) => count >= MIN_MENTIONING_CHUNKS).map(([id]) => id),
    )
  }
  return (name) => bySurface.get(name.surface) ?? []
}

/** The span of a question (span.ts) with the documents without a subject that write its subjects' names. */
export async function spanWithMentions(
  context: DocumentContextIndex,
  question: string,
  language: string,
  scope: readonly string[] | null,
  search: ScopedSearch,
): Promise<DocumentSpan> {
  const mentioning = await mentioningDocuments(context, question, language, scope, search)
  return documentSpan(context, question, language, scope, mentioning)
}
