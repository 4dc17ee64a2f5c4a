import type { Expression, ExpressionBuilder, Kysely, SqlBool } from 'kysely'
import type { ChunkHitRecord, ChunkHits, ChunkRef } from '../../ports/search.js'
import type { Database } from '../../schema.js'
import { batches } from '../batches.js'
import { parseCard } from '../cards.js'
import { documentIdQuery } from '../index-keys.js'
import { byDocumentKey, ID_BATCH, PROCESSED } from './searchable.js'

/** Chunks of PROCESSED documents as search hits, by id or by (document key, idx). */
export class KyselyChunkHits implements ChunkHits {
  constructor(private readonly db: Kysely<Database>) {}

  async chunksByIds(companyId: string, chunkIds: readonly string[]): Promise<ChunkHitRecord[]> {
    if (chunkIds.length === 0) return []
    // By primary key; no c.company_id condition (SQLite would scan the company's chunks with
    // it): d.company_id confines the chunks to the company.
    return this.chunkHits(companyId, (eb) => eb('c.id', 'in', [...chunkIds]))
  }

  async chunksByRefs(companyId: string, chunks: readonly ChunkRef[]): Promise<ChunkHitRecord[]> {
    const result: ChunkHitRecord[] = []
    for (const group of batches(byDocumentKey(chunks), ID_BATCH)) {
      // Through the (document_id, idx) unique key of the chunks; a key of another company's
      // document names chunks that d.company_id leaves out.
      const hits = await this.chunkHits(companyId, (eb) =>
        eb.or(
          group.map(([documentKey, idxs]) =>
            eb.and([eb('c.document_id', '=', documentIdQuery(this.db, documentKey)), eb('c.idx', 'in', idxs)]),
          ),
        ),
      )
      result.push(...hits)
    }
    return result
  }

  private async chunkHits(
    companyId: string,
    which: (eb: ExpressionBuilder<Database & { c: Database['chunks'] }, 'c'>) => Expression<SqlBool>,
  ): Promise<ChunkHitRecord[]> {
    const rows = await this.db
      .selectFrom('chunks as c')
      .innerJoin('kb_objects as d', 'd.id', 'c.document_id')
      .select([
        'c.id',
        'c.document_id',
        'c.idx',
        'c.text',
        'c.page_number',
        'c.row_idx',
        'c.metadata',
        'c.language',
        'd.object_name',
        'd.document_type',
        'd.description',
        'd.card',
      ])
      .where(which)
      .where('d.company_id', '=', companyId)
      .where('d.embedding_state', '=', PROCESSED)
      .execute()
    return rows.map((row) => ({
      chunkId: row.id,
      documentId: row.document_id,
      objectName: row.object_name,
      documentType: row.document_type ?? 'text',
      description: row.description,
      card: parseCard(row.card),
      idx: Number(row.idx),
      text: row.text,
      pageNumber: row.page_number,
      rowIdx: row.row_idx,
      metadata: JSON.parse(row.metadata) as Record<string, unknown>,
      language: row.language,
    }))
  }
}
