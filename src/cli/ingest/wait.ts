import { setTimeout as sleep } from 'node:timers/promises'
import { ApiError, type LanternApi, TransferError } from './api-client.js'
import { forEachConcurrently } from './pool.js'
import type { Progress } from './progress.js'
import type { Failure } from './summary.js'
import type { UploadedFile } from './upload-tree.js'

export interface WaitOptions {
  readonly timeoutMs: number
  /** Status requests in flight at once. */
  readonly concurrency: number
  readonly progress: Progress
  /** First pause between two rounds of polling; it grows to `maxPollMs`. */
  readonly pollMs?: number
  readonly maxPollMs?: number
}

export interface WaitResult {
  readonly processed: number
  readonly failures: Failure[]
}

// A server busy or restarting answers these for a moment; the document is asked about again.
const transient = (error: unknown) =>
  error instanceof TransferError || (error instanceof ApiError && (error.status >= 500 || error.status === 429))

/**
 * Polls each uploaded document until its `embedding_state` is PROCESSED or ERROR, or `timeoutMs`
 * has passed. A document in ERROR is a `processing` failure carrying its `error_details`; one
 * still unfinished at the deadline is a `timeout` failure naming its last state.
 */
export async function waitForProcessing(
  api: LanternApi,
  documents: readonly UploadedFile[],
  options: WaitOptions,
): Promise<WaitResult> {
  const failures: Failure[] = []
  let processed = 0
  let pending = [...documents]
  const lastState = new Map<string, string>()
  const deadline = Date.now() + options.timeoutMs
  let pause = options.pollMs ?? 250
  const { progress } = options
  const tally = () => `${processed} processed, ${failures.length} errors`
  progress.begin('processing', documents.length)

  try {
    while (pending.length > 0) {
      const finished = new Set<string>()
      await forEachConcurrently(pending, options.concurrency, async (document) => {
        const fail = (failure: Omit<Failure, 'file' | 'objectName' | 'documentId'>) => {
          failures.push({
            file: document.file.relativePath,
            objectName: document.objectName,
            documentId: document.id,
            ...failure,
          })
          finished.add(document.id)
        }
        try {
          const { state, errorDetails } = await api.processing(document.id)
          lastState.set(document.id, state)
          if (state === 'PROCESSED') {
            processed++
            finished.add(document.id)
          } else if (state === 'ERROR') {
            fail({ stage: 'processing', detail: errorDetails || 'no details given' })
          }
        } catch (error) {
          if (error instanceof ApiError && error.status === 404) {
            return fail({ stage: 'processing', detail: 'the document was deleted while waiting for it' })
          }
          if (!transient(error)) throw error
        }
      })
      pending = pending.filter((document) => !finished.has(document.id))
      progress.update(documents.length - pending.length, tally())
      if (pending.length === 0) break
      const left = deadline - Date.now()
      if (left <= 0) {
        const seconds = Math.round(options.timeoutMs / 1000)
        for (const document of pending) {
          failures.push({
            file: document.file.relativePath,
            objectName: document.objectName,
            documentId: document.id,
            stage: 'timeout',
            detail: `still ${lastState.get(document.id) ?? 'unknown'} after ${seconds} s (--timeout)`,
          })
        }
        break
      }
      await sleep(Math.min(pause, left))
      pause = Math.min(pause * 1.5, options.maxPollMs ?? 3000)
    }
  } finally {
    progress.end()
  }
  return { processed, failures }
}
