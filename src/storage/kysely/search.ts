import { type Expression, type ExpressionBuilder, type Kysely, type SqlBool, sql } from 'kysely'
import type {
  ChunkHitRecord,
  DocumentSelection,
  LanguageStats,
  ScoredPosting,
  SearchRepository,
} from '../ports/search.js'
import type { Database } from '../schema.js'

const PROCESSED = 'PROCESSED'

type DocumentExpressions = ExpressionBuilder<Database, 'kb_objects'>

/** Entries strictly below a folder: a byte-wise range on object_name (`0` is the byte after `/`), so the index applies. */
function below(eb: DocumentExpressions, folder: string): Expression<SqlBool> {
  if (folder === '/') return sql<SqlBool>`1 = 1`
  return eb.and([eb('object_name', '>', folder), eb('object_name', '<', `${folder.slice(0, -1)}0`)])
}

export class KyselySearchRepository implements SearchRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async processedDocumentIds(companyId: string, selection: DocumentSelection): Promise<string[]> {
    const { folders, tagIds, documentIds } = selection
    if (folders.length === 0 && tagIds.length === 0 && documentIds.length === 0) return []
    const rows = await this.db
      .selectFrom('kb_objects')
      .select('id')
      .where('company_id', '=', companyId)
      .where('is_folder', '=', 0)
      .where('embedding_state', '=', PROCESSED)
      .where((eb) => {
        const any: Expression<SqlBool>[] = folders.map((folder) => below(eb, folder))
        if (documentIds.length > 0) any.push(eb('id', 'in', [...documentIds]))
        if (tagIds.length > 0) {
          any.push(
            eb(
              'id',
              'in',
              eb
                .selectFrom('document_tags')
                .select('document_id')
                .where('company_id', '=', companyId)
                .where('tag_id', 'in', [...tagIds]),
            ),
          )
        }
        return eb.or(any)
      })
      .execute()
    return rows.map((row) => row.id).sort()
  }

  async corpusStats(companyId: string): Promise<LanguageStats[]> {
    const rows = await this.db
      .selectFrom('chunks as c')
      .innerJoin('kb_objects as d', 'd.id', 'c.document_id')
      .select((eb) => [
        'c.language',
        eb.fn.countAll<number | string>().as('chunk_count'),
        eb.fn.sum<number | string | null>('c.term_count').as('total_terms'),
      ])
      .where('c.company_id', '=', companyId)
      .where('d.company_id', '=', companyId)
      .where('d.embedding_state', '=', PROCESSED)
      .groupBy('c.language')
      .execute()
    return rows
      .map((row) => ({
        language: row.language,
        chunkCount: Number(row.chunk_count),
        totalTerms: Number(row.total_terms ?? 0),
      }))
      .sort((a, b) => (a.language < b.language ? -1 : a.language > b.language ? 1 : 0))
  }

  async postings(companyId: string, terms: readonly string[]): Promise<ScoredPosting[]> {
    if (terms.length === 0) return []
    const rows = await this.db
      .selectFrom('chunk_terms as t')
      .innerJoin('chunks as c', 'c.id', 't.chunk_id')
      .innerJoin('kb_objects as d', 'd.id', 't.document_id')
      .select(['t.term', 't.tf', 't.chunk_id', 't.document_id', 'c.term_count', 'c.idx', 'd.object_name'])
      .where('t.company_id', '=', companyId)
      .where('t.term', 'in', [...terms])
      .where('c.company_id', '=', companyId)
      .where('d.company_id', '=', companyId)
      .where('d.embedding_state', '=', PROCESSED)
      .execute()
    return rows.map((row) => ({
      term: row.term,
      tf: Number(row.tf),
      chunkId: row.chunk_id,
      documentId: row.document_id,
      termCount: Number(row.term_count),
      objectName: row.object_name,
      idx: Number(row.idx),
    }))
  }

  async chunksByIds(companyId: string, chunkIds: readonly string[]): Promise<ChunkHitRecord[]> {
    if (chunkIds.length === 0) return []
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
        'd.object_name',
        'd.document_type',
        'd.description',
      ])
      .where('c.company_id', '=', companyId)
      .where('c.id', 'in', [...chunkIds])
      .where('d.company_id', '=', companyId)
      .where('d.embedding_state', '=', PROCESSED)
      .execute()
    return rows.map((row) => ({
      chunkId: row.id,
      documentId: row.document_id,
      objectName: row.object_name,
      documentType: row.document_type ?? 'text',
      description: row.description,
      idx: Number(row.idx),
      text: row.text,
      pageNumber: row.page_number,
      rowIdx: row.row_idx,
      metadata: JSON.parse(row.metadata) as Record<string, unknown>,
    }))
  }
}
