import type { Kysely } from 'kysely'
import type { ChunkRef } from '../../ports/search.js'
import type { Database } from '../../schema.js'

/** The embedding state of a document that search may show. */
export const PROCESSED = 'PROCESSED'
// Ids per IN list: far below the bound-parameter limits of both engines.
export const ID_BATCH = 500

/**
 * The posting blocks (`b`) of these PROCESSED documents (`d`) of the company, found through the
 * (document key, term, first chunk) index.
 */
export function searchableBlocksOf(db: Kysely<Database>, companyId: string, documentIds: readonly string[]) {
  return db
    .selectFrom('index_document_keys as k')
    .innerJoin('kb_objects as d', 'd.id', 'k.document_id')
    .innerJoin('posting_blocks as b', 'b.document_key', 'k.key')
    .where('k.company_id', '=', companyId)
    .where('k.document_id', 'in', [...documentIds])
    .where('d.company_id', '=', companyId)
    .where('d.embedding_state', '=', PROCESSED)
}

/** Refs grouped by document key: [key, chunk idxs]. */
export function byDocumentKey(chunks: readonly ChunkRef[]): Array<[number, number[]]> {
  const groups = new Map<number, number[]>()
  for (const { documentKey, chunkIdx } of chunks) {
    const idxs = groups.get(documentKey)
    if (idxs) {
      if (!idxs.includes(chunkIdx)) idxs.push(chunkIdx)
    } else groups.set(documentKey, [chunkIdx])
  }
  return [...groups]
}
