import type { Kysely } from 'kysely'
import type { DocumentContextRecord, IndexedDocument, IndexedDocuments } from '../../ports/search.js'
import type { Database } from '../../schema.js'
import { batches } from '../batches.js'
import { parseCard } from '../cards.js'
import { ID_BATCH, PROCESSED } from './searchable.js'

/** The documents the index holds: statistics and context (path, card, language). */
export class KyselyIndexedDocuments implements IndexedDocuments {
  constructor(private readonly db: Kysely<Database>) {}

  async indexedDocuments(companyId: string): Promise<IndexedDocument[]> {
    const rows = await this.db
      .selectFrom('index_documents as s')
      .innerJoin('index_document_keys as k', 'k.document_id', 's.document_id')
      .leftJoin('kb_objects as d', (join) =>
        join.onRef('d.id', '=', 's.document_id').on('d.company_id', '=', companyId),
      )
      .select(['s.document_id', 'k.key', 's.language', 's.chunk_count', 's.total_terms', 'd.embedding_state'])
      .where('s.company_id', '=', companyId)
      .where('k.company_id', '=', companyId)
      .execute()
    return rows.map((row) => ({
      documentId: row.document_id,
      documentKey: Number(row.key),
      language: row.language,
      chunkCount: Number(row.chunk_count),
      totalTerms: Number(row.total_terms),
      searchable: row.embedding_state === PROCESSED,
    }))
  }

  async documentContexts(companyId: string, documentIds?: readonly string[]): Promise<DocumentContextRecord[]> {
    const read = async (ids: readonly string[] | undefined) => {
      let query = this.db
        .selectFrom('kb_objects as d')
        .innerJoin('index_documents as s', (join) =>
          join.onRef('s.document_id', '=', 'd.id').on('s.company_id', '=', companyId),
        )
        .select(['d.id', 'd.object_name', 'd.card', 's.language', 's.chunk_count'])
        .where('d.company_id', '=', companyId)
        .where('d.is_folder', '=', 0)
        .where('d.embedding_state', '=', PROCESSED)
      if (ids) query = query.where('d.id', 'in', [...ids])
      return query.execute()
    }
    const rows =
      documentIds === undefined
        ? await read(undefined)
        : (await Promise.all(batches([...new Set(documentIds)], ID_BATCH).map((ids) => read(ids)))).flat()
    // One row per document and language: the document's language is the one of most of its chunks.
    const byDocument = new Map<string, { row: (typeof rows)[number]; chunks: number }>()
    for (const row of rows) {
      const known = byDocument.get(row.id)
      const chunks = Number(row.chunk_count)
      if (!known || chunks > known.chunks || (chunks === known.chunks && row.language < known.row.language)) {
        byDocument.set(row.id, { row, chunks })
      }
    }
    return [...byDocument.values()]
      .map(({ row }) => ({
        documentId: row.id,
        objectName: row.object_name,
        card: parseCard(row.card),
        language: row.language,
      }))
      .sort((a, b) => (a.documentId < b.documentId ? -1 : a.documentId > b.documentId ? 1 : 0))
  }
}
