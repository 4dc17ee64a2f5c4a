import type { ClaimedJob, JobKind, LeaseRef } from '../storage/ports/jobs.js'
import type { Repositories } from '../storage/store.js'

/** The lease on a job is gone: it expired and another worker took the job, or it was released. */
export class LeaseLostError extends Error {
  override readonly name = 'LeaseLostError'
}

/** The runner is stopping and no longer waits for this job; its lease is handed back to the queue. */
export class RunnerStoppedError extends Error {
  override readonly name = 'RunnerStoppedError'
}

/** A claimed job as its handler sees it. */
export interface Lease extends LeaseRef {
  readonly job: ClaimedJob
  /**
   * Aborted when the lease is lost (reason LeaseLostError) or when the runner stops without waiting
   * any longer (reason RunnerStoppedError). Long work should stop when it fires.
   */
  readonly signal: AbortSignal
  /** Throws LeaseLostError when the heartbeat found the lease lost. */
  throwIfLost(): void
  /**
   * Marks the job done inside `tx`, so the handler's result and the job's completion commit
   * together. Throws LeaseLostError (rolling `tx` back) when this lease no longer holds the job:
   * the result of a worker that lost its lease is never committed. Call it first in the
   * transaction: on PostgreSQL it locks the job row until the commit.
   */
  completeIn(tx: Repositories): Promise<void>
}

/** How a job failed, as handed to its handler to record on the job's subject. */
export interface JobFailure {
  /** Readable text, no stack. */
  readonly message: string
  /** Retrying cannot help (e.g. an unsupported or damaged file). */
  readonly permanent: boolean
  /** No retry follows: the job ends failed. */
  readonly final: boolean
  /** Attempts made, the failed one included. */
  readonly attempts: number
}

/** What to do for one job kind. */
export interface JobHandler {
  /**
   * Does the job. It may commit its result with `lease.completeIn(tx)`; if it returns without
   * doing so, the runner completes the job. An error whose `permanent` property is true fails the
   * job at once; any other error is retried with backoff until the job's attempts are used up.
   */
  run(lease: Lease): Promise<void>
  /**
   * Records a failure on the job's subject, inside the transaction that fails or requeues the job
   * (it rolls back with it). `final` tells whether a retry follows.
   */
  failed(tx: Repositories, lease: Lease, failure: JobFailure): Promise<void>
  /** Frees what the handler holds (threads, connections) once the runner has stopped. */
  close?(): Promise<void>
}

/** Handlers by job kind: the runner claims only the kinds it has a handler for. */
export type JobHandlers = Partial<Record<JobKind, JobHandler>>

/** Structured log lines (pino's signature); the runtime never logs document content. */
export interface JobLogger {
  info(fields: object, message: string): void
  warn(fields: object, message: string): void
  error(fields: object, message: string): void
}

export const silentJobLogger: JobLogger = { info: () => {}, warn: () => {}, error: () => {} }
