import { setImmediate as yieldToEventLoop } from 'node:timers/promises'
import type { Kysely, Selectable } from 'kysely'
import type { RowInserter, RowValues } from '../database.js'
import {
  type ChunkMetadata,
  type ChunkRecord,
  type ChunksRepository,
  type ChunkWithPostings,
  type DocumentPosting,
  emptyTally,
  type IndexTally,
} from '../ports/chunks.js'
import type { ChunksTable, Database, PostingBlocksTable } from '../schema.js'
import { batches } from './batches.js'
import { recordIndexChanges } from './index-changes.js'
import { createCompanyKey, createDocumentKey, documentKeys } from './index-keys.js'
import { type BlockPosting, decodeBlock, encodeBlock } from './posting-blocks.js'

// Rows per INSERT: far below the bound-parameter limits of both engines (SQLite 32766, pg 65535).
const CHUNK_BATCH = 400
const BLOCK_BATCH = 2000
const ID_BATCH = 500
const STATS_BATCH = 2000

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

/**
 * Every column of a table's rows, in a fixed order: the type refuses a list that leaves one out,
 * so a column added to the table cannot be forgotten by the bulk path.
 */
function allColumns<Row>() {
  return <const Columns extends readonly (keyof Row)[]>(
    columns: Exclude<keyof Row, Columns[number]> extends never ? Columns : never,
  ): Columns => columns
}

/** The columns of a posting block, in the order the bulk path writes them. */
const BLOCK_COLUMNS = allColumns<PostingBlocksTable>()([
  'company_key',
  'term',
  'max_impact',
  'document_key',
  'first_chunk',
  'posting_count',
  'postings',
])

/** The columns of a chunk row, in the order the bulk path writes them. */
const CHUNK_COLUMNS = allColumns<ChunksTable>()([
  'id',
  'company_id',
  'document_id',
  'idx',
  'text',
  'token_count',
  'term_count',
  'page_number',
  'row_idx',
  'metadata',
  'language',
  'created_at',
])

/** A row's values in the order of `columns`, for the bulk path (`insertRows`). */
function valuesOf<Row extends { [Column in keyof Row]: string | number | Uint8Array | null }>(
  columns: readonly (keyof Row)[],
  row: Row,
): RowValues {
  return columns.map((column) => row[column])
}

export class KyselyChunksRepository implements ChunksRepository {
  /** `insertRows`: the store's bulk path for chunks and postings, where it has one (SQLite). */
  constructor(
    private readonly db: Kysely<Database>,
    private readonly insertRows?: RowInserter,
  ) {}

  async replaceForDocument(companyId: string, documentId: string, chunks: readonly ChunkWithPostings[]): Promise<void> {
    const tally = emptyTally()
    // Removals and additions go to the statistics in one write (see applyFrequencies).
    for (const [term, n] of await this.removeDocuments(companyId, [documentId])) tally.frequencies.set(term, n)
    await this.stage(companyId, documentId, chunks, tally)
    await this.publishStaged(companyId, documentId, tally)
  }

  async stage(
    companyId: string,
    documentId: string,
    chunks: readonly ChunkWithPostings[],
    tally: IndexTally,
  ): Promise<void> {
    for (const batch of batches(chunks, CHUNK_BATCH)) {
      const rows = batch.map(({ chunk }) => toRow({ ...chunk, companyId, documentId }))
      if (this.insertRows)
        this.insertRows(
          'chunks',
          CHUNK_COLUMNS,
          rows.map((row) => valuesOf(CHUNK_COLUMNS, row)),
        )
      else await this.db.insertInto('chunks').values(rows).execute()
      await yieldToEventLoop()
    }
    const { sizes, frequencies } = tally
    const companyKey = await createCompanyKey(this.db, companyId)
    const documentKey = await createDocumentKey(this.db, companyId, documentId)
    // One block per term: its postings in these chunks, in chunk order.
    const blocks = new Map<string, { postings: BlockPosting[]; maxImpact: number }>()
    for (const { chunk, postings } of [...chunks].sort((a, b) => a.chunk.idx - b.chunk.idx)) {
      const size = sizes.get(chunk.language) ?? { chunks: 0, terms: 0 }
      size.chunks += 1
      size.terms += chunk.termCount
      sizes.set(chunk.language, size)
      for (const { term, tf, impact } of postings) {
        frequencies.set(term, (frequencies.get(term) ?? 0) + 1)
        let block = blocks.get(term)
        if (!block) {
          block = { postings: [], maxImpact: impact }
          blocks.set(term, block)
        }
        block.postings.push({ chunkIdx: chunk.idx, tf, termCount: chunk.termCount })
        if (impact > block.maxImpact) block.maxImpact = impact
      }
    }
    let rows: PostingBlocksTable[] = []
    for (const [term, { postings, maxImpact }] of blocks) {
      const firstChunk = postings[0]?.chunkIdx ?? 0
      rows.push({
        company_key: companyKey,
        term,
        max_impact: maxImpact,
        document_key: documentKey,
        first_chunk: firstChunk,
        posting_count: postings.length,
        postings: encodeBlock(firstChunk, postings),
      })
      if (rows.length === BLOCK_BATCH) {
        await this.insertBlocks(rows)
        rows = []
        // better-sqlite3 runs each statement synchronously: without a pause, writing a large
        // document's postings would starve every request.
        await yieldToEventLoop()
      }
    }
    if (rows.length) await this.insertBlocks(rows)
  }

  private async insertBlocks(rows: readonly PostingBlocksTable[]): Promise<void> {
    if (this.insertRows)
      this.insertRows(
        'posting_blocks',
        BLOCK_COLUMNS,
        rows.map((row) => valuesOf(BLOCK_COLUMNS, row)),
      )
    else await this.db.insertInto('posting_blocks').values(rows).execute()
  }

  async publishStaged(companyId: string, documentId: string, tally: IndexTally): Promise<void> {
    if (tally.sizes.size > 0) {
      await this.db
        .insertInto('index_documents')
        .values(
          [...tally.sizes].map(([language, size]) => ({
            company_id: companyId,
            document_id: documentId,
            language,
            chunk_count: size.chunks,
            total_terms: size.terms,
          })),
        )
        .execute()
    }
    await this.applyFrequencies(companyId, tally.frequencies)
    await recordIndexChanges(this.db, companyId, [documentId])
  }

  async deleteForDocuments(companyId: string, documentIds: readonly string[]): Promise<void> {
    await this.applyFrequencies(companyId, await this.removeDocuments(companyId, documentIds))
    for (const ids of batches([...new Set(documentIds)], ID_BATCH)) {
      await this.db
        .deleteFrom('index_document_keys')
        .where('company_id', '=', companyId)
        .where('document_id', 'in', ids)
        .execute()
    }
    await recordIndexChanges(this.db, companyId, documentIds)
  }

  /**
   * Deletes the documents' chunks, postings and sizes; returns −(chunks holding it) per term removed
   * from the statistics, which count published documents only (those with `index_documents` rows).
   */
  private async removeDocuments(companyId: string, documentIds: readonly string[]): Promise<Map<string, number>> {
    const delta = new Map<string, number>()
    for (const ids of batches([...new Set(documentIds)], ID_BATCH)) {
      const keys = await documentKeys(this.db, companyId, ids)
      if (keys.size > 0) {
        const published = await this.db
          .selectFrom('index_documents')
          .select('document_id')
          .distinct()
          .where('company_id', '=', companyId)
          .where('document_id', 'in', ids)
          .execute()
        const counted = published.flatMap((row) => keys.get(row.document_id) ?? [])
        if (counted.length > 0) {
          const counts = await this.db
            .selectFrom('posting_blocks')
            .select((eb) => ['term', eb.fn.sum<number | string>('posting_count').as('n')])
            .where('document_key', 'in', counted)
            .groupBy('term')
            .execute()
          for (const row of counts) delta.set(row.term, (delta.get(row.term) ?? 0) - Number(row.n))
        }
        await this.db
          .deleteFrom('posting_blocks')
          .where('document_key', 'in', [...keys.values()])
          .execute()
      }
      await this.db.deleteFrom('chunks').where('company_id', '=', companyId).where('document_id', 'in', ids).execute()
      await this.db
        .deleteFrom('index_documents')
        .where('company_id', '=', companyId)
        .where('document_id', 'in', ids)
        .execute()
    }
    return delta
  }

  /**
   * Adds `delta` to the kept document frequencies, in byte order of the terms and at the end of the
   * write, so concurrent PostgreSQL transactions lock the shared rows in one order (no deadlock).
   */
  private async applyFrequencies(companyId: string, delta: ReadonlyMap<string, number>): Promise<void> {
    const changes = [...delta].filter(([, n]) => n !== 0).sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
    for (const batch of batches(changes, STATS_BATCH)) {
      await this.db
        .insertInto('term_stats')
        .values(batch.map(([term, df]) => ({ company_id: companyId, term, df })))
        .onConflict((oc) =>
          oc
            .columns(['company_id', 'term'])
            .doUpdateSet((eb) => ({ df: eb('term_stats.df', '+', eb.ref('excluded.df')) })),
        )
        .execute()
    }
    const emptied = changes.filter(([, n]) => n < 0).map(([term]) => term)
    for (const terms of batches(emptied, ID_BATCH)) {
      await this.db
        .deleteFrom('term_stats')
        .where('company_id', '=', companyId)
        .where('term', 'in', terms)
        .where('df', '<=', 0)
        .execute()
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
    const key = (await documentKeys(this.db, companyId, [documentId])).get(documentId)
    if (key === undefined) return []
    const rows = await this.db
      .selectFrom('posting_blocks')
      .select(['term', 'first_chunk', 'postings'])
      .where('document_key', '=', key)
      .execute()
    const postings: DocumentPosting[] = []
    for (const row of rows) {
      decodeBlock(Number(row.first_chunk), row.postings, (chunkIdx, tf) => {
        postings.push({ chunkIdx, term: row.term, tf })
      })
    }
    return postings.sort((a, b) => a.chunkIdx - b.chunkIdx || (a.term < b.term ? -1 : a.term > b.term ? 1 : 0))
  }
}
