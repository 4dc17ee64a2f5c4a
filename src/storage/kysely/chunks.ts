import type { Kysely, Selectable } from 'kysely'
import type {
  ChunkMetadata,
  ChunkRecord,
  ChunksRepository,
  ChunkWithPostings,
  DocumentPosting,
} from '../ports/chunks.js'
import type { ChunksTable, ChunkTermsTable, Database } from '../schema.js'

// Rows per INSERT: far below the bound-parameter limits of both engines (SQLite 32766, pg 65535).
const CHUNK_BATCH = 400
const POSTING_BATCH = 2000
const ID_BATCH = 500

function toRecord(row: Selectable<ChunksTable>): ChunkRecord {
  return {
    id: row.id,
    companyId: row.company_id,
    documentId: row.document_id,
    idx: row.idx,
    text: row.text,
    tokenCount: row.token_count,
    termCount: row.term_count,
    pageNumber: row.page_number,
    rowIdx: row.row_idx,
    metadata: JSON.parse(row.metadata) as ChunkMetadata,
    language: row.language,
    createdAt: row.created_at,
  }
}

function toRow(chunk: ChunkRecord): ChunksTable {
  return {
    id: chunk.id,
    company_id: chunk.companyId,
    document_id: chunk.documentId,
    idx: chunk.idx,
    text: chunk.text,
    token_count: chunk.tokenCount,
    term_count: chunk.termCount,
    page_number: chunk.pageNumber,
    row_idx: chunk.rowIdx,
    metadata: JSON.stringify(chunk.metadata),
    language: chunk.language,
    created_at: chunk.createdAt,
  }
}

function batches<T>(items: readonly T[], size: number): T[][] {
  const result: T[][] = []
  for (let start = 0; start < items.length; start += size) result.push(items.slice(start, start + size))
  return result
}

export class KyselyChunksRepository implements ChunksRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async replaceForDocument(companyId: string, documentId: string, chunks: readonly ChunkWithPostings[]): Promise<void> {
    await this.deleteForDocuments(companyId, [documentId])
    for (const batch of batches(chunks, CHUNK_BATCH)) {
      await this.db
        .insertInto('chunks')
        .values(batch.map(({ chunk }) => toRow({ ...chunk, companyId, documentId })))
        .execute()
    }
    let postings: ChunkTermsTable[] = []
    for (const { chunk, postings: terms } of chunks) {
      for (const posting of terms) {
        postings.push({
          company_id: companyId,
          term: posting.term,
          chunk_id: chunk.id,
          document_id: documentId,
          tf: posting.tf,
        })
        if (postings.length === POSTING_BATCH) {
          await this.db.insertInto('chunk_terms').values(postings).execute()
          postings = []
        }
      }
    }
    if (postings.length) await this.db.insertInto('chunk_terms').values(postings).execute()
  }

  async deleteForDocuments(companyId: string, documentIds: readonly string[]): Promise<void> {
    for (const ids of batches([...new Set(documentIds)], ID_BATCH)) {
      // Postings go by chunk id, the leading column of their primary key, never by a scan.
      await this.db
        .deleteFrom('chunk_terms')
        .where('company_id', '=', companyId)
        .where('chunk_id', 'in', (eb) =>
          eb.selectFrom('chunks').select('id').where('company_id', '=', companyId).where('document_id', 'in', ids),
        )
        .execute()
      await this.db.deleteFrom('chunks').where('company_id', '=', companyId).where('document_id', 'in', ids).execute()
    }
  }

  async listForDocument(companyId: string, documentId: string): Promise<ChunkRecord[]> {
    const rows = await this.db
      .selectFrom('chunks')
      .selectAll()
      .where('company_id', '=', companyId)
      .where('document_id', '=', documentId)
      .orderBy('idx')
      .execute()
    return rows.map(toRecord)
  }

  async countForDocument(companyId: string, documentId: string): Promise<number> {
    const row = await this.db
      .selectFrom('chunks')
      .select((eb) => eb.fn.countAll<number | string>().as('count'))
      .where('company_id', '=', companyId)
      .where('document_id', '=', documentId)
      .executeTakeFirstOrThrow()
    return Number(row.count)
  }

  async postingsForDocument(companyId: string, documentId: string): Promise<DocumentPosting[]> {
    const rows = await this.db
      .selectFrom('chunk_terms as t')
      .innerJoin('chunks as c', 'c.id', 't.chunk_id')
      .select(['c.idx', 't.term', 't.tf'])
      .where('t.company_id', '=', companyId)
      .where('c.company_id', '=', companyId)
      .where('c.document_id', '=', documentId)
      .orderBy('c.idx')
      .orderBy('t.term')
      .execute()
    return rows.map((row) => ({ chunkIdx: row.idx, term: row.term, tf: row.tf }))
  }
}
