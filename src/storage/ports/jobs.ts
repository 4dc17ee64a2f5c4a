import type { Timestamp } from '../../lib/clock.js'

export type JobKind = 'ingest'

export interface NewJob {
  readonly id: string
  readonly companyId: string
  readonly kind: JobKind
  /** The entity the job works on (a document id for `ingest`). */
  readonly subjectId: string
  readonly payload: Readonly<Record<string, unknown>>
  readonly maxAttempts: number
  readonly runAfter: Timestamp
  readonly createdAt: Timestamp
}

export interface JobsRepository {
  enqueue(job: NewJob): Promise<void>
  /** Jobs not yet finished for a subject (queued or running). */
  countOpen(companyId: string, subjectId: string): Promise<number>
  /** Cancels the queued jobs of a subject, e.g. when its document is deleted. */
  cancelQueued(companyId: string, subjectId: string, now: Timestamp): Promise<void>
  /** Hands the running jobs leased by `owner` back to the queue (graceful shutdown). */
  releaseLeases(owner: string, now: Timestamp): Promise<number>
}
