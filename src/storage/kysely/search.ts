import { type Expression, type ExpressionBuilder, type Kysely, type SqlBool, sql } from 'kysely'
import type {
  ChunkHitRecord,
  ChunkPosting,
  DocumentSelection,
  ImpactCursor,
  ImpactPosting,
  IndexChange,
  IndexedChunk,
  IndexedDocument,
  ScoredPosting,
  SearchRepository,
} from '../ports/search.js'
import type { Database } from '../schema.js'
import { batches } from './batches.js'

const PROCESSED = 'PROCESSED'
// Ids per IN list: far below the bound-parameter limits of both engines.
const ID_BATCH = 500

interface PostingRow {
  term: string
  tf: number
  chunk_id: string
  document_id: string
  term_count: number
  idx: number
  object_name: string
}

function toPosting(row: PostingRow): ScoredPosting {
  return {
    term: row.term,
    tf: Number(row.tf),
    chunkId: row.chunk_id,
    documentId: row.document_id,
    termCount: Number(row.term_count),
    objectName: row.object_name,
    idx: Number(row.idx),
  }
}

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

  async indexedDocuments(companyId: string): Promise<IndexedDocument[]> {
    const rows = await this.db
      .selectFrom('index_documents as s')
      .leftJoin('kb_objects as d', (join) =>
        join.onRef('d.id', '=', 's.document_id').on('d.company_id', '=', companyId),
      )
      .select(['s.document_id', 's.language', 's.chunk_count', 's.total_terms', 'd.embedding_state'])
      .where('s.company_id', '=', companyId)
      .execute()
    return rows.map((row) => ({
      documentId: row.document_id,
      language: row.language,
      chunkCount: Number(row.chunk_count),
      totalTerms: Number(row.total_terms),
      searchable: row.embedding_state === PROCESSED,
    }))
  }

  async documentFrequencies(
    companyId: string,
    terms: readonly string[],
    excludedDocumentIds: readonly string[],
  ): Promise<Map<string, number>> {
    const frequencies = new Map<string, number>()
    if (terms.length === 0) return frequencies
    const rows = await this.db
      .selectFrom('term_stats')
      .select(['term', 'df'])
      .where('company_id', '=', companyId)
      .where('term', 'in', [...terms])
      .execute()
    for (const row of rows) frequencies.set(row.term, Number(row.df))
    for (const ids of batches([...new Set(excludedDocumentIds)], ID_BATCH)) {
      const excluded = await this.db
        .selectFrom('chunk_terms as t')
        .innerJoin('chunks as c', 'c.id', 't.chunk_id')
        .select((eb) => ['t.term', eb.fn.countAll<number | string>().as('n')])
        .where('c.company_id', '=', companyId)
        .where('c.document_id', 'in', ids)
        .where('t.term', 'in', [...terms])
        .groupBy('t.term')
        .execute()
      for (const row of excluded) frequencies.set(row.term, (frequencies.get(row.term) ?? 0) - Number(row.n))
    }
    for (const [term, df] of frequencies) if (df <= 0) frequencies.delete(term)
    return frequencies
  }

  async impactPage(
    companyId: string,
    term: string,
    after: ImpactCursor | null,
    size: number,
  ): Promise<ImpactPosting[]> {
    let query = this.db
      .selectFrom('chunk_terms')
      .select(['chunk_id', 'impact', 'tf', 'term_count', 'document_id'])
      .where('company_id', '=', companyId)
      .where('term', '=', term)
    if (after) {
      query = query.where((eb) =>
        eb.or([
          eb('impact', '<', after.impact),
          eb.and([eb('impact', '=', after.impact), eb('chunk_id', '>', after.chunkId)]),
        ]),
      )
    }
    const rows = await query.orderBy('impact', 'desc').orderBy('chunk_id', 'asc').limit(size).execute()
    return rows.map((row) => ({
      chunkId: row.chunk_id,
      impact: Number(row.impact),
      tf: Number(row.tf),
      termCount: Number(row.term_count),
      documentId: row.document_id,
    }))
  }

  async postingsOfChunks(
    companyId: string,
    chunkIds: readonly string[],
    terms: readonly string[],
  ): Promise<ScoredPosting[]> {
    if (terms.length === 0) return []
    const result: ScoredPosting[] = []
    for (const ids of batches([...new Set(chunkIds)], ID_BATCH)) {
      const rows = await this.db
        .selectFrom('chunk_terms as t')
        .innerJoin('chunks as c', 'c.id', 't.chunk_id')
        .innerJoin('kb_objects as d', 'd.id', 'c.document_id')
        .select(['t.term', 't.tf', 't.chunk_id', 'c.document_id', 'c.term_count', 'c.idx', 'd.object_name'])
        .where('t.chunk_id', 'in', ids)
        .where('t.term', 'in', [...terms])
        // No t.company_id or c.company_id condition: SQLite would then read the company's whole
        // term or chunk index instead of the keys; d.company_id confines the chunks.
        .where('d.company_id', '=', companyId)
        .where('d.embedding_state', '=', PROCESSED)
        .execute()
      for (const row of rows) result.push(toPosting(row))
    }
    return result
  }

  async postingsOfDocuments(
    companyId: string,
    documentIds: readonly string[],
    terms: readonly string[],
  ): Promise<ScoredPosting[]> {
    if (terms.length === 0) return []
    const result: ScoredPosting[] = []
    for (const ids of batches([...new Set(documentIds)], ID_BATCH)) {
      // From the documents' chunks to their postings through the (chunk_id, term) primary key.
      const rows = await this.db
        .selectFrom('chunks as c')
        .innerJoin('kb_objects as d', 'd.id', 'c.document_id')
        .innerJoin('chunk_terms as t', 't.chunk_id', 'c.id')
        .select(['t.term', 't.tf', 't.chunk_id', 'c.document_id', 'c.term_count', 'c.idx', 'd.object_name'])
        .where('c.company_id', '=', companyId)
        .where('c.document_id', 'in', ids)
        .where('d.company_id', '=', companyId)
        .where('d.embedding_state', '=', PROCESSED)
        .where('t.term', 'in', [...terms])
        .execute()
      for (const row of rows) result.push(toPosting(row))
    }
    return result
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
      // By primary key; no c.company_id condition (SQLite would scan the company's chunks with
      // it): d.company_id confines the chunks to the company.
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

  async indexVersion(companyId: string): Promise<number> {
    const row = await this.db
      .selectFrom('index_versions')
      .select('version')
      .where('company_id', '=', companyId)
      .executeTakeFirst()
    return row ? Number(row.version) : 0
  }

  async indexChangesSince(companyId: string, version: number): Promise<IndexChange[]> {
    const rows = await this.db
      .selectFrom('index_changes')
      .select(['version', 'document_id'])
      .where('company_id', '=', companyId)
      .where('version', '>', version)
      .orderBy('version')
      .execute()
    return rows.map((row) => ({ version: Number(row.version), documentId: row.document_id }))
  }

  async searchableChunks(companyId: string, documentIds: readonly string[]): Promise<IndexedChunk[]> {
    const result: IndexedChunk[] = []
    for (const ids of batches([...new Set(documentIds)], ID_BATCH)) {
      const rows = await this.db
        .selectFrom('chunks as c')
        .innerJoin('kb_objects as d', 'd.id', 'c.document_id')
        .select(['c.id', 'c.document_id', 'c.term_count', 'c.language'])
        .where('c.company_id', '=', companyId)
        .where('c.document_id', 'in', ids)
        .where('d.company_id', '=', companyId)
        .where('d.embedding_state', '=', PROCESSED)
        .orderBy('c.document_id')
        .orderBy('c.idx')
        .execute()
      for (const row of rows) {
        result.push({
          chunkId: row.id,
          documentId: row.document_id,
          termCount: Number(row.term_count),
          language: row.language,
        })
      }
    }
    return result
  }

  async postingCount(companyId: string): Promise<number> {
    const row = await this.db
      .selectFrom('term_stats')
      .select((eb) => eb.fn.sum<number | string | null>('df').as('n'))
      .where('company_id', '=', companyId)
      .executeTakeFirst()
    return Number(row?.n ?? 0)
  }

  async postingsFromTerm(companyId: string, fromTerm: string | null, limit: number): Promise<ChunkPosting[]> {
    let query = this.db
      .selectFrom('chunk_terms')
      .select(['term', 'chunk_id as chunkId', 'tf'])
      .where('company_id', '=', companyId)
    if (fromTerm !== null) query = query.where('term', '>=', fromTerm)
    // The order of chunk_terms_impact (company_id, term, …): a range read of the covering index.
    // Rows as the driver gives them (integers are numbers on both): millions are read at a load.
    return query.orderBy('term').limit(limit).execute()
  }

  async searchablePostings(companyId: string, documentIds: readonly string[]): Promise<ChunkPosting[]> {
    const result: ChunkPosting[] = []
    for (const ids of batches([...new Set(documentIds)], ID_BATCH)) {
      // From the documents' chunks to their postings through the (chunk_id, term) primary key.
      const rows = await this.db
        .selectFrom('chunks as c')
        .innerJoin('kb_objects as d', 'd.id', 'c.document_id')
        .innerJoin('chunk_terms as t', 't.chunk_id', 'c.id')
        .select(['t.chunk_id', 't.term', 't.tf'])
        .where('c.company_id', '=', companyId)
        .where('c.document_id', 'in', ids)
        .where('d.company_id', '=', companyId)
        .where('d.embedding_state', '=', PROCESSED)
        .execute()
      for (const row of rows) result.push({ chunkId: row.chunk_id, term: row.term, tf: Number(row.tf) })
    }
    return result
  }
}
