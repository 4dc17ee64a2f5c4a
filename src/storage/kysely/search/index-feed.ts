import type { Kysely } from 'kysely'
import type {
  ChunkPosting,
  IndexChange,
  IndexedChunk,
  IndexedDocuments,
  IndexFeed,
  TermPage,
} from '../../ports/search.js'
import type { Database } from '../../schema.js'
import { batches } from '../batches.js'
import { companyKeyQuery } from '../index-keys.js'
import { decodeBlock } from '../posting-blocks.js'
import { ID_BATCH, PROCESSED, searchableBlocksOf } from './searchable.js'

/** What feeds the in-memory index besides its documents: versions, changes, chunks, whole posting lists. */
export type IndexFeedReads = Omit<IndexFeed, keyof IndexedDocuments>

export class KyselyIndexFeed implements IndexFeedReads {
  constructor(private readonly db: Kysely<Database>) {}

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
      const rows = await searchableBlocksOf(this.db, companyId, ids)
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
}
