import type { Kysely } from 'kysely'
import type { Database } from '../schema.js'

/**
 * Versions of `index_changes` kept per company. A reader further behind than this reloads the
 * company's whole index instead of the changed documents (it cannot tell what it missed).
 */
export const RETAINED_INDEX_VERSIONS = 10_000
// Rows per INSERT: far below the bound-parameter limits of both engines.
const BATCH = 500

/**
 * Records that the lexical index of these documents changed (migration 0007): bumps the company's
 * version and names the documents under it. Runs in the caller's transaction, before the caller
 * touches the documents' `kb_objects` rows and after any `term_stats` write, so that on PostgreSQL
 * every writer takes the locks in one order (term_stats rows, the version row, document rows) and
 * versions become visible in increasing order (the version row stays locked until commit): a
 * reader that sees version v also sees every change up to v.
 */
export async function recordIndexChanges(
  db: Kysely<Database>,
  companyId: string,
  documentIds: readonly string[],
): Promise<void> {
  const ids = [...new Set(documentIds)]
  if (ids.length === 0) return
  const row = await db
    .insertInto('index_versions')
    .values({ company_id: companyId, version: 1 })
    .onConflict((oc) =>
      oc.column('company_id').doUpdateSet((eb) => ({ version: eb('index_versions.version', '+', 1) })),
    )
    .returning('version')
    .executeTakeFirstOrThrow()
  const version = Number(row.version)
  for (let start = 0; start < ids.length; start += BATCH) {
    await db
      .insertInto('index_changes')
      .values(ids.slice(start, start + BATCH).map((id) => ({ company_id: companyId, version, document_id: id })))
      .execute()
  }
  if (version > RETAINED_INDEX_VERSIONS) {
    await db
      .deleteFrom('index_changes')
      .where('company_id', '=', companyId)
      .where('version', '<=', version - RETAINED_INDEX_VERSIONS)
      .execute()
  }
}
