import type { Timestamp } from '../../lib/clock.js'

export type JobKind = 'ingest' | 'embed'

export interface NewJob {
  readonly id: string
  readonly companyId: string
  readonly kind: JobKind
  /** The entity the job works on (a document id for `ingest` and `embed`). */
  readonly subjectId: string
  readonly payload: Readonly<Record<string, unknown>>
  readonly maxAttempts: number
  readonly runAfter: Timestamp
  readonly createdAt: Timestamp
}

/** A job as handed to the worker that claimed it. */
export interface ClaimedJob {
  readonly id: string
  readonly companyId: string
  readonly kind: JobKind
  readonly subjectId: string
  readonly payload: Readonly<Record<string, unknown>>
  /** Claims so far, this one included (1 on the first run). */
  readonly attempts: number
  readonly maxAttempts: number
  /** What the previous attempt reported when it failed or was abandoned; null on a first run. */
  readonly lastError: string | null
  readonly leaseExpiresAt: Timestamp
  readonly createdAt: Timestamp
}

/**
 * One claim of a job: the owner (a worker process or embedded runner) and the attempt it claimed.
 * Every state change a worker makes names its lease, and does nothing when the job has since been
 * claimed by someone else (its lease expired) or released, so a late worker cannot overwrite the
 * work of the one that took over.
 */
export interface LeaseRef {
  readonly owner: string
  readonly jobId: string
  readonly attempt: number
}

export interface JobsRepository {
  enqueue(job: NewJob): Promise<void>
  /** Jobs not yet finished for a subject (queued or running). */
  countOpen(companyId: string, subjectId: string, kind?: JobKind): Promise<number>
  /** Cancels the queued jobs of a subject, e.g. when its document is deleted. */
  cancelQueued(companyId: string, subjectId: string, now: Timestamp): Promise<void>
  /**
   * Leases up to `limit` jobs of the given kinds to `owner` until `now + leaseMs`: queued jobs whose
   * `run_after` has come, and running jobs whose lease expired (their worker died). Each claim
   * counts as an attempt. Atomic: concurrent claimers never get the same job (PostgreSQL skips rows
   * another claimer holds; SQLite has one writer).
   */
  claim(owner: string, kinds: readonly JobKind[], leaseMs: number, now: Timestamp, limit: number): Promise<ClaimedJob[]>
  /** Extends the lease to `now + leaseMs`; false when the lease is no longer this one's. */
  heartbeat(lease: LeaseRef, leaseMs: number, now: Timestamp): Promise<boolean>
  /** Marks the job done; false (and no change) when the lease is no longer this one's. */
  complete(lease: LeaseRef, now: Timestamp): Promise<boolean>
  /** Queues the job again for `runAfter`, keeping its attempt count; false when the lease was lost. */
  retryLater(lease: LeaseRef, error: string, runAfter: Timestamp, now: Timestamp): Promise<boolean>
  /** Ends the job for good; false when the lease was lost. */
  fail(lease: LeaseRef, error: string, now: Timestamp): Promise<boolean>
  /**
   * Hands the running jobs leased by `owner` back to the queue at once (graceful shutdown); the
   * interrupted attempt is not counted. Returns how many were released.
   */
  releaseLeases(owner: string, now: Timestamp): Promise<number>
}
