import type { Kysely } from 'kysely'
import type { Dialect } from '../dialect.js'

/**
 * Change log of the lexical index (docs/decisions.md "In-memory lexical index per API process"):
 * every write that changes which chunks of a document are searchable (chunks replaced or deleted,
 * processing state changed, document replaced or deleted) bumps the company's `index_versions`
 * row and names the document in `index_changes` under the new version, in the same transaction.
 * An API process holding the index in memory reads the changes after the version it has, one
 * primary-key range read per query, and reloads only those documents.
 */
export async function up(db: Kysely<unknown>, _dialect: Dialect): Promise<void> {
  await db.schema
    .createTable('index_versions')
    .addColumn('company_id', 'text', (c) => c.primaryKey())
    .addColumn('version', 'integer', (c) => c.notNull())
    .execute()
  await db.schema
    .createTable('index_changes')
    .addColumn('company_id', 'text', (c) => c.notNull())
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('document_id', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('index_changes_pk', ['company_id', 'version', 'document_id'])
    .execute()
}
