import { setTimeout as sleep } from 'node:timers/promises'
import type { BenchApi, Processing } from './api.js'

/** How a document ended for the benchmark. */
export type Outcome = 'PROCESSED' | 'ERROR' | 'STUCK' | 'UNFINISHED'

export interface Tracked {
  readonly id: string
  outcome: Outcome | undefined
  /** Last processing object read. */
  last: Processing | undefined
  /** Benchmark clock (ms since epoch) when PROCESSED or ERROR was first seen. */
  finishedAt: number | undefined
  /** Benchmark clock when the current PROCESSING attempt was first seen. */
  processingSince: number | undefined
  /** Distinct `start_timestamp` values seen: more than one means the job was retried. */
  readonly attempts: Set<string>
  /** Why the benchmark gave up on it (STUCK / UNFINISHED). */
  note: string
}

export interface WaitOptions {
  /** Overall deadline for every document, from the call. */
  readonly timeoutMs: number
  /**
   * A document PROCESSING for longer than this (the service's time budget plus its lease, plus a
   * margin) is reported STUCK and no longer polled.
   */
  readonly stuckAfterMs: number
  readonly pollMs?: number
  /** Status requests in flight at once. */
  readonly concurrency?: number
  /** Called after each polling round with the counts so far. */
  readonly onRound?: (done: number, total: number) => void
  /** Stops waiting early (e.g. the server exited). */
  readonly abort?: () => string | undefined
}

/** A service timestamp (`2026-11-22T09:05:03.123456`, UTC) in ms since epoch. */
export function serviceTime(timestamp: string | null | undefined): number | undefined {
  if (!timestamp) return undefined
  const ms = Date.parse(`${timestamp.slice(0, 23)}Z`)
  return Number.isNaN(ms) ? undefined : ms
}

/**
 * Whether the service was working on the document at `at` (ms since epoch): from its
 * start_timestamp until the benchmark saw it finished (which includes indexing the chunks, done
 * after end_timestamp is taken, and up to one polling interval).
 */
export function inFlightAt(doc: Tracked, at: number): boolean {
  const start = serviceTime(doc.last?.start_timestamp)
  if (start === undefined || start > at) return false
  const end = doc.finishedAt ?? serviceTime(doc.last?.end_timestamp) ?? Number.POSITIVE_INFINITY
  return at <= end
}

/** Starts tracking a document that was just uploaded. */
export function track(id: string): Tracked {
  return {
    id,
    outcome: undefined,
    last: undefined,
    finishedAt: undefined,
    processingSince: undefined,
    attempts: new Set(),
    note: '',
  }
}

async function pollOne(api: BenchApi, doc: Tracked, stuckAfterMs: number): Promise<void> {
  let processing: Processing
  try {
    processing = await api.processing(doc.id)
  } catch {
    return // a busy server: asked again next round
  }
  const now = Date.now()
  doc.last = processing
  const state = processing.embedding_state
  if (processing.start_timestamp && !doc.attempts.has(processing.start_timestamp)) {
    // A new attempt (the job was retried after a lost lease) gets its own time budget.
    doc.attempts.add(processing.start_timestamp)
    doc.processingSince = undefined
  }
  if (state === 'PROCESSED' || state === 'ERROR') {
    doc.outcome = state
    doc.finishedAt = now
    return
  }
  if (state !== 'PROCESSING') {
    doc.processingSince = undefined
    return
  }
  doc.processingSince ??= now
  if (now - doc.processingSince > stuckAfterMs) {
    doc.outcome = 'STUCK'
    doc.note = `PROCESSING for more than ${Math.round(stuckAfterMs / 1000)} s (time budget + lease)`
  }
}

/**
 * Polls every document until it is PROCESSED or ERROR, is STUCK (PROCESSING past `stuckAfterMs`),
 * or the overall timeout passes (UNFINISHED, with its last state). Resolves when every document
 * has an outcome.
 */
export async function waitForAll(api: BenchApi, docs: readonly Tracked[], options: WaitOptions): Promise<void> {
  const deadline = Date.now() + options.timeoutMs
  const concurrency = options.concurrency ?? 8
  for (;;) {
    const open = docs.filter((doc) => doc.outcome === undefined)
    for (let i = 0; i < open.length; i += concurrency) {
      await Promise.all(open.slice(i, i + concurrency).map((doc) => pollOne(api, doc, options.stuckAfterMs)))
    }
    const left = docs.filter((doc) => doc.outcome === undefined)
    options.onRound?.(docs.length - left.length, docs.length)
    if (left.length === 0) return
    const aborted = options.abort?.()
    if (aborted !== undefined || Date.now() >= deadline) {
      for (const doc of left) {
        doc.outcome = 'UNFINISHED'
        doc.note = aborted ?? `still ${doc.last?.embedding_state ?? 'unknown'} at the overall timeout`
      }
      return
    }
    await sleep(options.pollMs ?? 500)
  }
}
