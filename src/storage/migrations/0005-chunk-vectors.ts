import { type Kysely, sql } from 'kysely'
import type { Dialect } from '../dialect.js'

/**
 * Dense vectors of chunks (LANTERN_EMBEDDINGS), one per chunk and model: Float32 little-endian in
 * a blob/bytea. Plain arrays rather than sqlite-vec or pgvector: both stores then hold and score
 * the same bytes the same way (identical rankings), and no native extension has to be present.
 * Deleted with their chunk, so a deleted or reprocessed document never leaves stale vectors.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const bytes = dialect === 'postgres' ? sql`bytea` : sql`blob`
  await db.schema
    .createTable('chunk_vectors')
    .addColumn('chunk_id', 'text', (c) => c.primaryKey().references('chunks.id').onDelete('cascade'))
    .addColumn('company_id', 'text', (c) => c.notNull())
    .addColumn('document_id', 'text', (c) => c.notNull())
    .addColumn('model', 'text', (c) => c.notNull())
    .addColumn('dims', 'integer', (c) => c.notNull())
    .addColumn('vector', bytes, (c) => c.notNull())
    .execute()
  await db.schema
    .createIndex('chunk_vectors_company_model')
    .on('chunk_vectors')
    .columns(['company_id', 'model', 'document_id'])
    .execute()
}
