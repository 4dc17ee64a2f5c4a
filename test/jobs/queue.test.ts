import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AppContext } from '../../src/app-context.js'
import { addSeconds, systemClock, type Timestamp } from '../../src/lib/clock.js'
import { type DatabaseHandle, openDatabase } from '../../src/storage/database.js'
import type { ClaimedJob, LeaseRef } from '../../src/storage/ports/jobs.js'
import { isolatedContext } from '../support/isolated-database.js'
import { storeModes } from '../support/store-modes.js'

const LEASE_MS = 10_000

function leaseOf(job: ClaimedJob, owner: string): LeaseRef {
  return { owner, jobId: job.id, attempt: job.attempts }
}

describe.each(storeModes())('job queue (%s)', (mode) => {
  let ctx: AppContext
  let close: () => Promise<void>
  let handle: DatabaseHandle
  // The queue is this file's own; tests run one after the other and leave it empty.
  beforeAll(async () => {
    ;({ ctx, close } = await isolatedContext(mode, `queue_${mode}`))
    handle = openDatabase(ctx.config)
  })
  afterAll(async () => {
    await handle?.close()
    await close?.()
  })

  async function enqueue(now: Timestamp, options: { runAfter?: Timestamp; maxAttempts?: number } = {}) {
    const id = randomUUID()
    await ctx.store.jobs.enqueue({
      id,
      companyId: randomUUID(),
      kind: 'ingest',
      subjectId: randomUUID(),
      payload: { documentId: 'x' },
      maxAttempts: options.maxAttempts ?? 3,
      runAfter: options.runAfter ?? now,
      createdAt: now,
    })
    return id
  }

  async function row(id: string) {
    return handle.db
      .selectFrom('jobs')
      .select(['state', 'attempts', 'lease_owner', 'lease_expires_at', 'run_after', 'last_error'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow()
  }

  /** Claims everything claimable at `now` so the next test starts from an empty queue. */
  async function drain(now: Timestamp) {
    const far = addSeconds(now, 10 * 365 * 24 * 3600)
    for (;;) {
      const jobs = await ctx.store.jobs.claim('drain', ['ingest'], 1000, far, 100)
      if (jobs.length === 0) return
      for (const job of jobs) await ctx.store.jobs.complete(leaseOf(job, 'drain'), far)
    }
  }

  it('claims due jobs oldest first, up to the limit, each as attempt 1 with a lease', async () => {
    const t0 = systemClock.now()
    const first = await enqueue(t0)
    const second = await enqueue(addSeconds(t0, 0.001))
    const later = await enqueue(t0, { runAfter: addSeconds(t0, 60) })
    const now = addSeconds(t0, 1)
    const claimed = await ctx.store.jobs.claim('owner-a', ['ingest'], LEASE_MS, now, 1)
    expect(claimed.map((job) => job.id)).toEqual([first])
    expect(claimed[0]).toMatchObject({ kind: 'ingest', attempts: 1, maxAttempts: 3, lastError: null })
    expect(claimed[0]?.payload).toEqual({ documentId: 'x' })
    expect(claimed[0]?.leaseExpiresAt).toBe(addSeconds(now, LEASE_MS / 1000))
    expect(await row(first)).toMatchObject({ state: 'running', attempts: 1, lease_owner: 'owner-a' })

    const rest = await ctx.store.jobs.claim('owner-b', ['ingest'], LEASE_MS, now, 10)
    expect(rest.map((job) => job.id)).toEqual([second])
    expect(await row(later)).toMatchObject({ state: 'queued', attempts: 0, lease_owner: null })
    expect(await ctx.store.jobs.claim('owner-b', ['ingest'], LEASE_MS, now, 10)).toEqual([])
    expect(await ctx.store.jobs.claim('owner-b', [], LEASE_MS, addSeconds(t0, 120), 10)).toEqual([])
    await drain(now)
  })

  it('reclaims a job whose lease expired; the old lease can neither heartbeat nor complete it', async () => {
    const t0 = systemClock.now()
    const id = await enqueue(t0)
    const [mine] = await ctx.store.jobs.claim('owner-a', ['ingest'], 2000, t0, 1)
    if (!mine) throw new Error('nothing claimed')
    const leaseA = leaseOf(mine, 'owner-a')
    // Within the lease: nobody else gets it, and a heartbeat extends it.
    expect(await ctx.store.jobs.claim('owner-b', ['ingest'], 2000, addSeconds(t0, 1.5), 10)).toEqual([])
    expect(await ctx.store.jobs.heartbeat(leaseA, 2000, addSeconds(t0, 1.5))).toBe(true)
    expect(await ctx.store.jobs.claim('owner-b', ['ingest'], 2000, addSeconds(t0, 3), 10)).toEqual([])
    // Owner A goes silent; its lease (extended to t0 + 3.5 s) lapses.
    const [theirs] = await ctx.store.jobs.claim('owner-b', ['ingest'], 2000, addSeconds(t0, 4), 10)
    expect(theirs).toMatchObject({ id, attempts: 2 })
    expect(await row(id)).toMatchObject({ state: 'running', attempts: 2, lease_owner: 'owner-b' })
    expect(await ctx.store.jobs.heartbeat(leaseA, 2000, addSeconds(t0, 4.1))).toBe(false)
    expect(await ctx.store.jobs.complete(leaseA, addSeconds(t0, 4.1))).toBe(false)
    expect(await ctx.store.jobs.fail(leaseA, 'late', addSeconds(t0, 4.1))).toBe(false)
    expect(await row(id)).toMatchObject({ state: 'running', lease_owner: 'owner-b' })
    if (!theirs) throw new Error('nothing reclaimed')
    expect(await ctx.store.jobs.complete(leaseOf(theirs, 'owner-b'), addSeconds(t0, 5))).toBe(true)
    expect(await row(id)).toMatchObject({ state: 'done', attempts: 2, lease_owner: null, lease_expires_at: null })
    expect(await ctx.store.jobs.claim('owner-c', ['ingest'], 2000, addSeconds(t0, 60), 10)).toEqual([])
  })

  it('a reclaim by the same owner is a new lease: the earlier attempt of that owner is out', async () => {
    const t0 = systemClock.now()
    const id = await enqueue(t0)
    const [first] = await ctx.store.jobs.claim('owner-a', ['ingest'], 1000, t0, 1)
    const [second] = await ctx.store.jobs.claim('owner-a', ['ingest'], 1000, addSeconds(t0, 2), 1)
    if (!first || !second) throw new Error('nothing claimed')
    expect(second).toMatchObject({ id, attempts: 2 })
    expect(await ctx.store.jobs.complete(leaseOf(first, 'owner-a'), addSeconds(t0, 2.1))).toBe(false)
    expect(await ctx.store.jobs.complete(leaseOf(second, 'owner-a'), addSeconds(t0, 2.1))).toBe(true)
  })

  it('retryLater queues the job again after a delay with its error; fail ends it; attempts are kept', async () => {
    const t0 = systemClock.now()
    const id = await enqueue(t0)
    const [job] = await ctx.store.jobs.claim('owner-a', ['ingest'], LEASE_MS, t0, 1)
    if (!job) throw new Error('nothing claimed')
    const retryAt = addSeconds(t0, 30)
    expect(await ctx.store.jobs.retryLater(leaseOf(job, 'owner-a'), 'store unreachable', retryAt, t0)).toBe(true)
    expect(await row(id)).toMatchObject({
      state: 'queued',
      attempts: 1,
      lease_owner: null,
      run_after: retryAt,
      last_error: 'store unreachable',
    })
    expect(await ctx.store.jobs.claim('owner-a', ['ingest'], LEASE_MS, addSeconds(t0, 29), 10)).toEqual([])
    const [again] = await ctx.store.jobs.claim('owner-b', ['ingest'], LEASE_MS, addSeconds(t0, 31), 10)
    expect(again).toMatchObject({ id, attempts: 2, lastError: 'store unreachable' })
    if (!again) throw new Error('nothing claimed')
    expect(await ctx.store.jobs.fail(leaseOf(again, 'owner-b'), 'gave up', addSeconds(t0, 32))).toBe(true)
    expect(await row(id)).toMatchObject({ state: 'failed', attempts: 2, last_error: 'gave up', lease_owner: null })
    expect(await ctx.store.jobs.countOpen(again.companyId, again.subjectId)).toBe(0)
  })

  it('releaseLeases hands an owner’s running jobs back at once without counting the attempt', async () => {
    const t0 = systemClock.now()
    const ids = [await enqueue(t0), await enqueue(t0)]
    const other = await enqueue(addSeconds(t0, 0.01))
    const mine = await ctx.store.jobs.claim('owner-a', ['ingest'], LEASE_MS, t0, 3)
    expect(mine.map((job) => job.id).sort()).toEqual([...ids].sort())
    const [theirs] = await ctx.store.jobs.claim('owner-b', ['ingest'], LEASE_MS, addSeconds(t0, 0.01), 1)
    expect(theirs?.id).toBe(other)
    const now = addSeconds(t0, 1)
    expect(await ctx.store.jobs.releaseLeases('owner-a', now)).toBe(2)
    for (const id of ids) {
      expect(await row(id)).toMatchObject({ state: 'queued', attempts: 0, lease_owner: null, run_after: now })
    }
    expect(await row(other)).toMatchObject({ state: 'running', lease_owner: 'owner-b' })
    const again = await ctx.store.jobs.claim('owner-c', ['ingest'], LEASE_MS, now, 10)
    expect(again.map((job) => [job.id, job.attempts]).sort()).toEqual(ids.map((id) => [id, 1]).sort())
    await drain(now)
  })

  it('concurrent claimers never get the same job', async () => {
    const t0 = systemClock.now()
    const ids = new Set<string>()
    for (let i = 0; i < 30; i++) ids.add(await enqueue(t0))
    const now = addSeconds(t0, 1)
    const owners = ['c1', 'c2', 'c3', 'c4', 'c5']
    const claimedBy = await Promise.all(
      owners.map(async (owner) => {
        const got: string[] = []
        for (let round = 0; round < 10; round++) {
          const jobs = await ctx.store.jobs.claim(owner, ['ingest'], LEASE_MS, now, 2)
          got.push(...jobs.map((job) => job.id))
        }
        return got
      }),
    )
    const all = claimedBy.flat()
    expect(new Set(all).size).toBe(all.length)
    expect(new Set(all)).toEqual(ids)
    await drain(now)
  })
})
