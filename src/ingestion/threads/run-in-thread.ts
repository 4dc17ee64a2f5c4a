import { IngestError, ingestErrors } from '../errors.js'
import { OcrPermit } from '../ocr/ocr-permit.js'
import type { ChunkSink, DocumentToProcess, ProcessingSummary, ProgressReporter } from '../pipeline/pipeline-types.js'
import { ProcessingThread } from './processing-thread.js'
import { Budget } from './time-budget.js'

/** A thread is replaced after this many documents, so nothing one document left behind lingers. */
const MAX_DOCUMENTS_PER_THREAD = 50
/**
 * A thread whose heap is still larger than this after a document is replaced rather than reused:
 * V8 keeps the heap a large document grew to, and two threads holding that at once (plus the next
 * documents' own needs) took the process over 1 GiB. A fresh thread with every parser loaded holds
 * about 100 MiB (parsers load at their first document, so one that read only PDFs holds less); a
 * 400-page filing leaves about 200–250 MiB.
 */
const MAX_RETAINED_HEAP_BYTES = 320 * 1024 * 1024
/** An idle thread is ended after this long, so its memory is given back. */
const IDLE_MS = 30_000
/** Loading the parsers takes a second or two; a thread not ready after this is broken. */
const STARTUP_TIMEOUT_MS = 60_000

/** `1.5` for 1500 ms: seconds as people read them. */
function seconds(ms: number): string {
  return String(Math.round(ms) / 1000)
}

/** When a thread is replaced rather than reused (defaults: 320 MiB of heap left, 50 documents), and how many may run. */
export interface ThreadPolicy {
  readonly maxRetainedHeapBytes?: number
  readonly maxDocuments?: number
  /** Threads at most (a document waits for one); unlimited when absent. */
  readonly maxThreads?: number
}

/** Runs processDocumentInBatches somewhere: in a worker thread by default; tests may pass another. */
export type DocumentProcessor = (
  input: DocumentToProcess,
  progress: ProgressReporter,
  chunks: ChunkSink,
  signal?: AbortSignal,
) => Promise<ProcessingSummary>

/**
 * Worker threads that run processDocument, each with the document's limits enforced from
 * outside: a thread's heap is capped at `limits.memoryMb` (running out ends that thread and is a
 * permanent "limit exceeded"), and a document still running after `limits.timeBudgetMs` has its
 * thread terminated (also permanent). Threads are reused for the next document while healthy,
 * because loading the parsers costs more than most documents; an idle thread ends after 30 s.
 */
export class ProcessingThreads {
  private readonly idle: ProcessingThread[] = []
  private readonly all = new Set<ProcessingThread>()
  /** Threads being ended (out of `all`): close waits for them too. */
  private readonly ending = new Set<Promise<void>>()
  /** Documents waiting for a thread (maxThreads): each is woken when a thread is released or ended. */
  private readonly waiting: Array<() => void> = []
  private readonly ocrPermit = OcrPermit.createBuffer()
  private nextId = 1
  private closed = false
  private started = 0

  constructor(private readonly policy: ThreadPolicy = {}) {}

  /** Threads started so far (each loads the parsers): how often threads were replaced. */
  get threadsStarted(): number {
    return this.started
  }

  /**
   * Processes one document in a thread. Progress messages go to `progress`, chunks to `chunks`,
   * one batch at a time (the thread cuts the next batch meanwhile, then waits for the batch to be
   * taken; the time budget does not run while `chunks` works, so it bounds the parsing and most of
   * the cutting, not the store). The thread is free for the next document as soon as it has
   * handed over its last batch; the promise settles once that batch is stored too. With
   * `maxThreads`, a document first waits for a free thread.
   * Rejects with the thread's IngestError when processing fails, with a transient IngestError
   * when the thread crashes, with what `chunks` threw, and with `signal.reason` when aborted (the
   * thread is terminated).
   */
  readonly run: DocumentProcessor = async (input, progress, chunks, signal) => {
    signal?.throwIfAborted()
    const thread = await this.take(input.limits.memoryMb, signal)
    try {
      await this.whenReady(thread, signal)
    } catch (error) {
      await this.discard(thread, false)
      throw error
    }
    return this.dispatch(thread, input, progress, chunks, signal)
  }

  /** Documents waiting for a free thread (maxThreads). */
  get documentsWaiting(): number {
    return this.waiting.length
  }

  /** Ends every thread (shutdown); running and waiting documents fail with a transient error. */
  async close(): Promise<void> {
    this.closed = true
    const idle = new Set(this.idle.splice(0))
    for (const wake of this.waiting.splice(0)) wake()
    await Promise.all([...this.all].map((thread) => thread.terminate(idle.has(thread))))
    await Promise.all(this.ending)
    this.all.clear()
  }

  /** An idle thread of this heap size, else a new one, once fewer than maxThreads are in use. */
  private async take(memoryMb: number, signal: AbortSignal | undefined): Promise<ProcessingThread> {
    for (;;) {
      if (this.closed) throw new IngestError('document processing is shutting down', false)
      signal?.throwIfAborted()
      const index = this.idle.findIndex((thread) => thread.memoryMb === memoryMb && !thread.dead)
      const thread = index >= 0 ? this.idle.splice(index, 1)[0] : undefined
      if (thread) {
        clearTimeout(thread.idleTimer)
        thread.worker.ref()
        return thread
      }
      const max = this.policy.maxThreads
      if (max === undefined || this.all.size < max) {
        const fresh = new ProcessingThread(memoryMb, this.ocrPermit)
        this.started += 1
        this.all.add(fresh)
        return fresh
      }
      // At the cap: an idle thread of another heap size makes room, else wait for one to be freed.
      const spare = this.idle.shift()
      if (spare) await this.discard(spare, true)
      else await this.threadFreed(signal)
    }
  }

  private threadFreed(signal: AbortSignal | undefined): Promise<void> {
    return new Promise<void>((resolve) => {
      const wake = () => {
        signal?.removeEventListener('abort', onAbort)
        resolve()
      }
      // Woken on abort too: `take` then throws the reason.
      const onAbort = () => {
        const index = this.waiting.indexOf(wake)
        if (index >= 0) this.waiting.splice(index, 1)
        resolve()
      }
      this.waiting.push(wake)
      signal?.addEventListener('abort', onAbort, { once: true })
    })
  }

  private whenReady(thread: ProcessingThread, signal: AbortSignal | undefined): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      // Settles on the first of: ready, crashed, aborted, too slow; and leaves no timer behind.
      const done = (outcome: () => void) => {
        clearTimeout(timer)
        signal?.removeEventListener('abort', onAbort)
        outcome()
      }
      const timer = setTimeout(
        () => done(() => reject(new IngestError('the processing thread did not start in time', false))),
        STARTUP_TIMEOUT_MS,
      )
      const onAbort = () => done(() => reject(signal?.reason))
      signal?.addEventListener('abort', onAbort, { once: true })
      thread.ready.then(
        () => done(resolve),
        (error: unknown) => done(() => reject(error)),
      )
    })
  }

  private dispatch(
    thread: ProcessingThread,
    input: DocumentToProcess,
    progress: ProgressReporter,
    chunks: ChunkSink,
    signal: AbortSignal | undefined,
  ): Promise<ProcessingSummary> {
    const id = this.nextId++
    const maxHeap = this.policy.maxRetainedHeapBytes ?? MAX_RETAINED_HEAP_BYTES
    return new Promise<ProcessingSummary>((resolve, reject) => {
      let settled = false
      // The batch being stored: the thread may be done (and free) before it is.
      let storing: Promise<void> = Promise.resolve()
      /** `idle`: the thread finished the document (else it is stopped in the middle). */
      const settle = (keepThread: boolean, outcome: () => void, idle = false) => {
        if (settled) return
        settled = true
        budget.stop()
        signal?.removeEventListener('abort', onAbort)
        thread.listen(undefined)
        const after = keepThread ? Promise.resolve(this.release(thread)) : this.discard(thread, idle)
        after.then(outcome, outcome)
      }
      const budget = new Budget(input.limits.timeBudgetMs, () =>
        settle(false, () =>
          reject(ingestErrors.limit(`processing took longer than ${seconds(input.limits.timeBudgetMs)} s`)),
        ),
      )
      const onAbort = () => settle(false, () => reject(signal?.reason))
      signal?.addEventListener('abort', onAbort, { once: true })
      thread.listen((event) => {
        if (event.type === 'crash') settle(false, () => reject(event.error))
        else if (event.type === 'progress' && event.id === id) progress(event.done, event.total)
        else if (event.type === 'ocr-wait' && event.id === id) {
          if (event.waiting) budget.pause()
          else budget.resume()
        } else if (event.type === 'chunks' && event.id === id) {
          budget.pause()
          storing = chunks(event.chunks, event.language)
          storing.then(
            () => {
              if (settled) return
              budget.resume()
              thread.post({ type: 'chunks-stored', id })
            },
            (error: unknown) => settle(false, () => reject(error)),
          )
        } else if (event.type === 'done' && event.id === id) {
          const { result, last } = event
          // The thread is released first; its last batch is stored once the next document has
          // been handed to it (setImmediate runs after the hand-over's promise steps).
          if (last)
            storing = storing.then(() => new Promise(setImmediate)).then(() => chunks(last.chunks, last.language))
          settle(event.heapBytes <= maxHeap, () => storing.then(() => resolve(result), reject), true)
        } else if (event.type === 'failed' && event.id === id) {
          // Settled after the batch being stored, so the caller's clean-up never races its write.
          const failure = new IngestError(event.message, event.permanent)
          const fail = () => reject(failure)
          settle(event.heapBytes <= maxHeap, () => storing.then(fail, fail), true)
        }
      })
      thread.post({ type: 'process', id, input })
    })
  }

  private release(thread: ProcessingThread): void {
    thread.documents += 1
    if (this.closed || thread.dead || thread.documents >= (this.policy.maxDocuments ?? MAX_DOCUMENTS_PER_THREAD)) {
      void this.discard(thread, !thread.dead)
      return
    }
    // An idle thread must not keep the process alive.
    thread.worker.unref()
    thread.idleTimer = setTimeout(() => {
      const index = this.idle.indexOf(thread)
      if (index >= 0) this.idle.splice(index, 1)
      void this.discard(thread, true)
    }, IDLE_MS)
    thread.idleTimer.unref()
    this.idle.push(thread)
    this.waiting.shift()?.()
  }

  private async discard(thread: ProcessingThread, idle: boolean): Promise<void> {
    this.all.delete(thread)
    this.waiting.shift()?.()
    const ending = thread.terminate(idle)
    this.ending.add(ending)
    await ending
    this.ending.delete(ending)
  }
}
