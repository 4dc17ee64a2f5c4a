import { type Kysely, sql } from 'kysely'
import type { Dialect } from '../dialect.js'
import { encodeBlock } from '../kysely/posting-blocks.js'

const INSERT_ROWS = 2000

/**
 * Postings in blocks (docs/decisions.md "Postings in blocks"): `postings` held a row per (chunk,
 * term) in two B-trees, one of them in term order, so each write of a document's chunks touched a
 * leaf page of that tree for almost every posting, and writing them was most of the main thread's
 * work during ingestion. `posting_blocks` holds the postings of one term in the chunks of one write
 * of one document as one row (the bytes of src/storage/kysely/posting-blocks.ts, from `first_chunk`
 * on), a ninth of the rows for the financebench filings:
 * - `max_impact`, the largest impact in the block, orders a term's blocks best first: what is left
 *   of a list after a block is bounded by that block's `max_impact`.
 * - SQLite: clustered in read order (company, term, max_impact desc, document, first chunk), and an
 *   index by (document, term, first chunk) for the reads and deletes of a document's postings.
 * - PostgreSQL: the (document, term, first chunk) primary key and the read-order index (not
 *   covering: a block may be larger than an index entry can be).
 * Existing postings become one block per term and document.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const postgres = dialect === 'postgres'
  const bytewise = postgres ? sql`text collate "C"` : sql`text`
  const double = postgres ? sql`double precision` : sql`real`
  const bytes = postgres ? sql`bytea` : sql`blob`
  await sql`create table posting_blocks (
    company_key integer not null,
    term ${bytewise} not null,
    max_impact ${double} not null,
    document_key integer not null,
    first_chunk integer not null,
    posting_count integer not null,
    postings ${bytes} not null,
    ${
      postgres
        ? sql`primary key (document_key, term, first_chunk))`
        : sql`primary key (company_key, term, max_impact desc, document_key, first_chunk)) without rowid`
    }`.execute(db)
  if (postgres)
    await sql`create index posting_blocks_read on posting_blocks (company_key, term, max_impact desc, document_key, first_chunk)`.execute(
      db,
    )
  else await sql`create index posting_blocks_document on posting_blocks (document_key, term, first_chunk)`.execute(db)

  const keys = await sql<{ key: number }>`select key from index_document_keys order by key`.execute(db)
  for (const { key } of keys.rows) await convertDocument(db, Number(key))
  await sql`drop table postings`.execute(db)
}

interface PostingRow {
  company_key: number
  term: string
  impact: number
  chunk_idx: number
  tf: number
  term_count: number
}

/** The document's postings as one block per term. */
async function convertDocument(db: Kysely<unknown>, documentKey: number): Promise<void> {
  const { rows } = await sql<PostingRow>`select company_key, term, impact, chunk_idx, tf, term_count
    from postings where document_key = ${documentKey} order by term, chunk_idx`.execute(db)
  const blocks: Array<ReturnType<typeof sql>> = []
  for (let start = 0; start < rows.length; ) {
    const first = rows[start] as PostingRow
    let end = start
    let maxImpact = 0
    while (end < rows.length && (rows[end] as PostingRow).term === first.term) {
      maxImpact = Math.max(maxImpact, Number((rows[end] as PostingRow).impact))
      end++
    }
    const postings = rows
      .slice(start, end)
      .map((row) => ({ chunkIdx: Number(row.chunk_idx), tf: Number(row.tf), termCount: Number(row.term_count) }))
    const firstChunk = postings[0]?.chunkIdx ?? 0
    blocks.push(
      sql`(${Number(first.company_key)}, ${first.term}, ${maxImpact}, ${documentKey}, ${firstChunk}, ${postings.length}, ${encodeBlock(firstChunk, postings)})`,
    )
    start = end
  }
  for (let at = 0; at < blocks.length; at += INSERT_ROWS) {
    await sql`insert into posting_blocks (company_key, term, max_impact, document_key, first_chunk, posting_count, postings)
      values ${sql.join(blocks.slice(at, at + INSERT_ROWS))}`.execute(db)
  }
}
