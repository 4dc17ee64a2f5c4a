import type { Kysely } from 'kysely'
import type { Dialect } from '../dialect.js'

/**
 * Indexes the job runtime needs beyond 0001: finding running jobs whose lease expired (their
 * worker died) and the leases of one owner (released at shutdown), without scanning every job.
 */
export async function up(db: Kysely<unknown>, _dialect: Dialect): Promise<void> {
  await db.schema.createIndex('jobs_leases').on('jobs').columns(['state', 'lease_expires_at']).execute()
  await db.schema.createIndex('jobs_owner').on('jobs').columns(['lease_owner']).execute()
}
