import { type MessagePort, parentPort, workerData } from 'node:worker_threads'
import { IngestError } from './errors.js'
import type { DocumentToProcess, ProcessedDocument } from './pipeline-types.js'
import { processDocument } from './process-document.js'

/** What the job side asks a processing thread to do. */
export interface ProcessRequest {
  readonly type: 'process'
  readonly id: number
  readonly input: DocumentToProcess
}

/** Messages a processing thread posts: ready once its modules are loaded, then per request. */
export type ThreadMessage =
  | { readonly type: 'ready' }
  | { readonly type: 'progress'; readonly id: number; readonly done: number; readonly total: number }
  | { readonly type: 'done'; readonly id: number; readonly result: ProcessedDocument }
  | { readonly type: 'failed'; readonly id: number; readonly message: string; readonly permanent: boolean }

/**
 * What a failure means for the document. IngestErrors say it themselves; anything else thrown
 * while processing comes from the content (a library choking on it) and would happen again.
 */
function describeFailure(error: unknown): { message: string; permanent: boolean } {
  if (error instanceof IngestError) return { message: error.message, permanent: error.permanent }
  const message = error instanceof Error ? error.message : String(error)
  return { message: `the document could not be processed: ${message.slice(0, 500)}`, permanent: true }
}

async function handle(port: MessagePort, request: ProcessRequest): Promise<void> {
  const { id, input } = request
  let reply: ThreadMessage
  try {
    const result = await processDocument(input, (done, total) =>
      port.postMessage({ type: 'progress', id, done, total }),
    )
    reply = { type: 'done', id, result }
  } catch (error) {
    reply = { type: 'failed', id, ...describeFailure(error) }
  }
  port.postMessage(reply)
}

// The entry of a processing thread (see run-in-thread.ts); importing it anywhere else does nothing.
if (parentPort && (workerData as { lanternProcessing?: unknown } | null)?.lanternProcessing) {
  const port = parentPort
  port.on('message', (request: ProcessRequest) => {
    if (request.type === 'process') void handle(port, request)
  })
  port.postMessage({ type: 'ready' } satisfies ThreadMessage)
}
