import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { Worker, type WorkerOptions } from 'node:worker_threads'
import { IngestError, ingestErrors } from '../errors.js'
import { OcrPermit } from '../ocr/ocr-permit.js'
import type { ProcessingThreadData, ProcessRequest, ThreadMessage } from './worker-thread.js'

/** An idle thread asked to end its child processes is ended anyway after this long. */
const CHILDREN_END_MS = 5_000
/**
 * The same for a busy thread (over its time, aborted): one waiting for its mutool run answers at
 * once, one stuck in its own code never does, and the document's failure waits for this.
 */
const BUSY_CHILDREN_END_MS = 1_000

/** How the thread's entry module is loaded: the built `.js` beside this file, or the `.ts` source. */
function threadEntry(): { filename: URL; options: WorkerOptions } {
  if (!import.meta.url.endsWith('.ts')) return { filename: new URL('./worker-thread.js', import.meta.url), options: {} }
  // Running from source (tsx, vitest). On Node 20, tsx does not register its hooks in a worker
  // thread (`--import tsx` in execArgv has no effect), so a tiny ESM bootstrap registers them
  // through tsx's API and then imports the TypeScript entry.
  const require = createRequire(import.meta.url)
  const manifest = require.resolve('tsx/package.json')
  const exportsMap = (require('tsx/package.json') as { exports: Record<string, { import: { default: string } }> })
    .exports
  const api = pathToFileURL(join(dirname(manifest), exportsMap['./esm/api']?.import.default ?? '')).href
  const entry = new URL('./worker-thread.ts', import.meta.url).href
  const code = `import { register } from ${JSON.stringify(api)}; register(); await import(${JSON.stringify(entry)});`
  return { filename: new URL(`data:text/javascript,${encodeURIComponent(code)}`), options: { execArgv: [] } }
}

/** Why a thread died: out of its heap is the document's fault (permanent), anything else is not. */
function crashError(error: Error, memoryMb: number): IngestError {
  if ((error as { code?: unknown }).code === 'ERR_WORKER_OUT_OF_MEMORY') {
    return ingestErrors.limit(`the document needs more than ${memoryMb} MB of memory`)
  }
  return new IngestError(`the processing thread crashed: ${error.message}`, false, { cause: error })
}

export type ThreadEvent = ThreadMessage | { readonly type: 'crash'; readonly error: IngestError }

/** One worker thread with the processing pipeline loaded, its heap capped at `memoryMb`. */
export class ProcessingThread {
  readonly worker: Worker
  /** Read at the start: `worker.threadId` is -1 once the thread has stopped. */
  private readonly threadId: number
  /** Resolves once the parsers are loaded; rejects if the thread dies first. */
  readonly ready: Promise<void>
  documents = 0
  dead = false
  idleTimer: NodeJS.Timeout | undefined
  private listener: ((event: ThreadEvent) => void) | undefined

  constructor(
    readonly memoryMb: number,
    private readonly ocrPermit: SharedArrayBuffer,
  ) {
    const { filename, options } = threadEntry()
    this.worker = new Worker(filename, {
      ...options,
      workerData: { lanternProcessing: true, ocrPermit } satisfies ProcessingThreadData,
      resourceLimits: { maxOldGenerationSizeMb: memoryMb },
    })
    this.threadId = this.worker.threadId
    this.ready = new Promise<void>((resolve, reject) => {
      this.listener = (event) => {
        if (event.type === 'ready') resolve()
        else if (event.type === 'crash') reject(event.error)
      }
    })
    this.ready.catch(() => undefined)
    this.worker.on('message', (message: ThreadMessage) => this.listener?.(message))
    this.worker.on('error', (error) => this.die(crashError(error, memoryMb)))
    this.worker.on('exit', (code) =>
      this.die(new IngestError(`the processing thread stopped unexpectedly (exit code ${code})`, false)),
    )
  }

  listen(listener: ((event: ThreadEvent) => void) | undefined): void {
    this.listener = listener
  }

  post(request: ProcessRequest): void {
    this.worker.postMessage(request)
  }

  /**
   * Ends the thread. It first ends the processes it keeps (its mutool shell, and the run a busy
   * thread waits for) and waits for them: a process whose owner (the thread's event loop) is gone
   * keeps running and then stays a zombie until the service ends. A busy thread (over its time,
   * aborted) gets a shorter grace; one that cannot answer is stopped all the same.
   */
  async terminate(idle = false): Promise<void> {
    if (!this.dead) await this.endChildren(idle ? CHILDREN_END_MS : BUSY_CHILDREN_END_MS)
    this.dead = true
    this.listener = undefined
    clearTimeout(this.idleTimer)
    await this.worker.terminate().catch(() => undefined)
    OcrPermit.releaseHeldBy(this.ocrPermit, this.threadId)
  }

  private endChildren(graceMs: number): Promise<void> {
    return new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer)
        resolve()
      }
      const timer = setTimeout(done, graceMs)
      this.listener = (event) => {
        if (event.type === 'children-ended' || event.type === 'crash') done()
      }
      this.worker.postMessage({ type: 'end-children' } satisfies ProcessRequest)
    })
  }

  private die(error: IngestError): void {
    // A thread that died holding the OCR permit would keep every other thread from OCR.
    OcrPermit.releaseHeldBy(this.ocrPermit, this.threadId)
    if (this.dead && !this.listener) return
    this.dead = true
    const listener = this.listener
    this.listener = undefined
    listener?.({ type: 'crash', error })
  }
}
