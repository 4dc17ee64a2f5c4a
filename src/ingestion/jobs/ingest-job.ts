import { createWriteStream } from 'node:fs'
import { mkdir, rm, stat } from 'node:fs/promises'
import { basename, extname, join } from 'node:path'
import { pipeline } from 'node:stream/promises'
import type { JobFailure, JobHandler, Lease } from '../../jobs/handler.js'
import { type Clock, type Timestamp, timestampToMillis } from '../../lib/clock.js'
import type { Embedder } from '../../retrieval/embeddings/types.js'
import type { BlobStore } from '../../storage/ports/blobs.js'
import type { DocumentRecord } from '../../storage/ports/knowledge-base.js'
import type { Repositories, Store } from '../../storage/store.js'
import { detectMimeType, documentTypeOf } from '../detection/file-types.js'
import { IngestError } from '../errors.js'
import type { DocumentToProcess, ProcessingSummary } from '../pipeline/pipeline-types.js'
import { BATCH_CHUNKS } from '../pipeline/process-document.js'
import { type DocumentProcessor, ProcessingThreads } from '../threads/run-in-thread.js'
import { type IndexWrites, indexWritesFor } from './grouped-writes.js'
import type { IngestSettings } from './settings.js'
import { StagedChunks, StaleResult } from './staged-chunks.js'

/** Share of a page an embedded image must cover to be OCR'd, when the document does not say. */
const DEFAULT_IMAGE_MIN_SIZE_RATIO = 0.1
/** Chunks one grouped transaction writes at most (a single batch may be larger): two full batches. */
const WRITE_GROUP_CHUNKS = 2 * BATCH_CHUNKS

export interface IngestJobDeps {
  readonly store: Store
  readonly blobs: BlobStore
  readonly clock: Clock
  readonly settings: IngestSettings
  /** Where processDocument runs; worker threads of the handler's own when absent. */
  readonly processor?: DocumentProcessor
  /** Those worker threads at most (documents beyond wait for one); unlimited when absent. */
  readonly processingThreads?: number
  /** LANTERN_EMBEDDINGS: chunk vectors are computed after processing and stored with the chunks. */
  readonly embedder?: Embedder
  /**
   * Work on the local copy of a processed document before it is marked PROCESSED (data-analysis
   * mode prepares its tables). It must not throw for a document it cannot use: a document is
   * PROCESSED by its chunks alone.
   */
  readonly afterProcessing?: (document: ProcessedFile) => Promise<void>
}

/** A document that was just processed, and the local copy it was processed from. */
export interface ProcessedFile {
  readonly documentId: string
  readonly blobKey: string
  /** The processing run (its `processing_started_at`). */
  readonly run: Timestamp
  readonly objectName: string
  readonly mimeType: string
  readonly csvDelimiter: DocumentRecord['csvDelimiter']
  readonly path: string
}

function secondsBetween(start: Timestamp, end: Timestamp): number {
  return Math.max(0, timestampToMillis(end) - timestampToMillis(start)) / 1000
}

/** Writes the latest progress of a run to its document, at most once per interval, never two writes at once. */
class ProgressWriter {
  total = 0
  private latest: { done: number; total: number } | undefined
  private written: { done: number; total: number } | undefined
  private lastWriteAt = 0
  private timer: NodeJS.Timeout | undefined
  private writing: Promise<void> | undefined
  private closed = false

  constructor(
    private readonly write: (done: number, total: number) => Promise<unknown>,
    private readonly intervalMs: number,
  ) {}

  readonly report = (done: number, total: number): void => {
    if (this.closed) return
    this.latest = { done, total }
    this.total = Math.max(this.total, total)
    this.schedule()
  }

  /** Stops writing; waits for a write in flight (the final state is written by the commit). */
  async close(): Promise<void> {
    this.closed = true
    clearTimeout(this.timer)
    await this.writing
  }

  private schedule(): void {
    if (this.timer || this.writing || this.closed) return
    const wait = Math.max(0, this.lastWriteAt + this.intervalMs - Date.now())
    this.timer = setTimeout(() => {
      this.timer = undefined
      this.flush()
    }, wait)
  }

  private flush(): void {
    const value = this.latest
    if (!value || this.closed || (value.done === this.written?.done && value.total === this.written?.total)) return
    this.written = value
    this.lastWriteAt = Date.now()
    // Progress is informative: a failed write is not worth failing the document for.
    this.writing = this.write(value.done, value.total)
      .then(
        () => undefined,
        () => undefined,
      )
      .finally(() => {
        this.writing = undefined
        if (this.latest !== this.written) this.schedule()
      })
  }
}

/**
 * The `ingest` job: takes one document from PENDING to PROCESSED (chunks indexed) or ERROR.
 *
 * It marks the document PROCESSING, copies its stored bytes to a local file, sniffs the type again
 * (so better detection applies on reprocessing), runs processDocument in a worker thread under the
 * document limits, and then, in one transaction, completes the job, indexes the chunks and marks
 * the document PROCESSED. Each write names this run (the `processing_started_at` it set): an
 * upload that replaced the file or an edit that asked for reprocessing resets the document to
 * PENDING with a newer job, and the stale result is then dropped while the job still completes.
 * A deleted document completes the job with nothing to do.
 */
export class IngestJobHandler implements JobHandler {
  private readonly runs = new WeakMap<Lease, Timestamp>()
  private readonly threads: ProcessingThreads | undefined
  private readonly processor: DocumentProcessor
  /** The index writes of every document this handler processes, grouped per transaction on SQLite. */
  private readonly writes: IndexWrites

  constructor(private readonly deps: IngestJobDeps) {
    this.writes = indexWritesFor(deps.store, WRITE_GROUP_CHUNKS)
    if (deps.processor) this.processor = deps.processor
    else {
      this.threads = new ProcessingThreads({ maxThreads: deps.processingThreads })
      this.processor = this.threads.run
    }
  }

  async run(lease: Lease): Promise<void> {
    const { store, clock } = this.deps
    const { companyId, subjectId: documentId } = lease.job
    const document = await store.knowledgeBase.findById(companyId, documentId)
    if (document?.kind !== 'document') return
    lease.throwIfLost()
    const run = clock.now()
    const started = await store.transaction(async (tx) => {
      // The previous version's chunks (unsearchable from now on) and anything an earlier attempt
      // wrote go, as this run writes the document's chunks anew. Chunks before the document row:
      // the lock order of a delete, so the two never deadlock.
      await tx.chunks.deleteForDocuments(companyId, [documentId])
      return tx.knowledgeBase.updateProcessing(companyId, documentId, 'any', {
        state: 'PROCESSING',
        startedAt: run,
        endedAt: null,
        duration: null,
        chunkCount: 0,
        progressDone: 0,
        progressTotal: 0,
        errorDetails: '',
      })
    })
    if (!started) return
    this.runs.set(lease, run)

    const filePath = join(this.deps.settings.tempDir, `${lease.jobId}-${lease.attempt}${safeExtension(document)}`)
    let staged: StagedChunks | undefined
    try {
      if (!(await this.copyBlob(document, filePath))) return
      const input = await this.inputFor(document, filePath, run)
      const progress = new ProgressWriter(
        (done, total) =>
          store.knowledgeBase.updateProcessing(
            companyId,
            documentId,
            { run },
            { progressDone: done, progressTotal: total },
          ),
        this.deps.settings.progressIntervalMs,
      )
      staged = new StagedChunks({ ...this.deps, writes: this.writes }, { companyId, documentId, run }, lease.signal)
      let summary: ProcessingSummary
      try {
        summary = await this.processor(input, progress.report, staged.add, lease.signal)
      } finally {
        await progress.close()
      }
      await this.deps.afterProcessing?.({
        documentId,
        blobKey: document.blobKey,
        run,
        objectName: document.objectName,
        mimeType: input.mimeType,
        csvDelimiter: document.csvDelimiter,
        path: filePath,
      })
      lease.throwIfLost()
      await this.commit(lease, document, run, summary, staged, progress.total)
    } catch (error) {
      // Overtaken by a newer run or a deletion: the job is done, with nothing of its own to keep.
      // Whatever a run overtaken failed with is the overtaking's doing, not the document's: its
      // stored file deleted under the copy (read as a damaged file), its chunk numbers taken by the
      // newer run's chunks. Failing or retrying would report a file that no longer exists.
      if (error instanceof StaleResult || (await this.overtaken(document, run))) {
        await store.transaction((tx) => lease.completeIn(tx))
        return
      }
      // A failed run leaves no chunks (a document waiting for a retry or in ERROR has none); if
      // this fails too, the next run's start removes them.
      await staged?.discard().catch(() => undefined)
      throw error
    } finally {
      await rm(filePath, { force: true })
    }
  }

  async failed(tx: Repositories, lease: Lease, failure: JobFailure): Promise<void> {
    const { companyId, subjectId: documentId } = lease.job
    const run = this.runs.get(lease)
    if (!failure.final) {
      // Back to waiting: the job is queued again with a backoff.
      if (run) {
        await tx.knowledgeBase.updateProcessing(
          companyId,
          documentId,
          { run },
          {
            state: 'PENDING',
            startedAt: null,
            endedAt: null,
            duration: null,
            chunkCount: 0,
            progressDone: 0,
            progressTotal: 0,
          },
        )
      }
      return
    }
    // Without a run of its own, this job gave up on a document a newer job may already own.
    if (!run && (await tx.jobs.countOpen(companyId, documentId, 'ingest')) > 0) return
    const now = this.deps.clock.now()
    const attempts = `${failure.attempts} attempt${failure.attempts === 1 ? '' : 's'}`
    await tx.knowledgeBase.updateProcessing(companyId, documentId, run ? { run } : 'unfinished', {
      state: 'ERROR',
      errorDetails: failure.permanent ? failure.message : `processing failed after ${attempts}: ${failure.message}`,
      chunkCount: 0,
      endedAt: now,
      duration: run ? secondsBetween(run, now) : null,
    })
  }

  /** Ends the processing threads (the runner stops). */
  async close(): Promise<void> {
    await this.threads?.close()
  }

  /** Whether a newer run or a deletion took the document from this run (false when that cannot be read). */
  private async overtaken(document: DocumentRecord, run: Timestamp): Promise<boolean> {
    const current = await this.deps.store.knowledgeBase.findById(document.companyId, document.id).catch(() => null)
    if (current === null) return false
    return current?.kind !== 'document' || current.processing.startedAt !== run
  }

  /** Copies the stored bytes to `filePath`; false when the document was replaced or deleted meanwhile. */
  private async copyBlob(document: DocumentRecord, filePath: string): Promise<boolean> {
    const source = await this.deps.blobs.open(document.blobKey)
    if (!source) {
      const current = await this.deps.store.knowledgeBase.findById(document.companyId, document.id)
      if (current?.kind !== 'document' || current.blobKey !== document.blobKey) return false
      throw new IngestError('the stored file of this document is missing', true)
    }
    await mkdir(this.deps.settings.tempDir, { recursive: true })
    await pipeline(source, createWriteStream(filePath))
    return true
  }

  private async inputFor(document: DocumentRecord, filePath: string, run: Timestamp): Promise<DocumentToProcess> {
    const { settings, store } = this.deps
    const { size } = await stat(filePath)
    // Read again (detection improves between versions), with the type found at upload as the declared one.
    const mimeType = await detectMimeType(filePath, document.objectName, size, document.mimeType)
    if (mimeType !== document.mimeType) {
      await store.knowledgeBase.updateProcessing(
        document.companyId,
        document.id,
        { run },
        { mimeType, documentType: documentTypeOf(mimeType) },
      )
    }
    return {
      companyId: document.companyId,
      documentId: document.id,
      objectName: document.objectName,
      filename: basename(document.objectName),
      mimeType,
      filePath,
      options: {
        loaderType: document.loaderType,
        csvDelimiter: document.csvDelimiter,
        imageMinSizeRatio: document.imageMinSizeRatio ?? DEFAULT_IMAGE_MIN_SIZE_RATIO,
      },
      limits: settings.limits,
      ocrLanguages: settings.ocrLanguages,
      mutool: settings.mutool,
      soffice: settings.soffice,
      autoDescription: document.autoDescription && document.descriptionType === 'ai',
      chunkTokens: settings.chunkTokens,
      chunkOverlapTokens: settings.chunkOverlapTokens,
    }
  }

  /**
   * One transaction: the job completes (throws LeaseLostError, rolling back, when another worker
   * has the job now), the run's staged chunks are published to the index, the document becomes
   * PROCESSED. A stale run throws StaleResult, rolling everything back.
   */
  private async commit(
    lease: Lease,
    document: DocumentRecord,
    run: Timestamp,
    summary: ProcessingSummary,
    staged: StagedChunks,
    reportedTotal: number,
  ): Promise<void> {
    const { clock } = this.deps
    const { companyId, id } = document
    const total = reportedTotal > 0 ? reportedTotal : summary.pageCount
    await this.writes.run(async (tx) => {
      await lease.completeIn(tx)
      const current = await tx.knowledgeBase.findById(companyId, id)
      if (current?.kind !== 'document') return
      // Chunks before the document row: the same lock order as a delete, so the two never deadlock.
      await staged.publish(tx)
      // After the index write, so that `duration` covers all of the document's processing.
      const endedAt = clock.now()
      const written = await tx.knowledgeBase.updateProcessing(
        companyId,
        id,
        { run },
        {
          state: 'PROCESSED',
          errorDetails: '',
          chunkCount: staged.count,
          docPagesCount: summary.pageCount,
          documentType: summary.documentType,
          endedAt,
          duration: secondsBetween(run, endedAt),
          progressDone: total,
          progressTotal: total,
          ...(summary.description === null ? {} : { generatedDescription: summary.description }),
          card: summary.card,
        },
      )
      if (!written) throw new StaleResult(`document ${id} changed while it was processed`)
    })
  }
}

/** The original extension when it is a plain one (some libraries look at it), else none. */
function safeExtension(document: DocumentRecord): string {
  const extension = extname(document.objectName)
  return /^\.[A-Za-z0-9]{1,10}$/.test(extension) ? extension.toLowerCase() : ''
}
