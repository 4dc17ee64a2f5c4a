import { type Expression, type ExpressionBuilder, type Kysely, type SqlBool, sql } from 'kysely'
import type {
  ChunkHitRecord,
  ChunkPosting,
  ChunkRef,
  DocumentContextRecord,
  DocumentSelection,
  ImpactCursor,
  ImpactPage,
  IndexChange,
  IndexedChunk,
  IndexedDocument,
  ScoredPosting,
  SearchRepository,
  TermPage,
  TermPosting,
} from '../ports/search.js'
import type { Database } from '../schema.js'
import { batches } from './batches.js'
import { parseCard } from './cards.js'
import { companyKeyQuery, documentIdQuery } from './index-keys.js'
import { decodeBlock } from './posting-blocks.js'

const PROCESSED = 'PROCESSED'
// Ids per IN list: far below the bound-parameter limits of both engines.
const ID_BATCH = 500

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
      const excluded = await this.db
        .selectFrom('posting_blocks as b')
        .innerJoin('index_document_keys as k', 'k.key', 'b.document_key')
        .select((eb) => ['b.term', eb.fn.sum<number | string>('b.posting_count').as('n')])
        .where('k.company_id', '=', companyId)
        .where('k.document_id', 'in', ids)
        .where('b.term', 'in', [...terms])
        .groupBy('b.term')
        .execute()
      for (const row of excluded) frequencies.set(row.term, (frequencies.get(row.term) ?? 0) - Number(row.n))
    }
    for (const [term, df] of frequencies) if (df <= 0) frequencies.delete(term)
    return frequencies
  }

  /**
   * The posting blocks (`b`) of these PROCESSED documents (`d`) of the company, found through the
   * (document key, term, first chunk) index.
   */
  private searchableBlocksOf(companyId: string, documentIds: readonly string[]) {
    return this.db
      .selectFrom('index_document_keys as k')
      .innerJoin('kb_objects as d', 'd.id', 'k.document_id')
      .innerJoin('posting_blocks as b', 'b.document_key', 'k.key')
      .where('k.company_id', '=', companyId)
      .where('k.document_id', 'in', [...documentIds])
      .where('d.company_id', '=', companyId)
      .where('d.embedding_state', '=', PROCESSED)
  }

  async impactPage(companyId: string, term: string, after: ImpactCursor | null, size: number): Promise<ImpactPage> {
    let query = this.db
      .selectFrom('posting_blocks')
      .select(['max_impact', 'document_key', 'first_chunk', 'postings'])
      .where('company_key', '=', companyKeyQuery(this.db, companyId))
      .where('term', '=', term)
    if (after) {
      // `max_impact <=` bounds the range read; the rest places the cursor among equal impacts.
      query = query
        .where('max_impact', '<=', after.impact)
        .where((eb) =>
          eb.or([
            eb('max_impact', '<', after.impact),
            eb('document_key', '>', after.documentKey),
            eb.and([eb('document_key', '=', after.documentKey), eb('first_chunk', '>', after.firstChunk)]),
          ]),
        )
    }
    const rows = await query
      .orderBy('max_impact', 'desc')
      .orderBy('document_key', 'asc')
      .orderBy('first_chunk', 'asc')
      .limit(size)
      .execute()
    const postings: TermPosting[] = []
    for (const row of rows) {
      const documentKey = Number(row.document_key)
      decodeBlock(Number(row.first_chunk), row.postings, (chunkIdx, tf, termCount) => {
        postings.push({ documentKey, chunkIdx, term, tf, termCount })
      })
    }
    const last = rows[rows.length - 1]
    return {
      postings,
      after:
        last && rows.length === size
          ? {
              impact: Number(last.max_impact),
              documentKey: Number(last.document_key),
              firstChunk: Number(last.first_chunk),
            }
          : null,
    }
  }

  async postingsOfChunks(
    companyId: string,
    chunks: readonly ChunkRef[],
    terms: readonly string[],
  ): Promise<TermPosting[]> {
    if (terms.length === 0) return []
    const result: TermPosting[] = []
    for (const group of batches(byDocumentKey(chunks), ID_BATCH)) {
      const wanted = new Map(group.map(([documentKey, idxs]) => [documentKey, new Set(idxs)]))
      const rows = await this.db
        .selectFrom('posting_blocks as b')
        .innerJoin('index_document_keys as k', 'k.key', 'b.document_key')
        .innerJoin('kb_objects as d', 'd.id', 'k.document_id')
        .select(['b.document_key', 'b.term', 'b.first_chunk', 'b.postings'])
        .where('b.document_key', 'in', [...wanted.keys()])
        .where('b.term', 'in', [...terms])
        .where('k.company_id', '=', companyId)
        .where('d.company_id', '=', companyId)
        .where('d.embedding_state', '=', PROCESSED)
        .execute()
      for (const row of rows) {
        const documentKey = Number(row.document_key)
        const idxs = wanted.get(documentKey)
        decodeBlock(Number(row.first_chunk), row.postings, (chunkIdx, tf, termCount) => {
          if (idxs?.has(chunkIdx)) result.push({ documentKey, chunkIdx, term: row.term, tf, termCount })
        })
      }
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
      const rows = await this.searchableBlocksOf(companyId, ids)
        .select(['k.document_id', 'd.object_name', 'b.term', 'b.first_chunk', 'b.postings'])
        .where('b.term', 'in', [...terms])
        .execute()
      if (rows.length === 0) continue
      const chunkIds = await this.chunkIdsOf(
        companyId,
        rows.map((row) => row.document_id),
      )
      for (const row of rows) {
        decodeBlock(Number(row.first_chunk), row.postings, (idx, tf, termCount) => {
          const chunkId = chunkIds.get(`${row.document_id}/${idx}`)
          if (chunkId === undefined) return
          result.push({
            term: row.term,
            tf,
            chunkId,
            documentId: row.document_id,
            termCount,
            objectName: row.object_name,
            idx,
          })
        })
      }
    }
    return result
  }

  /** Chunk id by `<document id>/<idx>`, for the chunks of these documents of the company. */
  private async chunkIdsOf(companyId: string, documentIds: readonly string[]): Promise<Map<string, string>> {
    const rows = await this.db
      .selectFrom('chunks')
      .select(['id', 'document_id', 'idx'])
      .where('company_id', '=', companyId)
      .where('document_id', 'in', [...new Set(documentIds)])
      .execute()
    return new Map(rows.map((row) => [`${row.document_id}/${row.idx}`, row.id]))
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

  async postingsFromTerm(companyId: string, fromTerm: string | null, limit: number): Promise<TermPage> {
    // Whole terms only: the blocks of the last term read may be cut off by the limit, so that
    // term is left for the next page, unless it is the only one (then the page grows).
    for (let blocks = Math.max(1, limit); ; blocks *= 2) {
      let query = this.db
        .selectFrom('posting_blocks')
        .select(['term', 'document_key', 'first_chunk', 'postings'])
        .where('company_key', '=', companyKeyQuery(this.db, companyId))
      if (fromTerm !== null) query = query.where('term', '>=', fromTerm)
      // The order of the blocks (company_key, term, …): a range read of the clustered table
      // (SQLite) or of the read-order index (PostgreSQL).
      const rows = await query.orderBy('term').limit(blocks).execute()
      const complete = rows.length < blocks
      const next = complete ? null : (rows[rows.length - 1]?.term as string)
      if (next !== null && rows[0]?.term === next) continue
      const postings: ChunkPosting[] = []
      for (const row of rows) {
        if (row.term === next) break
        const documentKey = Number(row.document_key)
        decodeBlock(Number(row.first_chunk), row.postings, (chunkIdx, tf) => {
          postings.push({ documentKey, chunkIdx, term: row.term, tf })
        })
      }
      return { postings, next }
    }
  }

  async searchablePostings(companyId: string, documentIds: readonly string[]): Promise<ChunkPosting[]> {
    const result: ChunkPosting[] = []
    for (const ids of batches([...new Set(documentIds)], ID_BATCH)) {
      const rows = await this.searchableBlocksOf(companyId, ids)
        .select(['b.document_key', 'b.term', 'b.first_chunk', 'b.postings'])
        .execute()
      for (const row of rows) {
        const documentKey = Number(row.document_key)
        decodeBlock(Number(row.first_chunk), row.postings, (chunkIdx, tf) => {
          result.push({ documentKey, chunkIdx, term: row.term, tf })
        })
      }
    }
    return result
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
