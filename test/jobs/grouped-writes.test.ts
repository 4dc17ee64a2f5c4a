import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { indexWritesFor } from '../../src/ingestion/jobs/grouped-writes.js'
import { systemClock } from '../../src/lib/clock.js'
import type { Repositories } from '../../src/storage/store.js'
import { createTenant } from '../support/factories.js'
import { storeModes } from '../support/store-modes.js'
import { startTestApp, type TestApp } from '../support/test-app.js'

describe.each(storeModes())('%s: ingestion index writes', (mode) => {
  let t: TestApp
  beforeAll(async () => {
    t = await startTestApp(mode)
  })
  afterAll(async () => t?.close())

  /** A write that inserts a tag named `name` (visible only if its transaction commits), then maybe fails. */
  function writer(companyId: string, maxChunks: number) {
    const writes = indexWritesFor(t.ctx.store, maxChunks)
    const transactions: Repositories[] = []
    const write = (name: string, options: { weight?: number; fail?: boolean } = {}) =>
      writes.run(async (tx) => {
        transactions.push(tx)
        const now = systemClock.now()
        await tx.tags.insert({ id: randomUUID(), companyId, name, createdAt: now, updatedAt: now })
        if (options.fail) throw new Error(`${name} failed`)
        return name
      }, options.weight ?? 1)
    const tags = async () => (await t.ctx.store.tags.list(companyId, undefined, 0, 50)).map((tag) => tag.name)
    return { write, transactions, tags }
  }

  it('writes handed over together share a transaction on SQLite only, within the weight', async () => {
    const tenant = await createTenant(t)
    const { write, transactions, tags } = writer(tenant.companyId, 10)
    expect(await Promise.all([write('alpha', { weight: 4 }), write('beta', { weight: 4 }), write('gamma')])).toEqual([
      'alpha',
      'beta',
      'gamma',
    ])
    expect(await tags()).toEqual(['alpha', 'beta', 'gamma'])
    if (mode === 'sqlite') {
      // 4 + 4 + 1 chunks fit in one group of 10.
      expect(new Set(transactions).size).toBe(1)
      transactions.length = 0
      await Promise.all([write('delta', { weight: 6 }), write('epsilon', { weight: 6 })])
      expect(new Set(transactions).size).toBe(2)
    } else {
      // PostgreSQL: every write in its own transaction (the publications' lock order).
      expect(new Set(transactions).size).toBe(3)
    }
  })

  it('a write that fails costs the others of its group nothing: each is run again alone', async () => {
    const tenant = await createTenant(t)
    const { write, transactions, tags } = writer(tenant.companyId, 10)
    const results = await Promise.allSettled([write('heron'), write('ibis', { fail: true }), write('jay')])
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'fulfilled'])
    expect((results[1] as PromiseRejectedResult).reason).toMatchObject({ message: 'ibis failed' })
    // The failed write's tag and the group's first attempt are rolled back.
    expect(await tags()).toEqual(['heron', 'jay'])
    // SQLite: heron and ibis in the group, then heron, ibis and jay alone.
    expect(transactions).toHaveLength(mode === 'sqlite' ? 5 : 3)
  })
})
