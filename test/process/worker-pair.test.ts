import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type DatabaseHandle, openDatabase } from '../../src/storage/database.js'
import { eventually, manyPagesPdf } from '../jobs/fixtures.js'
import { createTenant } from '../support/factories.js'
import { createIsolatedDatabase, type IsolatedDatabase } from '../support/isolated-database.js'
import { uploadOk } from '../support/knowledge-base.js'
import { pgUrl } from '../support/store-modes.js'
import { startTestApp, type TestApp } from '../support/test-app.js'
import { WorkerProcess } from './worker-support.js'

const url = pgUrl()
if (!url)
  console.log('[lantern] two `lantern worker` processes on one PostgreSQL: SKIPPED (no PostgreSQL for this run)')

const DOCUMENTS = 20

describe.skipIf(!url)('two `lantern worker` processes sharing one PostgreSQL queue', () => {
  let database: IsolatedDatabase | undefined
  let api: TestApp
  let db: DatabaseHandle
  const dirs: string[] = []
  const workers: WorkerProcess[] = []

  beforeAll(async () => {
    database = await createIsolatedDatabase('worker_pair')
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

  it('process 20 documents: each job claimed by exactly one worker once, every document PROCESSED once', async () => {
    for (let i = 0; i < 2; i++) {
      const dir = mkdtempSync(join(tmpdir(), 'lantern-worker-'))
      dirs.push(dir)
      workers.push(
        await WorkerProcess.start({ LANTERN_DATA_DIR: dir, LANTERN_DATABASE_URL: database?.url, LANTERN_WORKERS: '2' }),
      )
    }
    const tenant = await createTenant(api)
    const ids: string[] = []
    for (let i = 0; i < DOCUMENTS; i++) {
      const content =
        i % 2 === 0
          ? await manyPagesPdf(20, `topic${i}`)
          : `Memo ${i}\n\nThe canteen serves soup number ${i} on weekdays.\n`.repeat(20)
      ids.push(await uploadOk(api, tenant, i % 2 === 0 ? `doc-${i}.pdf` : `memo-${i}.txt`, content))
    }

    const documents = await eventually(
      async () => {
        const rows = await db.db
          .selectFrom('kb_objects')
          .select(['id', 'embedding_state', 'chunk_count', 'error_details'])
          .where('company_id', '=', tenant.companyId)
          .where('is_folder', '=', 0)
          .execute()
        return rows.length === DOCUMENTS &&
          rows.every((row) => ['PROCESSED', 'ERROR'].includes(String(row.embedding_state)))
          ? rows
          : undefined
      },
      'every document to be processed',
      120_000,
    )
    expect(documents.filter((row) => row.embedding_state !== 'PROCESSED')).toEqual([])

    const jobs = await db.db
      .selectFrom('jobs')
      .select(['id', 'subject_id', 'state', 'attempts'])
      .where('company_id', '=', tenant.companyId)
      .execute()
    expect(jobs).toHaveLength(DOCUMENTS)
    expect(new Set(jobs.map((job) => job.subject_id))).toEqual(new Set(ids))
    expect(jobs.every((job) => job.state === 'done' && job.attempts === 1)).toBe(true)

    // Claims as the workers logged them: every job exactly once, by one worker, as attempt 1.
    const claims = workers.flatMap((worker) =>
      worker
        .logLines()
        .filter((line) => line.msg === 'claimed job')
        .map((line) => ({ owner: worker.owner, jobId: String(line.jobId), attempt: line.attempt })),
    )
    expect(claims.map((claim) => claim.jobId).sort()).toEqual(jobs.map((job) => job.id).sort())
    expect(claims.every((claim) => claim.attempt === 1)).toBe(true)
    // "job done" is logged after the commit the query above already saw, so the last lines may be on their way.
    const done = await eventually(async () => {
      const lines = workers.flatMap((worker) => worker.logLines().filter((line) => line.msg === 'job done'))
      return lines.length >= DOCUMENTS ? lines : undefined
    }, 'every "job done" log line')
    expect(done).toHaveLength(DOCUMENTS)
    // Both took part.
    for (const worker of workers) expect(claims.some((claim) => claim.owner === worker.owner)).toBe(true)

    // One set of chunks per document, as many as it says, each idx once.
    const counts = await db.db
      .selectFrom('chunks')
      .select(['document_id', sql<number>`count(*)`.as('rows'), sql<number>`count(distinct idx)`.as('distinct_idx')])
      .where('company_id', '=', tenant.companyId)
      .groupBy('document_id')
      .execute()
    expect(counts).toHaveLength(DOCUMENTS)
    for (const row of counts) {
      const document = documents.find((d) => d.id === row.document_id)
      expect(Number(row.rows)).toBe(Number(document?.chunk_count))
      expect(Number(row.distinct_idx)).toBe(Number(row.rows))
    }

    const exits = await Promise.all(workers.map((worker) => worker.stop()))
    expect(exits).toEqual([0, 0])
    for (const worker of workers) expect(worker.stderr).toBe('')
  }, 180_000)
})
