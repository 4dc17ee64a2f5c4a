import { randomUUID } from 'node:crypto'
import { setTimeout as sleep } from 'node:timers/promises'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { AppContext } from '../../src/app-context.js'
import {
  type JobFailure,
  type JobHandler,
  type Lease,
  LeaseLostError,
  RunnerStoppedError,
} from '../../src/jobs/handler.js'
import { JobRunner, type JobRunnerOptions } from '../../src/jobs/runner.js'
import { addSeconds, systemClock } from '../../src/lib/clock.js'
import { type DatabaseHandle, openDatabase } from '../../src/storage/database.js'
import type { Repositories } from '../../src/storage/store.js'
import { isolatedContext } from '../support/isolated-database.js'
import { storeModes } from '../support/store-modes.js'

/** Polls `probe` until it returns a value other than undefined/false. */
async function until<T>(probe: () => Promise<T | undefined | false>, what: string, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await probe()
    if (value !== undefined && value !== false) return value
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await sleep(20)
  }
}

/** A handler whose behaviour each test sets; it records what happened to every job. */
class FakeHandler implements JobHandler {
  active = 0
  maxActive = 0
  readonly runs: { jobId: string; attempt: number }[] = []
  readonly failures: { jobId: string; failure: JobFailure }[] = []
  readonly aborts: unknown[] = []
  closed = false

  constructor(private readonly body: (lease: Lease, handler: FakeHandler) => Promise<void>) {}

  async run(lease: Lease): Promise<void> {
    this.runs.push({ jobId: lease.jobId, attempt: lease.attempt })
    this.active += 1
    this.maxActive = Math.max(this.maxActive, this.active)
    try {
      await this.body(lease, this)
    } finally {
      this.active -= 1
    }
  }

  async failed(_tx: Repositories, lease: Lease, failure: JobFailure): Promise<void> {
    this.failures.push({ jobId: lease.jobId, failure })
  }

  async close(): Promise<void> {
    this.closed = true
  }
}

/** Resolves when the signal fires, with its reason. */
function aborted(signal: AbortSignal): Promise<unknown> {
  return new Promise((resolve) => {
    if (signal.aborted) resolve(signal.reason)
    else signal.addEventListener('abort', () => resolve(signal.reason), { once: true })
  })
}

describe.each(storeModes())('job runner (%s)', (mode) => {
  let ctx: AppContext
  let close: () => Promise<void>
  let handle: DatabaseHandle
  const runners: JobRunner[] = []

  beforeAll(async () => {
    ;({ ctx, close } = await isolatedContext(mode, `runner_${mode}`))
    handle = openDatabase(ctx.config)
  })
  afterEach(async () => {
    for (const runner of runners.splice(0)) await runner.stop(0)
  })
  afterAll(async () => {
    await handle?.close()
    await close?.()
  })

  function runner(handler: FakeHandler, options: Partial<JobRunnerOptions> = {}): JobRunner {
    const created = new JobRunner(
      { store: ctx.store, clock: systemClock, handlers: { ingest: handler } },
      { owner: `test-${randomUUID()}`, concurrency: 2, leaseMs: 5000, pollMs: 20, retryBaseMs: 50, ...options },
    )
    runners.push(created)
    return created
  }

  async function enqueue(maxAttempts = 3): Promise<string> {
    const id = randomUUID()
    const now = systemClock.now()
    await ctx.store.jobs.enqueue({
      id,
      companyId: randomUUID(),
      kind: 'ingest',
      subjectId: randomUUID(),
      payload: {},
      maxAttempts,
      runAfter: now,
      createdAt: now,
    })
    return id
  }

  function job(id: string) {
    return handle.db
      .selectFrom('jobs')
      .select(['state', 'attempts', 'lease_owner', 'last_error'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow()
  }

  it('runs every job once, never more than `concurrency` at a time, committing through the lease', async () => {
    const handler = new FakeHandler(async (lease) => {
      await sleep(30)
      await ctx.store.transaction((tx) => lease.completeIn(tx))
    })
    const ids: string[] = []
    for (let i = 0; i < 7; i++) ids.push(await enqueue())
    runner(handler, { concurrency: 3 }).start()
    for (const id of ids) await until(async () => (await job(id)).state === 'done', `job ${id} done`)
    expect(handler.runs.map((run) => run.jobId).sort()).toEqual([...ids].sort())
    expect(handler.runs.every((run) => run.attempt === 1)).toBe(true)
    expect(handler.maxActive).toBeLessThanOrEqual(3)
    expect(handler.maxActive).toBeGreaterThan(1)
    for (const id of ids)
      expect(await job(id)).toEqual({ state: 'done', attempts: 1, lease_owner: null, last_error: null })
    expect(handler.failures).toEqual([])
  })

  it('completes a job whose handler returns without committing', async () => {
    const handler = new FakeHandler(async () => {})
    const id = await enqueue()
    runner(handler).start()
    await until(async () => (await job(id)).state === 'done', 'job done')
    expect(handler.runs).toEqual([{ jobId: id, attempt: 1 }])
  })

  it('retries a transient error with backoff until the attempts are used up, then fails it', async () => {
    const handler = new FakeHandler(async () => {
      throw new Error('database unreachable')
    })
    const id = await enqueue(3)
    runner(handler).start()
    await until(async () => (await job(id)).state === 'failed', 'job failed')
    expect(handler.runs.map((run) => run.attempt)).toEqual([1, 2, 3])
    expect(handler.failures.map(({ failure }) => failure)).toEqual([
      { message: 'database unreachable', permanent: false, final: false, attempts: 1 },
      { message: 'database unreachable', permanent: false, final: false, attempts: 2 },
      { message: 'database unreachable', permanent: false, final: true, attempts: 3 },
    ])
    expect(await job(id)).toEqual({
      state: 'failed',
      attempts: 3,
      lease_owner: null,
      last_error: 'database unreachable',
    })
  })

  it('fails a permanent error at once', async () => {
    const handler = new FakeHandler(async () => {
      throw Object.assign(new Error('unsupported file type: application/x-thing'), { permanent: true })
    })
    const id = await enqueue(5)
    runner(handler).start()
    await until(async () => (await job(id)).state === 'failed', 'job failed')
    expect(handler.failures).toEqual([
      {
        jobId: id,
        failure: { message: 'unsupported file type: application/x-thing', permanent: true, final: true, attempts: 1 },
      },
    ])
    expect(await job(id)).toMatchObject({ attempts: 1, last_error: 'unsupported file type: application/x-thing' })
  })

  it('a worker that lost its lease is told so and cannot commit its result', async () => {
    const outcome: { reason?: unknown; commit?: unknown } = {}
    const handler = new FakeHandler(async (lease) => {
      outcome.reason = await aborted(lease.signal)
      outcome.commit = await ctx.store.transaction((tx) => lease.completeIn(tx)).catch((error: unknown) => error)
    })
    const id = await enqueue()
    runner(handler, { leaseMs: 1000 }).start()
    await until(async () => (await job(id)).state === 'running', 'job running')
    // Another worker took the job over (as after an expired lease): the next heartbeat notices.
    await handle.db.updateTable('jobs').set({ lease_owner: 'someone-else' }).where('id', '=', id).execute()
    await until(async () => outcome.commit !== undefined, 'the handler to try to commit')
    expect(outcome.reason).toBeInstanceOf(LeaseLostError)
    expect(outcome.commit).toBeInstanceOf(LeaseLostError)
    expect(await job(id)).toMatchObject({ state: 'running', lease_owner: 'someone-else' })
    expect(handler.failures).toEqual([])
  })

  it('stop() waits for running jobs within the grace period', async () => {
    const handler = new FakeHandler(async (lease) => {
      await sleep(300)
      await ctx.store.transaction((tx) => lease.completeIn(tx))
    })
    const id = await enqueue()
    const started = runner(handler)
    started.start()
    await until(async () => handler.runs.length === 1, 'job started')
    expect(await started.stop(10_000)).toBe(0)
    expect(await job(id)).toMatchObject({ state: 'done', attempts: 1 })
    expect(handler.closed).toBe(true)
  })

  it('stop() aborts what outlives the grace period and hands it back to the queue, attempt not counted', async () => {
    const handler = new FakeHandler(async (lease, self) => {
      self.aborts.push(await aborted(lease.signal))
      throw new Error('interrupted')
    })
    const id = await enqueue()
    const started = runner(handler, { concurrency: 1 })
    started.start()
    await until(async () => handler.runs.length === 1, 'job started')
    const queuedBefore = await enqueue()
    await sleep(100)
    expect(await started.stop(100)).toBe(1)
    expect(handler.aborts).toHaveLength(1)
    expect(handler.aborts[0]).toBeInstanceOf(RunnerStoppedError)
    expect(handler.failures).toEqual([])
    expect(await job(id)).toEqual({ state: 'queued', attempts: 0, lease_owner: null, last_error: null })
    // Its only slot was busy, and a stopped runner claims nothing more.
    expect(await job(queuedBefore)).toMatchObject({ state: 'queued', attempts: 0 })
    // Leave the queue empty for the next test.
    const cleanup = new FakeHandler(async () => {})
    runner(cleanup).start()
    for (const left of [id, queuedBefore]) await until(async () => (await job(left)).state === 'done', 'cleanup')
  })

  it('a job whose every attempt died with its worker ends failed without running again', async () => {
    const id = await enqueue(1)
    // A worker claimed it and vanished: its attempt is spent, and its lease has expired.
    const claimed = await ctx.store.jobs.claim('vanished', ['ingest'], 1000, systemClock.now(), 10)
    expect(claimed.map((j) => j.id)).toEqual([id])
    const past = addSeconds(systemClock.now(), -1)
    await handle.db.updateTable('jobs').set({ lease_expires_at: past }).where('id', '=', id).execute()
    const handler = new FakeHandler(async () => {})
    runner(handler).start()
    await until(async () => (await job(id)).state === 'failed', 'job failed')
    expect(handler.runs).toEqual([])
    expect(handler.failures).toEqual([
      {
        jobId: id,
        failure: {
          message: 'the worker processing it stopped before it finished',
          permanent: false,
          final: true,
          attempts: 1,
        },
      },
    ])
  })
})
