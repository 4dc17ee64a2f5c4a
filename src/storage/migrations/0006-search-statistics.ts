import { type Kysely, sql } from 'kysely'
import type { Dialect } from '../dialect.js'

/**
 * Fast lexical search (docs/decisions.md "Lexical search: statistics kept at write time, top-k by
 * impact"):
 * - `chunk_terms.impact`: the BM25 term-frequency part of a posting for a fixed reference length
 *   (200 terms), so each term's postings can be read best first through `chunk_terms_impact` (covering);
 *   `term_count` of the chunk is copied beside it. The old (company_id, term) index is a prefix of
 *   the new one and goes.
 * - `term_stats`: per company and term, the number of chunks holding the term (document
 *   frequency), counted over every chunk in `chunks`, kept by the writes of the chunks.
 * - `index_documents`: per document and language, its chunk count and total length, so corpus
 *   statistics are a sum over documents (filtered to PROCESSED ones) instead of over chunks.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const bytewise = dialect === 'postgres' ? sql`text collate "C"` : 'text'
  const double = dialect === 'postgres' ? sql`double precision` : sql`real`

  await db.schema
    .alterTable('chunk_terms')
    .addColumn('term_count', 'integer', (c) => c.notNull().defaultTo(0))
    .execute()
  await db.schema
    .alterTable('chunk_terms')
    .addColumn('impact', double, (c) => c.notNull().defaultTo(0))
    .execute()
  await sql`update chunk_terms set term_count = (select c.term_count from chunks c where c.id = chunk_terms.chunk_id)`.execute(
    db,
  )
  // k1 = 1.2, b = 0.75, reference length 200 (src/retrieval/bm25.ts impactOf).
  await sql`update chunk_terms set impact = (tf * 2.2) / (tf + 1.2 * (0.25 + 0.75 * term_count / 200.0))`.execute(db)
  await db.schema.dropIndex('chunk_terms_company_term').execute()
  // Covering: a term's postings are read best first without visiting the table.
  await sql`create index chunk_terms_impact on chunk_terms (company_id, term, impact desc, chunk_id, tf, term_count, document_id)`.execute(
    db,
  )

  await db.schema
    .createTable('term_stats')
    .addColumn('company_id', 'text', (c) => c.notNull())
    .addColumn('term', bytewise, (c) => c.notNull())
    .addColumn('df', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('term_stats_pk', ['company_id', 'term'])
    .execute()
  await sql`insert into term_stats (company_id, term, df) select company_id, term, count(*) from chunk_terms group by company_id, term`.execute(
    db,
  )

  await db.schema
    .createTable('index_documents')
    .addColumn('company_id', 'text', (c) => c.notNull())
    .addColumn('document_id', 'text', (c) => c.notNull())
    .addColumn('language', 'text', (c) => c.notNull())
    .addColumn('chunk_count', 'integer', (c) => c.notNull())
    .addColumn('total_terms', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('index_documents_pk', ['company_id', 'document_id', 'language'])
    .execute()
  await sql`insert into index_documents (company_id, document_id, language, chunk_count, total_terms)
    select company_id, document_id, language, count(*), sum(term_count) from chunks
    group by company_id, document_id, language`.execute(db)
}
