import { type ExpressionBuilder, type Kysely, type Selectable, sql } from 'kysely'
import { addSeconds, type Timestamp } from '../../lib/clock.js'
import type { Dialect } from '../dialect.js'
import type { ClaimedJob, JobKind, JobsRepository, LeaseRef, NewJob } from '../ports/jobs.js'
import type { Database, JobsTable } from '../schema.js'

/** Longest error text kept on a job row. */
const MAX_ERROR_LENGTH = 2000

function toClaimed(row: Selectable<JobsTable>): ClaimedJob {
  return {
    id: row.id,
    companyId: row.company_id,
    kind: row.kind as JobKind,
    subjectId: row.subject_id,
    payload: JSON.parse(row.payload) as Record<string, unknown>,
    attempts: Number(row.attempts),
    maxAttempts: Number(row.max_attempts),
    lastError: row.last_error,
    leaseExpiresAt: row.lease_expires_at ?? '',
    createdAt: row.created_at,
  }
}

/** Queued jobs whose time has come, and running jobs whose lease expired (their worker died). */
function claimable(kinds: readonly JobKind[], now: Timestamp) {
  return (eb: ExpressionBuilder<Database, 'jobs'>) =>
    eb.and([
      eb('kind', 'in', [...kinds]),
      eb.or([
        eb.and([eb('state', '=', 'queued'), eb('run_after', '<=', now)]),
        eb.and([eb('state', '=', 'running'), eb('lease_expires_at', '<', now)]),
      ]),
    ])
}

/** Rows still held by exactly this lease. */
function heldBy(lease: LeaseRef) {
  return (eb: ExpressionBuilder<Database, 'jobs'>) =>
    eb.and([
      eb('id', '=', lease.jobId),
      eb('lease_owner', '=', lease.owner),
      eb('attempts', '=', lease.attempt),
      eb('state', '=', 'running'),
    ])
}

export class KyselyJobsRepository implements JobsRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: Dialect,
  ) {}

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

  async countOpen(companyId: string, subjectId: string, kind?: JobKind): Promise<number> {
    let query = this.db
      .selectFrom('jobs')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('company_id', '=', companyId)
      .where('subject_id', '=', subjectId)
      .where('state', 'in', ['queued', 'running'])
    if (kind) query = query.where('kind', '=', kind)
    const row = await query.executeTakeFirstOrThrow()
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

  async claim(
    owner: string,
    kinds: readonly JobKind[],
    leaseMs: number,
    now: Timestamp,
    limit: number,
  ): Promise<ClaimedJob[]> {
    if (limit < 1 || kinds.length === 0) return []
    const expires = addSeconds(now, leaseMs / 1000)
    const rows = this.dialect === 'postgres' ? await this.claimPostgres(owner, kinds, expires, now, limit) : []
    if (this.dialect === 'sqlite') {
      // One statement on SQLite's single writer: nobody can claim in between.
      const candidates = this.db
        .selectFrom('jobs')
        .select('id')
        .where(claimable(kinds, now))
        .orderBy('run_after')
        .orderBy('created_at')
        .orderBy('id')
        .limit(limit)
      rows.push(
        ...(await this.db
          .updateTable('jobs')
          .set((eb) => ({
            state: 'running',
            lease_owner: owner,
            lease_expires_at: expires,
            attempts: eb('attempts', '+', 1),
            updated_at: now,
          }))
          .where('id', 'in', candidates)
          .returningAll()
          .execute()),
      )
    }
    return rows.map(toClaimed).sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id))
  }

  /**
   * The candidates are picked once, in a materialised CTE, locking them and skipping rows other
   * claimers hold; a plain `IN (subquery … LIMIT n)` may be evaluated again per row and claim more.
   */
  private async claimPostgres(
    owner: string,
    kinds: readonly JobKind[],
    expires: Timestamp,
    now: Timestamp,
    limit: number,
  ): Promise<Selectable<JobsTable>[]> {
    const result = await sql<Selectable<JobsTable>>`
      with next as materialized (
        select id from jobs
        where kind in (${sql.join(kinds)})
          and ((state = 'queued' and run_after <= ${now}) or (state = 'running' and lease_expires_at < ${now}))
        order by run_after, created_at, id
        limit ${limit}
        for update skip locked
      )
      update jobs
      set state = 'running', lease_owner = ${owner}, lease_expires_at = ${expires},
          attempts = jobs.attempts + 1, updated_at = ${now}
      from next
      where jobs.id = next.id
      returning jobs.*`.execute(this.db)
    return result.rows
  }

  async heartbeat(lease: LeaseRef, leaseMs: number, now: Timestamp): Promise<boolean> {
    const result = await this.db
      .updateTable('jobs')
      .set({ lease_expires_at: addSeconds(now, leaseMs / 1000), updated_at: now })
      .where(heldBy(lease))
      .executeTakeFirst()
    return Number(result.numUpdatedRows) === 1
  }

  async complete(lease: LeaseRef, now: Timestamp): Promise<boolean> {
    const result = await this.db
      .updateTable('jobs')
      .set({ state: 'done', lease_owner: null, lease_expires_at: null, updated_at: now })
      .where(heldBy(lease))
      .executeTakeFirst()
    return Number(result.numUpdatedRows) === 1
  }

  async retryLater(lease: LeaseRef, error: string, runAfter: Timestamp, now: Timestamp): Promise<boolean> {
    const result = await this.db
      .updateTable('jobs')
      .set({
        state: 'queued',
        lease_owner: null,
        lease_expires_at: null,
        run_after: runAfter,
        last_error: error.slice(0, MAX_ERROR_LENGTH),
        updated_at: now,
      })
      .where(heldBy(lease))
      .executeTakeFirst()
    return Number(result.numUpdatedRows) === 1
  }

  async fail(lease: LeaseRef, error: string, now: Timestamp): Promise<boolean> {
    const result = await this.db
      .updateTable('jobs')
      .set({
        state: 'failed',
        lease_owner: null,
        lease_expires_at: null,
        last_error: error.slice(0, MAX_ERROR_LENGTH),
        updated_at: now,
      })
      .where(heldBy(lease))
      .executeTakeFirst()
    return Number(result.numUpdatedRows) === 1
  }

  async releaseLeases(owner: string, now: Timestamp): Promise<number> {
    const result = await this.db
      .updateTable('jobs')
      .set((eb) => ({
        state: 'queued',
        lease_owner: null,
        lease_expires_at: null,
        run_after: now,
        // The interrupted attempt was the process stopping, not the job failing.
        attempts: eb
          .case()
          .when('attempts', '>', 0)
          .then(eb('attempts', '-', 1))
          .else(0)
          .end(),
        updated_at: now,
      }))
      .where('lease_owner', '=', owner)
      .where('state', '=', 'running')
      .executeTakeFirst()
    return Number(result.numUpdatedRows)
  }
}
