import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { IngestError } from '../../src/ingestion/errors.js'
import type { IngestJobHandler } from '../../src/ingestion/jobs/ingest-job.js'
import { processDocumentInBatches } from '../../src/ingestion/pipeline/process-document.js'
import { createTenant, type Tenant } from '../support/factories.js'
import { documentOf, uploadOk } from '../support/knowledge-base.js'
import { ingestHandlerFor, leaseFor, processNow } from '../support/process-now.js'
import { storeModes } from '../support/store-modes.js'
import { startTestApp, type TestApp } from '../support/test-app.js'

const OLD_NOTES = `${'Old notes about vacation days and how they carry over. '.repeat(40)}\n`
const NEW_NOTES = 'New notes about parking permits.\n'

describe.each(storeModes())('%s: a run that an upload overtakes while it processes', (mode) => {
  let t: TestApp
  beforeAll(async () => {
    t = await startTestApp(mode)
  })
  afterAll(async () => t?.close())

  /** Runs the document's ingest job once with `handler`; whether the job completed (rather than threw). */
  async function completes(handler: IngestJobHandler, tenant: Tenant, id: string): Promise<boolean> {
    let completed = false
    // A job id of its own: the temporary copy is named after it, and processNow's lease names another.
    const lease = {
      ...leaseFor(tenant.companyId, id, t.ctx.clock.now()),
      jobId: `overtaken-${id}`,
      completeIn: async () => {
        completed = true
      },
    }
    try {
      await handler.run(lease)
    } finally {
      await handler.close()
    }
    return completed
  }

  const replace = (tenant: Tenant) => uploadOk(t, tenant, 'notes.txt', NEW_NOTES, { fields: { overwrite: 'true' } })

  it('completes its job when it then fails: the failure is the overtaking’s, not the new file’s', async () => {
    const tenant = await createTenant(t)
    const id = await uploadOk(t, tenant, 'notes.txt', OLD_NOTES)
    const handler = ingestHandlerFor(t, async () => {
      await replace(tenant)
      // What reading a stored file deleted under the copy looks like.
      throw new IngestError('the PDF file is damaged or truncated: Invalid PDF structure', true)
    })
    expect(await completes(handler, tenant, id)).toBe(true)
    // The replacement waits for its own job, with no error from the old run.
    expect((await documentOf(t, tenant, id)).processing).toMatchObject({ state: 'PENDING', errorDetails: '' })
  })

  it('completes its job when its chunks meet the newer run’s, and leaves those in place', async () => {
    const tenant = await createTenant(t)
    const id = await uploadOk(t, tenant, 'notes.txt', OLD_NOTES)
    const handler = ingestHandlerFor(t, async (input, progress, chunks) => {
      await replace(tenant)
      await processNow(t, tenant, id)
      return processDocumentInBatches(input, progress, chunks)
    })
    expect(await completes(handler, tenant, id)).toBe(true)
    const document = await documentOf(t, tenant, id)
    expect(document.processing).toMatchObject({ state: 'PROCESSED', chunkCount: 1, errorDetails: '' })
    const chunks = await t.ctx.store.chunks.listForDocument(tenant.companyId, id)
    expect(chunks.map((chunk) => chunk.text)).toEqual([expect.stringContaining('parking permits')])
  })
})
