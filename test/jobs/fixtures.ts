import { randomUUID } from 'node:crypto'
import { setTimeout as sleep } from 'node:timers/promises'
import PDFDocument from 'pdfkit'
import { expect } from 'vitest'
import type { Config } from '../../src/config.js'
import type { JobRunner } from '../../src/jobs/runner.js'
import { type DatabaseHandle, openDatabase } from '../../src/storage/database.js'
import type { Tenant } from '../support/factories.js'
import { createIsolatedDatabase, type IsolatedDatabase } from '../support/isolated-database.js'
import { kbPath } from '../support/knowledge-base.js'
import type { StoreMode } from '../support/store-modes.js'
import { startTestApp, type TestApp } from '../support/test-app.js'

/** A text PDF of `pages` pages (pdfkit), each saying which page it is; slow enough to watch being processed. */
export async function manyPagesPdf(pages: number, topic = 'leave'): Promise<Buffer> {
  const doc = new PDFDocument({ autoFirstPage: false, compress: false })
  const parts: Buffer[] = []
  doc.on('data', (part: Buffer) => parts.push(part))
  const ended = new Promise<void>((resolve) => doc.on('end', () => resolve()))
  const sentence = `Employees accrue paid ${topic} monthly; unused days carry over to the next year. `
  for (let page = 1; page <= pages; page++) {
    doc.addPage()
    doc.fontSize(12).text(`Page ${page} of the ${topic} handbook. ${sentence.repeat(30)}`)
  }
  doc.end()
  await ended
  return Buffer.concat(parts)
}

/** Polls `probe` every 50 ms until it returns something other than undefined or false. */
export async function eventually<T>(
  probe: () => Promise<T | undefined | false>,
  what: string,
  timeoutMs = 30_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await probe()
    if (value !== undefined && value !== false) return value
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`)
    await sleep(50)
  }
}

/** The real server with embedded workers over a store of its own (its queue is nobody else's). */
export async function startWorkingApp(mode: StoreMode, label: string, config: Partial<Config> = {}) {
  const database: IsolatedDatabase | undefined = mode === 'postgres' ? await createIsolatedDatabase(label) : undefined
  const t = await startTestApp(mode, { config: { databaseUrl: database?.url, ...config } })
  const runner: JobRunner = t.ctx.createJobRunner({ owner: `test-${randomUUID()}`, concurrency: 2 })
  runner.start()
  const db: DatabaseHandle = openDatabase(t.ctx.config)
  return {
    t,
    runner,
    db,
    close: async () => {
      await runner.stop(0)
      await db.close()
      await t.close()
      await database?.drop()
    },
  }
}

export async function metadata(t: TestApp, tenant: Tenant, id: string) {
  const response = await t.request('GET', kbPath(tenant, `/${id}`), { token: tenant.token })
  expect(response.status).toBe(200)
  return response.body
}

/** The document's metadata once its processing has ended (PROCESSED or ERROR). */
export function settled(t: TestApp, tenant: Tenant, id: string, timeoutMs = 30_000) {
  return eventually(
    async () => {
      const body = await metadata(t, tenant, id)
      return ['PROCESSED', 'ERROR'].includes(body.processing.embedding_state) ? body : undefined
    },
    `document ${id} to be processed`,
    timeoutMs,
  )
}
