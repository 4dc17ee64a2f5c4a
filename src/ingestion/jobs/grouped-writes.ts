import type { Repositories, Store } from '../../storage/store.js'

/** Where ingestion's index writes go: each runs in a transaction, perhaps shared with others. */
export interface IndexWrites {
  /** Runs `work` in a transaction; `weight` is its size in chunks. */
  run<T>(work: (tx: Repositories) => Promise<T>, weight?: number): Promise<T>
}

/**
 * Grouped writes on SQLite; on PostgreSQL every write in its own transaction, as before. There
 * several transactions run at once (threads, worker processes), and each publication locks its
 * `term_stats` rows in one order so that they never deadlock; two publications in one transaction
 * would not keep that order. SQLite has one writer, and the page writes grouping saves.
 */
export function indexWritesFor(store: Store, maxChunks: number): IndexWrites {
  if (store.dialect === 'sqlite') return new GroupedWrites(store, maxChunks)
  return { run: (work) => store.transaction(work) }
}

/** A write waiting for its group's transaction. */
interface PendingWrite {
  readonly work: (tx: Repositories) => Promise<unknown>
  readonly weight: number
  readonly resolve: (value: unknown) => void
  readonly reject: (error: unknown) => void
}

/**
 * Ingestion's index writes (a batch of chunks and its postings, a document's publication), run a
 * group per transaction: writes that arrive while one transaction is being written go together
 * into the next. A transaction rewrites every index page it touches, and the postings of any two
 * documents share most of their pages (one per term), so documents written together cost much
 * less than one after the other; it is also what keeps the writes up with the processing threads.
 * A group holds at most `maxWeight` (chunks) unless one write alone is heavier, so no transaction
 * keeps the store from other requests much longer than one batch did. When a group's transaction
 * fails (one document's run went stale, a lease was lost) every write of the group is run again
 * alone, so each gets its own outcome and one write never costs another its result. Works must
 * therefore keep their effects inside the transaction until it commits.
 */
export class GroupedWrites implements IndexWrites {
  private readonly queue: PendingWrite[] = []
  private draining = false

  constructor(
    private readonly store: Store,
    private readonly maxWeight: number,
  ) {}

  /** Runs `work` in a transaction shared with the writes queued beside it; `weight` is its size in chunks. */
  run<T>(work: (tx: Repositories) => Promise<T>, weight = 0): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ work, weight, resolve: resolve as (value: unknown) => void, reject })
      if (this.draining) return
      this.draining = true
      // Writes handed over in the same turn of the event loop start together.
      setImmediate(() => void this.drain())
    })
  }

  private async drain(): Promise<void> {
    while (this.queue.length > 0) await this.write(this.nextGroup())
    this.draining = false
  }

  private nextGroup(): PendingWrite[] {
    let weight = 0
    let count = 0
    for (const pending of this.queue) {
      if (count > 0 && weight + pending.weight > this.maxWeight) break
      weight += pending.weight
      count += 1
    }
    return this.queue.splice(0, count)
  }

  private async write(group: readonly PendingWrite[]): Promise<void> {
    if (group.length > 1) {
      try {
        const results = await this.store.transaction(async (tx) => {
          const values: unknown[] = []
          for (const pending of group) values.push(await pending.work(tx))
          return values
        })
        for (const [i, pending] of group.entries()) pending.resolve(results[i])
        return
      } catch {
        // Rolled back as a whole: each write alone now, for its own result.
      }
    }
    for (const pending of group) {
      await this.store.transaction(pending.work).then(pending.resolve, pending.reject)
    }
  }
}
