import type { Kysely } from 'kysely'
import type { Timestamp } from '../../lib/clock.js'
import type { JobsRepository, NewJob } from '../ports/jobs.js'
import type { Database } from '../schema.js'

export class KyselyJobsRepository implements JobsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async enqueue(job: NewJob): Promise<void> {
    await this.db
      .insertInto('jobs')
      .values({
        id: job.id,
        company_id: job.companyId,
        kind: job.kind,
        subject_id: job.subjectId,
        payload: JSON.stringify(job.payload),
        state: 'queued',
        attempts: 0,
        max_attempts: job.maxAttempts,
        run_after: job.runAfter,
        lease_owner: null,
        lease_expires_at: null,
        last_error: null,
        created_at: job.createdAt,
        updated_at: job.createdAt,
      })
      .execute()
  }

  async countOpen(companyId: string, subjectId: string): Promise<number> {
    const row = await this.db
      .selectFrom('jobs')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('company_id', '=', companyId)
      .where('subject_id', '=', subjectId)
      .where('state', 'in', ['queued', 'running'])
      .executeTakeFirstOrThrow()
    return Number(row.n)
  }

  async cancelQueued(companyId: string, subjectId: string, now: Timestamp): Promise<void> {
    await this.db
      .updateTable('jobs')
      .set({ state: 'cancelled', updated_at: now })
      .where('company_id', '=', companyId)
      .where('subject_id', '=', subjectId)
      .where('state', '=', 'queued')
      .execute()
  }

  async releaseLeases(owner: string, now: Timestamp): Promise<number> {
    const result = await this.db
      .updateTable('jobs')
      .set({ state: 'queued', lease_owner: null, lease_expires_at: null, run_after: now, updated_at: now })
      .where('lease_owner', '=', owner)
      .where('state', '=', 'running')
      .executeTakeFirst()
    return Number(result.numUpdatedRows)
  }
}
