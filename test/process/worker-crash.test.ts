import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type DatabaseHandle, openDatabase } from '../../src/storage/database.js'
import { eventually, manyPagesPdf } from '../jobs/fixtures.js'
import { createTenant, type Tenant } from '../support/factories.js'
import { createIsolatedDatabase, type IsolatedDatabase } from '../support/isolated-database.js'
import { kbPath, uploadOk } from '../support/knowledge-base.js'
import type { LogLine } from '../support/processes.js'
import { pgUrl } from '../support/store-modes.js'
import { startTestApp, type TestApp } from '../support/test-app.js'
import { WorkerProcess } from './worker-support.js'

const url = pgUrl()
if (!url) console.log('[lantern] kill -9 of a `lantern worker` mid-document: SKIPPED (no PostgreSQL for this run)')

const PAGES = 600

describe.skipIf(!url)('a `lantern worker` killed with SIGKILL in the middle of a document', () => {
  let database: IsolatedDatabase | undefined
  let api: TestApp
  let db: DatabaseHandle
  const dirs: string[] = []
  const workers: WorkerProcess[] = []

  beforeAll(async () => {
    // A database of this file's own: the workers claim every job in it.
    database = await createIsolatedDatabase('worker_crash')
    api = await startTestApp('postgres', { config: { databaseUrl: database?.url } })
    db = openDatabase(api.ctx.config)
  })
  afterAll(async () => {
    await Promise.all(workers.map((worker) => worker.stop()))
    await db?.close()
    await api?.close()
    await database?.drop()
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
  })

  function workerEnv() {
    const dir = mkdtempSync(join(tmpdir(), 'lantern-worker-'))
    dirs.push(dir)
    return {
      LANTERN_DATA_DIR: dir,
      LANTERN_DATABASE_URL: database?.url,
      LANTERN_WORKERS: '1',
      LANTERN_JOB_LEASE_MS: '2000',
    }
  }

  async function state(tenant: Tenant, id: string) {
    const response = await api.request('GET', kbPath(tenant, `/${id}`), { token: tenant.token })
    return response.body.processing
  }

  it('another worker takes the document over once the lease expires and processes it exactly once', async () => {
    const tenant = await createTenant(api)
    const first = await WorkerProcess.start(workerEnv())
    workers.push(first)
    const id = await uploadOk(api, tenant, 'big-handbook.pdf', await manyPagesPdf(PAGES))

    await eventually(async () => (await state(tenant, id)).embedding_state === 'PROCESSING', 'PROCESSING', 60_000)
    first.signal('SIGKILL')
    await first.waitForExit()
    expect(first.exitSignal).toBe('SIGKILL')
    const [abandoned] = await db.db.selectFrom('jobs').selectAll().where('subject_id', '=', id).execute()
    expect(abandoned).toMatchObject({ state: 'running', attempts: 1, lease_owner: first.owner })
    expect((await state(tenant, id)).embedding_state).toBe('PROCESSING')

    const second = await WorkerProcess.start(workerEnv())
    workers.push(second)
    const processing = await eventually(
      async () => {
        const p = await state(tenant, id)
        return p.embedding_state === 'PROCESSED' || p.embedding_state === 'ERROR' ? p : undefined
      },
      'the second worker to finish',
      120_000,
    )
    expect(processing).toMatchObject({ embedding_state: 'PROCESSED', error_details: '', doc_pages_count: PAGES })

    // One set of chunks: idx 0..n-1, each once, as many as the document says.
    const stats = await db.db
      .selectFrom('chunks')
      .select([
        sql<number>`count(*)`.as('rows'),
        sql<number>`count(distinct idx)`.as('distinct_idx'),
        sql<number>`min(idx)`.as('min_idx'),
        sql<number>`max(idx)`.as('max_idx'),
      ])
      .where('document_id', '=', id)
      .executeTakeFirstOrThrow()
    const rows = Number(stats.rows)
    expect(rows).toBe(processing.chunk_count)
    expect(rows).toBeGreaterThan(PAGES - 1)
    expect(Number(stats.distinct_idx)).toBe(rows)
    expect([Number(stats.min_idx), Number(stats.max_idx)]).toEqual([0, rows - 1])

    // The job records both attempts: the killed one and the one that finished.
    const jobs = await db.db.selectFrom('jobs').selectAll().where('subject_id', '=', id).execute()
    expect(jobs).toHaveLength(1)
    expect(jobs[0]).toMatchObject({ state: 'done', attempts: 2, lease_owner: null })
    const claims = (worker: WorkerProcess) =>
      worker
        .logLines()
        .filter((line) => line.msg === 'claimed job' && line.subjectId === id)
        .map((line) => line.attempt)
    expect(claims(first)).toEqual([1])
    expect(claims(second)).toEqual([2])
    // The worker logs "job done" after the commit the API already shows, so the line may still be on its way.
    const jobDone = (line: LogLine) => line.msg === 'job done' && line.jobId === jobs[0]?.id
    await second.waitForLog(jobDone)
    expect(second.logLines().filter(jobDone)).toHaveLength(1)

    expect(await second.stop()).toBe(0)
    expect(second.logLines().map((line) => line.msg)).toContain('stopped')
  }, 180_000)

  it('SIGTERM past the grace period hands the document back at once; another worker processes it', async () => {
    const tenant = await createTenant(api)
    const leaving = await WorkerProcess.start({ ...workerEnv(), LANTERN_SHUTDOWN_GRACE_MS: '300' })
    workers.push(leaving)
    const id = await uploadOk(api, tenant, 'long-handbook.pdf', await manyPagesPdf(PAGES, 'parental leave'))
    await eventually(async () => (await state(tenant, id)).embedding_state === 'PROCESSING', 'PROCESSING', 60_000)

    const code = await leaving.stop()
    if (code !== 0) console.log(leaving.output())
    expect(code).toBe(0)
    const messages = leaving.logLines().map((line) => line.msg)
    expect(messages).toContain('released job leases')
    expect(messages).toContain('stopped')
    expect(leaving.stderr).toBe('')
    // Back in the queue at once, the interrupted attempt not counted; the document waits for it.
    const [released] = await db.db.selectFrom('jobs').selectAll().where('subject_id', '=', id).execute()
    expect(released).toMatchObject({ state: 'queued', attempts: 0, lease_owner: null, lease_expires_at: null })

    const taker = await WorkerProcess.start(workerEnv())
    workers.push(taker)
    const processing = await eventually(
      async () => {
        const p = await state(tenant, id)
        return p.embedding_state === 'PROCESSED' || p.embedding_state === 'ERROR' ? p : undefined
      },
      'the other worker to finish',
      120_000,
    )
    expect(processing).toMatchObject({ embedding_state: 'PROCESSED', doc_pages_count: PAGES })
    const [job] = await db.db.selectFrom('jobs').selectAll().where('subject_id', '=', id).execute()
    expect(job).toMatchObject({ state: 'done', attempts: 1 })
    expect(await taker.stop()).toBe(0)
  }, 180_000)
})
