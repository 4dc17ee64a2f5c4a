import type { Kysely } from 'kysely'
import type { Dialect } from '../dialect.js'

/**
 * Document cards (docs/knowledge-base.md "Document cards"): what a document is about, who and when,
 * as JSON text (`card`, null until the document is first processed), and whether it was read from
 * the document (`ai`) or corrected by a user (`manual`, kept when the document is processed again).
 */
export async function up(db: Kysely<unknown>, _dialect: Dialect): Promise<void> {
  await db.schema.alterTable('kb_objects').addColumn('card', 'text').execute()
  await db.schema
    .alterTable('kb_objects')
    .addColumn('card_type', 'text', (c) => c.notNull().defaultTo('ai'))
    .execute()
}
