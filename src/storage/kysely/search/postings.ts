import type { Kysely } from 'kysely'
import type {
  ChunkHits,
  ChunkRef,
  ImpactCursor,
  ImpactPage,
  IndexedDocuments,
  PostingsReader,
  ScoredPosting,
  TermPosting,
} from '../../ports/search.js'
import type { Database } from '../../schema.js'
import { batches } from '../batches.js'
import { companyKeyQuery } from '../index-keys.js'
import { decodeBlock } from '../posting-blocks.js'
import { byDocumentKey, ID_BATCH, PROCESSED, searchableBlocksOf } from './searchable.js'

/** The postings the store-backed lexical search reads (its hits and documents are read elsewhere). */
export type Postings = Omit<PostingsReader, keyof ChunkHits | keyof IndexedDocuments>

export class KyselyPostings implements Postings {
  constructor(private readonly db: Kysely<Database>) {}

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
      const rows = await searchableBlocksOf(this.db, companyId, ids)
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
}
