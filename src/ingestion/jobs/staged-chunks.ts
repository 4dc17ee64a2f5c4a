import type { Clock, Timestamp } from '../../lib/clock.js'
import type { Embedder } from '../../retrieval/embeddings/types.js'
import { addTally, emptyTally } from '../../storage/ports/chunks.js'
import type { Repositories, Store } from '../../storage/store.js'
import { indexed } from '../pipeline/index-document.js'
import type { ChunkSink } from '../pipeline/pipeline-types.js'
import type { IndexWrites } from './grouped-writes.js'

/** The result of a run that a newer upload, reprocessing request or run has overtaken. */
export class StaleResult extends Error {
  override readonly name = 'StaleResult'
}

/** Which processing run of which document the chunks belong to. */
export interface RunOf {
  readonly companyId: string
  readonly documentId: string
  /** The run's `processing_started_at`. */
  readonly run: Timestamp
}

/**
 * The chunks of one processing run, written to the store a batch per transaction as processing
 * cuts them (with their vectors when an embedder is configured), so that no document, however
 * large, is held whole in memory or written in one transaction. They stay out of search until
 * `publish`, in the transaction that marks the document PROCESSED. Each batch is written only while
 * the run is still the document's current one; otherwise it is rolled back with StaleResult.
 */
export class StagedChunks {
  private readonly tally = emptyTally()
  private staged = 0
  /** The batch being written, if any. */
  private writing: Promise<void> | undefined
  private discarded = false

  constructor(
    private readonly deps: {
      readonly store: Store
      readonly clock: Clock
      readonly embedder?: Embedder
      /** Where the batches are written (on SQLite, grouped with other documents' writes). */
      readonly writes: IndexWrites
    },
    private readonly target: RunOf,
    private readonly signal?: AbortSignal,
  ) {}

  /** Chunks written so far. */
  get count(): number {
    return this.staged
  }

  readonly add: ChunkSink = (drafts, language) => {
    if (this.discarded) return Promise.reject(new StaleResult('the run ended'))
    this.writing = this.write(drafts, language)
    return this.writing
  }

  /**
   * Deletes what this run wrote, after the batch being written if any, unless a newer run owns the
   * document now (its chunks are then its own).
   */
  async discard(): Promise<void> {
    this.discarded = true
    await this.writing?.catch(() => undefined)
    const { companyId, documentId, run } = this.target
    await this.deps.store
      .transaction(async (tx) => {
        // Chunks before the document row: the lock order of every index write and of a delete.
        await tx.chunks.deleteForDocuments(companyId, [documentId])
        if (!(await tx.knowledgeBase.updateProcessing(companyId, documentId, { run }, { chunkCount: 0 }))) {
          throw new StaleResult(`document ${documentId} has a newer run`)
        }
      })
      .catch((error: unknown) => {
        if (!(error instanceof StaleResult)) throw error
      })
  }

  private async write(drafts: Parameters<ChunkSink>[0], language: string): Promise<void> {
    const { writes, clock, embedder } = this.deps
    const { companyId, documentId, run } = this.target
    const createdAt = clock.now()
    const chunks = drafts.map((draft) => indexed(companyId, documentId, draft, language, createdAt))
    // Outside the transaction: a remote embedder is I/O, and its failure is transient (the job is
    // retried), unlike a damaged file.
    const vectors = embedder
      ? await embedder.embed(
          chunks.map(({ chunk }) => chunk.text),
          this.signal,
        )
      : undefined
    const batch = await writes.run(async (tx) => {
      // Counted anew by each attempt: a group that rolls back runs this again alone.
      const tally = emptyTally()
      const document = await tx.knowledgeBase.findById(companyId, documentId)
      if (document?.kind !== 'document')
        throw new StaleResult(`document ${documentId} was deleted while it was processed`)
      // Rows before the document row: the lock order of every index write and of a delete.
      await tx.chunks.stage(companyId, documentId, chunks, tally)
      if (embedder && vectors) {
        const written = chunks.flatMap(({ chunk }, i) => {
          const vector = vectors[i]
          return vector ? [{ chunkId: chunk.id, vector }] : []
        })
        await tx.chunkVectors.insert(companyId, documentId, embedder.name, written)
      }
      const current = await tx.knowledgeBase.updateProcessing(
        companyId,
        documentId,
        { run },
        { chunkCount: this.staged + chunks.length },
      )
      if (!current) throw new StaleResult(`document ${documentId} changed while it was processed`)
      return tally
    }, chunks.length)
    addTally(this.tally, batch)
    this.staged += chunks.length
  }

  /** Puts the written chunks in the index statistics and the change log, inside the caller's transaction. */
  async publish(tx: Repositories): Promise<void> {
    await tx.chunks.publishStaged(this.target.companyId, this.target.documentId, this.tally)
  }
}
