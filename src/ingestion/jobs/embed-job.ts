import type { JobHandler, Lease } from '../../jobs/handler.js'
import type { Clock } from '../../lib/clock.js'
import { newId } from '../../lib/ids.js'
import type { Embedder } from '../../retrieval/embeddings/types.js'
import type { Store } from '../../storage/store.js'

const EMBED_MAX_ATTEMPTS = 5

export interface EmbedJobDeps {
  readonly store: Store
  readonly embedder: Embedder
}

/**
 * The `embed` job (backfill): computes the vectors of a PROCESSED document's chunks with the
 * configured embedder when some are missing, e.g. after LANTERN_EMBEDDINGS changed. Stores them
 * only if the chunks are still the ones embedded (a reprocessing in between stores its own), in
 * the transaction that completes the job. Nothing to record on failure: the document stays
 * searchable lexically, and the next start queues it again.
 */
export class EmbedJobHandler implements JobHandler {
  constructor(private readonly deps: EmbedJobDeps) {}

  async run(lease: Lease): Promise<void> {
    const { store, embedder } = this.deps
    const { companyId, subjectId: documentId } = lease.job
    const document = await store.knowledgeBase.findById(companyId, documentId)
    if (document?.kind !== 'document' || document.processing.state !== 'PROCESSED') return
    const chunks = await store.chunks.listForDocument(companyId, documentId)
    if (chunks.length === 0) return
    if ((await store.chunkVectors.countForDocument(companyId, documentId, embedder.name)) === chunks.length) return
    const vectors = await embedder.embed(
      chunks.map((chunk) => chunk.text),
      lease.signal,
    )
    lease.throwIfLost()
    const embedded = chunks.map((chunk) => chunk.id).join(',')
    await store.transaction(async (tx) => {
      await lease.completeIn(tx)
      const current = await tx.chunks.listForDocument(companyId, documentId)
      if (current.map((chunk) => chunk.id).join(',') !== embedded) return
      const drafts = chunks.flatMap((chunk, i) => {
        const vector = vectors[i]
        return vector ? [{ idx: chunk.idx, vector }] : []
      })
      await tx.chunkVectors.replaceForDocument(companyId, documentId, embedder.name, drafts)
    })
  }

  async failed(): Promise<void> {}
}

/**
 * Queues an `embed` job for every PROCESSED document of every company that lacks vectors of the
 * embedder's model and has no job open (a queued ingestion embeds it anyway). Run when a job
 * runner starts; safe to run from several processes (a duplicate job finds nothing to do).
 * Returns how many jobs were queued.
 */
export async function enqueueEmbeddingBackfill(store: Store, embedder: Embedder, clock: Clock): Promise<number> {
  let queued = 0
  for (const company of await store.companies.list()) {
    for (const documentId of await store.chunkVectors.documentsMissing(company.id, embedder.name)) {
      if ((await store.jobs.countOpen(company.id, documentId)) > 0) continue
      const now = clock.now()
      await store.jobs.enqueue({
        id: newId(),
        companyId: company.id,
        kind: 'embed',
        subjectId: documentId,
        payload: { documentId, model: embedder.name },
        maxAttempts: EMBED_MAX_ATTEMPTS,
        runAfter: now,
        createdAt: now,
      })
      queued++
    }
  }
  return queued
}
