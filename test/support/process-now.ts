import { IngestJobHandler } from '../../src/ingestion/jobs/ingest-job.js'
import { processDocumentInBatches } from '../../src/ingestion/pipeline/process-document.js'
import type { DocumentProcessor } from '../../src/ingestion/threads/run-in-thread.js'
import type { Lease } from '../../src/jobs/handler.js'
import type { Timestamp } from '../../src/lib/clock.js'
import type { ChunkRecord } from '../../src/storage/ports/chunks.js'
import type { DocumentRecord, EmbeddingState } from '../../src/storage/ports/knowledge-base.js'
import type { Tenant } from './factories.js'
import type { TestApp } from './test-app.js'

/**
 * Runs the ingest job of a document in the test process: the real IngestJobHandler, with the
 * document processed in this thread and small chunks (so short test texts make several). No job
 * runner takes it from the queue, so nothing is taken from other test files sharing the PostgreSQL
 * database; the upload's queued job is cancelled when the run commits.
 */
export async function processNow(
  t: TestApp,
  tenant: Tenant,
  id: string,
): Promise<{ document: DocumentRecord; chunks: ChunkRecord[] }> {
  const { store, clock } = t.ctx
  const handler = ingestHandlerFor(t)
  try {
    await handler.run(leaseFor(tenant.companyId, id, clock.now()))
  } finally {
    await handler.close()
  }
  const document = await store.knowledgeBase.findById(tenant.companyId, id)
  if (document?.kind !== 'document') throw new Error(`no document ${id}`)
  if (document.processing.state !== 'PROCESSED') {
    throw new Error(`document ${id} is ${document.processing.state}: ${document.processing.errorDetails}`)
  }
  return { document, chunks: await store.chunks.listForDocument(tenant.companyId, id) }
}

/** The real IngestJobHandler over the app's store, processing in this thread (or with `processor`) into small chunks. */
export function ingestHandlerFor(
  t: TestApp,
  processor: DocumentProcessor = processDocumentInBatches,
): IngestJobHandler {
  const { store, blobs, clock, ingestion } = t.ctx
  return new IngestJobHandler({
    store,
    blobs,
    clock,
    settings: {
      ...ingestion,
      ocrLanguages: ['eng'],
      mutool: null,
      soffice: null,
      chunkTokens: 120,
      chunkOverlapTokens: 20,
    },
    processor,
  })
}

/** A lease on the document's ingest job held by this test, whose completion cancels the queued job. */
export function leaseFor(companyId: string, documentId: string, now: Timestamp): Lease {
  return {
    owner: 'test-process-now',
    jobId: `test-${documentId}`,
    attempt: 1,
    job: {
      id: `test-${documentId}`,
      companyId,
      kind: 'ingest',
      subjectId: documentId,
      payload: {},
      attempts: 1,
      maxAttempts: 1,
      lastError: null,
      leaseExpiresAt: now,
      createdAt: now,
    },
    signal: new AbortController().signal,
    throwIfLost: () => {},
    completeIn: (tx) => tx.jobs.cancelQueued(companyId, documentId, now),
  }
}

/** Sets a document's state without touching its chunks (a run started, or failed). */
export async function setState(t: TestApp, tenant: Tenant, id: string, state: EmbeddingState): Promise<void> {
  const updated = await t.ctx.store.knowledgeBase.updateProcessing(tenant.companyId, id, 'any', { state })
  if (!updated) throw new Error(`no document ${id}`)
}
