import { getHeapStatistics } from 'node:v8'
import { type MessagePort, parentPort, threadId, workerData } from 'node:worker_threads'
import { lowerThreadPriority } from '../../lib/thread-priority.js'
import { IngestError } from '../errors.js'
import { sharedOcr, terminateOcr } from '../ocr/ocr.js'
import { OcrPermit } from '../ocr/ocr-permit.js'
import { endMutoolShell } from '../parsers/pdf-mutool.js'
import type { ChunkDraft, DocumentToProcess, ProcessingSummary } from '../pipeline/pipeline-types.js'
import { processDocumentInBatches } from '../pipeline/process-document.js'

/** What the job side asks a processing thread to do, or tells it: a batch of chunks is stored. */
export type ProcessRequest =
  | { readonly type: 'process'; readonly id: number; readonly input: DocumentToProcess }
  | { readonly type: 'chunks-stored'; readonly id: number }
  /** The thread is about to be ended: end the processes and the OCR engine it keeps. */
  | { readonly type: 'end-children' }

/** A document's last batch of chunks, handed over with its result. */
interface LastBatch {
  readonly chunks: readonly ChunkDraft[]
  readonly language: string
}

/** Messages a processing thread posts: ready once its modules are loaded, then per request. */
export type ThreadMessage =
  | { readonly type: 'ready' }
  | { readonly type: 'children-ended' }
  | { readonly type: 'progress'; readonly id: number; readonly done: number; readonly total: number }
  /** OCR waits for the process's one OCR permit (true) or goes on (false): its time is not the document's. */
  | { readonly type: 'ocr-wait'; readonly id: number; readonly waiting: boolean }
  | {
      readonly type: 'chunks'
      readonly id: number
      readonly chunks: readonly ChunkDraft[]
      readonly language: string
    }
  | {
      readonly type: 'done'
      readonly id: number
      readonly result: ProcessingSummary
      readonly heapBytes: number
      /** The last batch, handed over with the result so the thread is free before it is stored. */
      readonly last?: LastBatch
    }
  | {
      readonly type: 'failed'
      readonly id: number
      readonly message: string
      readonly permanent: boolean
      readonly heapBytes: number
    }

/**
 * What a failure means for the document. IngestErrors say it themselves; anything else thrown
 * while processing comes from the content (a library choking on it) and would happen again.
 */
function describeFailure(error: unknown): { message: string; permanent: boolean } {
  if (error instanceof IngestError) return { message: error.message, permanent: error.permanent }
  const message = error instanceof Error ? error.message : String(error)
  return { message: `the document could not be processed: ${message.slice(0, 500)}`, permanent: true }
}

/** Memory this thread's heap holds now (V8 heap and buffers), so the pool can recycle a grown thread. */
function heapBytes(): number {
  const statistics = getHeapStatistics() as ReturnType<typeof getHeapStatistics> & { external_memory?: number }
  return statistics.total_heap_size + (statistics.external_memory ?? 0)
}

/**
 * How much a processing thread yields to the rest of the process (nice 10, the `nice` command's
 * default). The pool's thread serves the HTTP API and writes every document's chunks to the
 * index, one transaction after another: on a machine with fewer cores than busy threads it is the
 * bottleneck, and parsing (this thread, its OCR engine, its `mutool` runs, which inherit the
 * value) waits for it anyway. See docs/decisions.md "Processing threads yield to the pool's thread".
 */
const PROCESSING_NICENESS = 10

/** Per request, what tells it that its last batch of chunks is stored. */
const stored = new Map<number, () => void>()
/** The request being processed (a thread processes one document at a time). */
let current = 0

/** What the pool gives every processing thread (see run-in-thread.ts). */
export interface ProcessingThreadData {
  readonly lanternProcessing: true
  /** The cell of the process's OCR permit (OcrPermit). */
  readonly ocrPermit: SharedArrayBuffer
}

async function handle(port: MessagePort, id: number, input: DocumentToProcess): Promise<void> {
  current = id
  let reply: ThreadMessage
  // The batch being stored: the next one is cut meanwhile and handed over once it is stored, so
  // processing and the store's writes overlap by one batch and never more.
  let storing: Promise<void> = Promise.resolve()
  let last: LastBatch | undefined
  try {
    const result = await processDocumentInBatches(
      input,
      (done, total) => port.postMessage({ type: 'progress', id, done, total }),
      async (chunks, language, isLast) => {
        await storing
        if (isLast) {
          last = { chunks, language }
          return
        }
        storing = new Promise<void>((resolve) => {
          stored.set(id, resolve)
          port.postMessage({ type: 'chunks', id, chunks, language } satisfies ThreadMessage)
        })
      },
    )
    // The last batch goes with the result, not before it: the pool gives this thread the next
    // document first and stores the batch after (as a message of its own, the batch's
    // transaction would hold the pool's event loop, and the thread idle, until it committed).
    stored.delete(id)
    reply = { type: 'done', id, result, heapBytes: heapBytes(), ...(last ? { last } : {}) }
  } catch (error) {
    stored.delete(id)
    reply = { type: 'failed', id, ...describeFailure(error), heapBytes: heapBytes() }
  }
  // An OCR engine holds a few hundred MB (its own thread and WebAssembly memory) and never gives
  // them back while loaded: it is ended with the document rather than after a minute idle, unless
  // the thread's next document reads images within a moment (see TesseractOcr.endDocument).
  await sharedOcr.endDocument().catch(() => undefined)
  port.postMessage(reply)
}

// The entry of a processing thread (see run-in-thread.ts); importing it anywhere else does nothing.
const data = workerData as Partial<ProcessingThreadData> | null
if (parentPort && data?.lanternProcessing) {
  const port = parentPort
  lowerThreadPriority(PROCESSING_NICENESS)
  if (data.ocrPermit) {
    sharedOcr.usePermit(new OcrPermit(data.ocrPermit, threadId), (waiting) =>
      port.postMessage({ type: 'ocr-wait', id: current, waiting } satisfies ThreadMessage),
    )
  }
  port.on('message', (request: ProcessRequest) => {
    if (request.type === 'process') void handle(port, request.id, request.input)
    else if (request.type === 'end-children') {
      // An OCR engine kept for the next document ends too (and gives the OCR permit back).
      void Promise.all([endMutoolShell(), terminateOcr().catch(() => undefined)]).then(() =>
        port.postMessage({ type: 'children-ended' } satisfies ThreadMessage),
      )
    } else {
      const resolve = stored.get(request.id)
      stored.delete(request.id)
      resolve?.()
    }
  })
  port.postMessage({ type: 'ready' } satisfies ThreadMessage)
}
