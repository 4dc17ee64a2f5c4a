import { type Expression, type ExpressionBuilder, type Kysely, type SqlBool, sql } from 'kysely'
import type {
  ChunkHitRecord,
  ChunkPosting,
  ChunkRef,
  DocumentSelection,
  ImpactCursor,
  ImpactPosting,
  IndexChange,
  IndexedChunk,
  IndexedDocument,
  ScoredPosting,
  SearchRepository,
  TermPosting,
} from '../ports/search.js'
import type { Database } from '../schema.js'
import { batches } from './batches.js'
import { companyKeyQuery, documentIdQuery } from './index-keys.js'

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

function toChunkPosting(row: { document_key: number; chunk_idx: number; term: string; tf: number }): ChunkPosting {
  return { documentKey: Number(row.document_key), chunkIdx: Number(row.chunk_idx), term: row.term, tf: Number(row.tf) }
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
      const excluded = await this.postingsOfChunksOf(companyId, ids)
        .select((eb) => ['p.term', eb.fn.countAll<number | string>().as('n')])
        .where('p.term', 'in', [...terms])
        .groupBy('p.term')
        .execute()
      for (const row of excluded) frequencies.set(row.term, (frequencies.get(row.term) ?? 0) - Number(row.n))
    }
    for (const [term, df] of frequencies) if (df <= 0) frequencies.delete(term)
    return frequencies
  }

  /**
   * The postings (`p`) of the chunks (`c`) of these documents of the company, found chunk by chunk
   * through the (document key, chunk idx, term) index. CROSS JOIN fixes that order on SQLite,
   * whose planner would otherwise read all of a document's postings and look each chunk up.
   */
  private postingsOfChunksOf(companyId: string, documentIds: readonly string[]) {
    return this.db
      .selectFrom('chunks as c')
      .crossJoin('index_document_keys as k')
      .crossJoin('postings as p')
      .whereRef('k.document_id', '=', 'c.document_id')
      .whereRef('p.document_key', '=', 'k.key')
      .whereRef('p.chunk_idx', '=', 'c.idx')
      .where('c.company_id', '=', companyId)
      .where('c.document_id', 'in', [...documentIds])
      .where('k.company_id', '=', companyId)
  }

  /** The chunks of these PROCESSED documents of the company, with their postings (`p`) and documents (`d`). */
  private searchablePostingsOf(companyId: string, documentIds: readonly string[]) {
    return this.postingsOfChunksOf(companyId, documentIds)
      .innerJoin('kb_objects as d', 'd.id', 'c.document_id')
      .where('d.company_id', '=', companyId)
      .where('d.embedding_state', '=', PROCESSED)
  }

  async impactPage(
    companyId: string,
    term: string,
    after: ImpactCursor | null,
    size: number,
  ): Promise<ImpactPosting[]> {
    let query = this.db
      .selectFrom('postings')
      .select(['document_key', 'chunk_idx', 'impact', 'tf', 'term_count'])
      .where('company_key', '=', companyKeyQuery(this.db, companyId))
      .where('term', '=', term)
    if (after) {
      // `impact <=` bounds the range read; the rest places the cursor among equal impacts.
      query = query
        .where('impact', '<=', after.impact)
        .where((eb) =>
          eb.or([
            eb('impact', '<', after.impact),
            eb('document_key', '>', after.documentKey),
            eb.and([eb('document_key', '=', after.documentKey), eb('chunk_idx', '>', after.chunkIdx)]),
          ]),
        )
    }
    const rows = await query
      .orderBy('impact', 'desc')
      .orderBy('document_key', 'asc')
      .orderBy('chunk_idx', 'asc')
      .limit(size)
      .execute()
    return rows.map((row) => ({
      documentKey: Number(row.document_key),
      chunkIdx: Number(row.chunk_idx),
      impact: Number(row.impact),
      tf: Number(row.tf),
      termCount: Number(row.term_count),
    }))
  }

  async postingsOfChunks(
    companyId: string,
    chunks: readonly ChunkRef[],
    terms: readonly string[],
  ): Promise<TermPosting[]> {
    if (terms.length === 0) return []
    const result: TermPosting[] = []
    for (const group of batches(byDocumentKey(chunks), ID_BATCH)) {
      const rows = await this.db
        .selectFrom('postings as p')
        .innerJoin('index_document_keys as k', 'k.key', 'p.document_key')
        .innerJoin('kb_objects as d', 'd.id', 'k.document_id')
        .select(['p.document_key', 'p.chunk_idx', 'p.term', 'p.tf', 'p.term_count'])
        .where((eb) =>
          eb.or(
            group.map(([documentKey, idxs]) =>
              eb.and([eb('p.document_key', '=', documentKey), eb('p.chunk_idx', 'in', idxs)]),
            ),
          ),
        )
        .where('p.term', 'in', [...terms])
        .where('k.company_id', '=', companyId)
        .where('d.company_id', '=', companyId)
        .where('d.embedding_state', '=', PROCESSED)
        .execute()
      for (const row of rows) result.push({ ...toChunkPosting(row), termCount: Number(row.term_count) })
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
      const rows = await this.searchablePostingsOf(companyId, ids)
        .select(['p.term', 'p.tf', 'c.id as chunk_id', 'c.document_id', 'c.term_count', 'c.idx', 'd.object_name'])
        .where('p.term', 'in', [...terms])
        .execute()
      for (const row of rows) result.push(toPosting(row))
    }
    return result
  }

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
        'd.object_name',
        'd.document_type',
        'd.description',
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
        .innerJoin('index_document_keys as k', 'k.document_id', 'c.document_id')
        .select(['c.id', 'c.document_id', 'k.key', 'c.idx', 'c.term_count', 'c.language'])
        .where('c.company_id', '=', companyId)
        .where('c.document_id', 'in', ids)
        .where('d.company_id', '=', companyId)
        .where('d.embedding_state', '=', PROCESSED)
        .where('k.company_id', '=', companyId)
        .orderBy('c.document_id')
        .orderBy('c.idx')
        .execute()
      for (const row of rows) {
        result.push({
          chunkId: row.id,
          documentId: row.document_id,
          documentKey: Number(row.key),
          chunkIdx: Number(row.idx),
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
      .selectFrom('postings')
      .select(['term', 'document_key as documentKey', 'chunk_idx as chunkIdx', 'tf'])
      .where('company_key', '=', companyKeyQuery(this.db, companyId))
    if (fromTerm !== null) query = query.where('term', '>=', fromTerm)
    // The order of the postings (company_key, term, …): a range read of the clustered table
    // (SQLite) or covering index (PostgreSQL). Rows as the driver gives them (integers are
    // numbers on both): millions are read at a load.
    return query.orderBy('term').limit(limit).execute()
  }

  async searchablePostings(companyId: string, documentIds: readonly string[]): Promise<ChunkPosting[]> {
    const result: ChunkPosting[] = []
    for (const ids of batches([...new Set(documentIds)], ID_BATCH)) {
      const rows = await this.searchablePostingsOf(companyId, ids)
        .select(['p.document_key', 'p.chunk_idx', 'p.term', 'p.tf'])
        .execute()
      for (const row of rows) result.push(toChunkPosting(row))
    }
    return result
  }
}

/** Refs grouped by document key: [key, chunk idxs]. */
function byDocumentKey(chunks: readonly ChunkRef[]): Array<[number, number[]]> {
  const groups = new Map<number, number[]>()
  for (const { documentKey, chunkIdx } of chunks) {
    const idxs = groups.get(documentKey)
    if (idxs) {
      if (!idxs.includes(chunkIdx)) idxs.push(chunkIdx)
    } else groups.set(documentKey, [chunkIdx])
  }
  return [...groups]
}
