import type { Kysely } from 'kysely'
import type { Database } from '../schema.js'

/**
 * The integer keys postings name companies and documents by (migration 0008). Created on a
 * company's or document's first write; a concurrent creator waits on the unique index and then
 * reads the row the other committed.
 */

/** The company's key, as a query (a subquery of the reads of its postings). */
export function companyKeyQuery(db: Kysely<Database>, companyId: string) {
  return db.selectFrom('index_companies').select('key').where('company_id', '=', companyId)
}

/** The document's id, as a query (a subquery of the reads of a document's chunks by key). */
export function documentIdQuery(db: Kysely<Database>, documentKey: number) {
  return db.selectFrom('index_document_keys').select('document_id').where('key', '=', documentKey)
}

async function companyKey(db: Kysely<Database>, companyId: string): Promise<number | undefined> {
  const row = await companyKeyQuery(db, companyId).executeTakeFirst()
  return row ? Number(row.key) : undefined
}

export async function createCompanyKey(db: Kysely<Database>, companyId: string): Promise<number> {
  const existing = await companyKey(db, companyId)
  if (existing !== undefined) return existing
  await db
    .insertInto('index_companies')
    .values({ company_id: companyId })
    .onConflict((oc) => oc.column('company_id').doNothing())
    .execute()
  return (await companyKey(db, companyId)) as number
}

/** The keys of those of these documents of the company that have one. */
export async function documentKeys(
  db: Kysely<Database>,
  companyId: string,
  documentIds: readonly string[],
): Promise<Map<string, number>> {
  if (documentIds.length === 0) return new Map()
  const rows = await db
    .selectFrom('index_document_keys')
    .select(['key', 'document_id'])
    .where('company_id', '=', companyId)
    .where('document_id', 'in', [...documentIds])
    .execute()
  return new Map(rows.map((row) => [row.document_id, Number(row.key)]))
}

export async function createDocumentKey(db: Kysely<Database>, companyId: string, documentId: string): Promise<number> {
  const existing = (await documentKeys(db, companyId, [documentId])).get(documentId)
  if (existing !== undefined) return existing
  await db
    .insertInto('index_document_keys')
    .values({ company_id: companyId, document_id: documentId })
    .onConflict((oc) => oc.column('document_id').doNothing())
    .execute()
  const created = (await documentKeys(db, companyId, [documentId])).get(documentId)
  // document_id is unique across companies: another company's row means a foreign id.
  if (created === undefined) throw new Error(`document ${documentId} is indexed under another company`)
  return created
}
