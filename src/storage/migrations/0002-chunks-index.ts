import { type Kysely, sql } from 'kysely'
import type { Dialect } from '../dialect.js'

/**
 * Chunks of processed documents and the postings of the lexical (BM25) index. The statistics BM25
 * needs (chunk count, average length, document frequencies) are computed from these rows at query
 * time, so concurrent ingestion never contends on shared counter rows (docs/decisions.md).
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  // Terms compare byte-wise on both engines, so any ordering by term is identical.
  const bytewise = dialect === 'postgres' ? sql`text collate "C"` : 'text'

  await db.schema
    .createTable('chunks')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull())
    .addColumn('document_id', 'text', (c) => c.notNull().references('kb_objects.id').onDelete('cascade'))
    .addColumn('idx', 'integer', (c) => c.notNull())
    .addColumn('text', 'text', (c) => c.notNull())
    .addColumn('token_count', 'integer', (c) => c.notNull())
    .addColumn('term_count', 'integer', (c) => c.notNull())
    .addColumn('page_number', 'text')
    .addColumn('row_idx', 'text')
    .addColumn('metadata', 'text', (c) => c.notNull())
    .addColumn('language', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('chunks_document_idx', ['document_id', 'idx'])
    .execute()
  await db.schema.createIndex('chunks_company_document').on('chunks').columns(['company_id', 'document_id']).execute()

  await db.schema
    .createTable('chunk_terms')
    .addColumn('company_id', 'text', (c) => c.notNull())
    .addColumn('term', bytewise, (c) => c.notNull())
    .addColumn('chunk_id', 'text', (c) => c.notNull())
    .addColumn('document_id', 'text', (c) => c.notNull())
    .addColumn('tf', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('chunk_terms_pk', ['chunk_id', 'term'])
    .execute()
  await db.schema.createIndex('chunk_terms_company_term').on('chunk_terms').columns(['company_id', 'term']).execute()
}
