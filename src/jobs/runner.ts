import { addSeconds, type Clock } from '../lib/clock.js'
import type { ClaimedJob, JobKind, LeaseRef } from '../storage/ports/jobs.js'
import type { Repositories, Store } from '../storage/store.js'
import {
  type JobFailure,
  type JobHandler,
  type JobHandlers,
  type JobLogger,
  type Lease,
  LeaseLostError,
  RunnerStoppedError,
  silentJobLogger,
} from './handler.js'
import { Wakeup } from './wakeup.js'

export interface JobRunnerDeps {
  readonly store: Store
  readonly clock: Clock
  readonly handlers: JobHandlers
  readonly logger?: JobLogger
}

export interface JobRunnerOptions {
  /** Names this runner in job leases and logs; unique per process (`worker-<uuid>`). */
  readonly owner: string
  /** Jobs run at the same time. */
  readonly concurrency: number
  /** A claimed job stays leased this long without a heartbeat; heartbeats come every third of it. */
  readonly leaseMs: number
  /** Wait between polls while there is nothing to claim. */
  readonly pollMs?: number
  /** First retry delay; each further attempt doubles it, up to `retryMaxMs`. */
  readonly retryBaseMs?: number
  readonly retryMaxMs?: number
}

/** Longest wait between polls while claiming keeps failing (the store is unreachable). */
const MAX_ERROR_POLL_MS = 10_000

/** How long stop() waits for jobs it aborted to wind down before releasing their leases anyway. */
const ABORT_WAIT_MS = 5000

interface Running {
  readonly lease: RunnerLease
  readonly task: Promise<void>
}

class RunnerLease implements Lease {
  readonly owner: string
  readonly jobId: string
  readonly attempt: number
  readonly controller = new AbortController()
  lost = false
  completed = false

  constructor(
    readonly job: ClaimedJob,
    owner: string,
    private readonly clock: Clock,
  ) {
    this.owner = owner
    this.jobId = job.id
    this.attempt = job.attempts
  }

  get signal(): AbortSignal {
    return this.controller.signal
  }

  get ref(): LeaseRef {
    return { owner: this.owner, jobId: this.jobId, attempt: this.attempt }
  }

  throwIfLost(): void {
    if (this.lost) throw new LeaseLostError(`lost the lease on job ${this.jobId}`)
  }

  lose(why: string): void {
    if (this.lost) return
    this.lost = true
    this.controller.abort(new LeaseLostError(`lost the lease on job ${this.jobId}: ${why}`))
  }

  async completeIn(tx: Repositories): Promise<void> {
    this.throwIfLost()
    if (!(await tx.jobs.complete(this.ref, this.clock.now()))) {
      throw new LeaseLostError(`job ${this.jobId} is no longer leased by ${this.owner}`)
    }
    this.completed = true
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}

/**
 * Runs jobs from the durable queue: claims up to `concurrency` of them at a time (polling every
 * `pollMs` when idle, at once when a slot frees up), keeps each lease alive with heartbeats, and
 * settles each job: done, retried later with exponential backoff, or failed for good. A job whose
 * lease is lost is abandoned without committing anything; a worker that dies simply stops
 * heartbeating and its jobs are claimed again once their leases expire.
 */
export class JobRunner {
  readonly owner: string
  private readonly logger: JobLogger
  private readonly kinds: JobKind[]
  private readonly active = new Map<string, Running>()
  private readonly wakeup = new Wakeup()
  private loop: Promise<void> | undefined
  private stopping = false

  constructor(
    private readonly deps: JobRunnerDeps,
    private readonly options: JobRunnerOptions,
  ) {
    this.owner = options.owner
    this.logger = deps.logger ?? silentJobLogger
    this.kinds = (Object.keys(deps.handlers) as JobKind[]).filter((kind) => deps.handlers[kind] !== undefined)
  }

  /** Jobs running now. */
  get running(): number {
    return this.active.size
  }

  /** Starts polling; does nothing when already started or when concurrency is 0. */
  start(): void {
    if (this.loop || this.stopping || this.options.concurrency < 1) return
    this.loop = this.poll()
  }

  /** Claims nothing more; running jobs go on. */
  stopClaiming(): void {
    this.stopping = true
    this.wakeup.notify()
  }

  /**
   * Graceful stop: claims nothing more, lets running jobs finish for up to `graceMs`, then aborts
   * the rest and hands their leases back to the queue so another worker takes them at once.
   * Returns the number of leases released.
   */
  async stop(graceMs: number): Promise<number> {
    this.stopClaiming()
    await this.loop
    if (this.active.size > 0 && !(await this.settledWithin(graceMs))) {
      for (const { lease } of this.active.values()) {
        lease.controller.abort(new RunnerStoppedError('the worker is stopping'))
      }
      await this.settledWithin(ABORT_WAIT_MS)
    }
    const released = await this.deps.store.jobs.releaseLeases(this.owner, this.deps.clock.now())
    await Promise.allSettled(Object.values(this.deps.handlers).map((handler) => handler?.close?.()))
    return released
  }

  private async settledWithin(ms: number): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined
    const timeout = new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), ms)
    })
    const all = Promise.allSettled([...this.active.values()].map((running) => running.task)).then(() => true)
    try {
      return await Promise.race([all, timeout])
    } finally {
      clearTimeout(timer)
    }
  }

  private async poll(): Promise<void> {
    const pollMs = this.options.pollMs ?? 250
    let failures = 0
    while (!this.stopping) {
      const free = this.options.concurrency - this.active.size
      let claimed = 0
      if (free > 0) {
        try {
          const jobs = await this.deps.store.jobs.claim(
            this.owner,
            this.kinds,
            this.options.leaseMs,
            this.deps.clock.now(),
            free,
          )
          failures = 0
          claimed = jobs.length
          for (const job of jobs) this.launch(job)
        } catch (error) {
          failures += 1
          this.logger.warn({ owner: this.owner, err: messageOf(error) }, 'claiming jobs failed; will poll again')
        }
      }
      if (this.stopping) break
      // All slots taken: more jobs may be waiting, so look again as soon as one frees up (a finished
      // job wakes the loop); otherwise nothing is ready and the next poll comes after pollMs, later
      // while the store keeps failing.
      const idleMs = failures > 0 ? Math.min(pollMs * 2 ** failures, MAX_ERROR_POLL_MS) : pollMs
      await this.wakeup.wait(claimed === free && failures === 0 ? undefined : idleMs)
    }
  }

  private launch(job: ClaimedJob): void {
    const lease = new RunnerLease(job, this.owner, this.deps.clock)
    this.logger.info(
      { owner: this.owner, jobId: job.id, kind: job.kind, subjectId: job.subjectId, attempt: job.attempts },
      'claimed job',
    )
    const task = this.execute(lease)
      .catch((error: unknown) => {
        this.logger.error({ owner: this.owner, jobId: job.id, err: messageOf(error) }, 'job runtime error')
      })
      .finally(() => {
        this.active.delete(job.id)
        this.wakeup.notify()
      })
    this.active.set(job.id, { lease, task })
  }

  private async execute(lease: RunnerLease): Promise<void> {
    const { job } = lease
    const handler = this.deps.handlers[job.kind]
    const heartbeat = this.heartbeat(lease)
    try {
      if (!handler) throw Object.assign(new Error(`no handler for jobs of kind ${job.kind}`), { permanent: true })
      if (job.attempts > job.maxAttempts) {
        // Every attempt so far died with its worker (the lease expired each time).
        await this.settleFailure(lease, handler, {
          message: job.lastError ?? 'the worker processing it stopped before it finished',
          permanent: false,
          final: true,
          attempts: job.attempts - 1,
        })
        return
      }
      await handler.run(lease)
      if (!lease.completed) {
        lease.throwIfLost()
        if (!(await this.deps.store.jobs.complete(lease.ref, this.deps.clock.now()))) {
          throw new LeaseLostError(`job ${job.id} is no longer leased by ${this.owner}`)
        }
      }
      this.logger.info({ owner: this.owner, jobId: job.id, kind: job.kind, attempt: job.attempts }, 'job done')
    } catch (error) {
      if (lease.lost || error instanceof LeaseLostError) {
        this.logger.warn({ owner: this.owner, jobId: job.id, err: messageOf(error) }, 'job lease lost; result dropped')
        return
      }
      if (lease.signal.aborted) {
        // Stopping: stop() hands the lease back to the queue.
        this.logger.info({ owner: this.owner, jobId: job.id }, 'job interrupted by shutdown')
        return
      }
      if (!handler) return
      const permanent = (error as { permanent?: unknown } | null)?.permanent === true
      await this.settleFailure(lease, handler, {
        message: messageOf(error),
        permanent,
        final: permanent || job.attempts >= job.maxAttempts,
        attempts: job.attempts,
      })
    } finally {
      heartbeat.stop()
    }
  }

  private async settleFailure(lease: RunnerLease, handler: JobHandler, failure: JobFailure): Promise<void> {
    const { job } = lease
    const { clock, store } = this.deps
    const base = this.options.retryBaseMs ?? 5000
    const delayMs = Math.min(base * 2 ** Math.max(0, job.attempts - 1), this.options.retryMaxMs ?? 600_000)
    try {
      await store.transaction(async (tx) => {
        const now = clock.now()
        const settled = failure.final
          ? await tx.jobs.fail(lease.ref, failure.message, now)
          : await tx.jobs.retryLater(lease.ref, failure.message, addSeconds(now, delayMs / 1000), now)
        if (!settled) throw new LeaseLostError(`job ${job.id} is no longer leased by ${this.owner}`)
        await handler.failed(tx, lease, failure)
      })
      const fields = { owner: this.owner, jobId: job.id, kind: job.kind, attempt: job.attempts, err: failure.message }
      if (failure.final) this.logger.warn(fields, 'job failed')
      else this.logger.warn({ ...fields, retryInMs: delayMs }, 'job failed; retry scheduled')
    } catch (error) {
      // Nothing recorded: the lease expires and the job is claimed again.
      this.logger.error({ owner: this.owner, jobId: job.id, err: messageOf(error) }, 'could not record a job failure')
    }
  }

  /** Extends the lease every third of its length; marks it lost when refused or unrenewable in time. */
  private heartbeat(lease: RunnerLease): { stop(): void } {
    const { leaseMs } = this.options
    let lastRenewed = Date.now()
    let beating = false
    const beat = async () => {
      if (beating || lease.lost) return
      beating = true
      try {
        const held = await this.deps.store.jobs.heartbeat(lease.ref, leaseMs, this.deps.clock.now())
        if (held) lastRenewed = Date.now()
        else lease.lose('another worker holds it now')
      } catch (error) {
        if (Date.now() - lastRenewed >= leaseMs)
          lease.lose(`heartbeats failed for the whole lease: ${messageOf(error)}`)
      } finally {
        beating = false
      }
    }
    const timer = setInterval(() => void beat(), Math.max(50, Math.floor(leaseMs / 3)))
    return { stop: () => clearInterval(timer) }
  }
}
