import type { IndexFeed } from '../../storage/ports/search.js'
import { refCode } from '../chunk-ref.js'
import { CompanyIndex } from './company-index.js'
import type { DocumentBatch } from './company-index-types.js'
import { TermRunBuilder } from './segment.js'

/** Blocks of postings read per page while loading (bounds the rows held at once: about 270,000 postings). */
const LOAD_BLOCKS = 30_000
/** After a company did not fit in the budget, how long before loading it is tried again. */
const RETRY_TOO_LARGE_MS = 10 * 60_000

interface Entry {
  index: CompanyIndex | undefined
  loading: Promise<CompanyIndex | undefined> | undefined
  /** The change check running now, and the one queued after it (shared by every query that waits). */
  running: Promise<void> | undefined
  queued: Promise<void> | undefined
  lastUsed: number
  /** Set when the company's index did not fit in the budget: when that was. */
  tooLargeAt: number | undefined
}

export interface IndexCacheOptions {
  /** Bytes all companies' indexes may take together; the least recently used go first. */
  readonly budgetBytes: number
  /**
   * How long a query waits for its company's index to load before the store answers it instead
   * (the load goes on); undefined waits for the load.
   */
  readonly loadWaitMs?: number
  /** Tells when a company's index does not fit (its queries then read the store). */
  readonly onTooLarge?: (companyId: string, bytes: number) => void
  readonly now?: () => number
}

/**
 * In-memory lexical indexes of the companies this process answers for (docs/decisions.md
 * "In-memory lexical index per API process"). A company's index is loaded from the store on its
 * first query; before every later query the store's change log (migration 0007) is read after
 * the version the index reflects, and only the documents named there are read again, so a
 * document processed, reprocessed or deleted through any process is seen by the next query here.
 * Indexes together stay under the byte budget: the least recently used company is dropped first,
 * and a company that alone does not fit is not kept (the caller falls back to the store).
 */
export class IndexCache {
  private readonly entries = new Map<string, Entry>()
  private readonly now: () => number

  constructor(
    private readonly repository: IndexFeed,
    private readonly options: IndexCacheOptions,
  ) {
    this.now = options.now ?? Date.now
  }

  /** Companies whose index is in memory, least recently used first. */
  get companies(): string[] {
    return [...this.entries]
      .filter(([, entry]) => entry.index !== undefined)
      .sort((a, b) => a[1].lastUsed - b[1].lastUsed)
      .map(([id]) => id)
  }

  /** Bytes the indexes in memory take (estimate). */
  get bytes(): number {
    let total = 0
    for (const entry of this.entries.values()) total += entry.index?.bytes ?? 0
    return total
  }

  /**
   * The company's index, up to date with every change committed before this call; undefined when
   * it does not fit in the budget, or is still loading after `loadWaitMs`.
   */
  async get(companyId: string): Promise<CompanyIndex | undefined> {
    let entry = this.entries.get(companyId)
    if (!entry) {
      entry = {
        index: undefined,
        loading: undefined,
        running: undefined,
        queued: undefined,
        lastUsed: 0,
        tooLargeAt: undefined,
      }
      this.entries.set(companyId, entry)
    }
    entry.lastUsed = this.now()
    if (entry.tooLargeAt !== undefined) {
      if (this.now() - entry.tooLargeAt < RETRY_TOO_LARGE_MS) return undefined
      entry.tooLargeAt = undefined
    }
    if (!entry.index) {
      // A fresh load reads the version first, so it already reflects every earlier change.
      if (!entry.loading) {
        const loading = this.load(companyId, entry).finally(() => {
          if (entry) entry.loading = undefined
        })
        // Nobody may be waiting when it fails (the store answered): the next query loads again.
        loading.catch(() => undefined)
        entry.loading = loading
      }
      const wait = this.options.loadWaitMs
      if (wait === undefined) return entry.loading
      let timer: NodeJS.Timeout | undefined
      const late = new Promise<undefined>((resolve) => {
        timer = setTimeout(() => resolve(undefined), wait)
      })
      try {
        return await Promise.race([entry.loading, late])
      } finally {
        clearTimeout(timer)
      }
    }
    await this.check(companyId, entry)
    return entry.index
  }

  /** Joins the next change check that starts after this call (one read serves every waiting query). */
  private check(companyId: string, entry: Entry): Promise<void> {
    if (entry.queued) return entry.queued
    const start = (): Promise<void> => {
      entry.queued = undefined
      const run = this.refresh(companyId, entry).finally(() => {
        if (entry.running === run) entry.running = undefined
      })
      entry.running = run
      return run
    }
    if (!entry.running) return start()
    entry.queued = entry.running.then(start, start)
    return entry.queued
  }

  private async refresh(companyId: string, entry: Entry): Promise<void> {
    const index = entry.index
    if (!index) return
    const changes = await this.repository.indexChangesSince(companyId, index.version)
    if (changes.length === 0) return
    const first = changes[0]
    if (!first || first.version !== index.version + 1) {
      // Changes were dropped from the log before this process read them: start again.
      entry.index = undefined
      entry.loading ??= this.load(companyId, entry).finally(() => {
        entry.loading = undefined
      })
      await entry.loading
      return
    }
    const last = changes[changes.length - 1]?.version ?? index.version
    const documentIds = [...new Set(changes.map((change) => change.documentId))]
    const batches = await this.read(companyId, documentIds)
    // Applied after every read, in one synchronous step: a query never sees half a change.
    if (entry.index !== index) return
    for (const batch of batches) index.apply(batch)
    index.version = Math.max(index.version, last)
    this.fit(companyId, entry)
  }

  /**
   * Reads the company's whole index: the searchable chunks, then every posting in term order
   * (sequential pages, no look-up per chunk), kept for the loaded chunks.
   */
  private async load(companyId: string, entry: Entry): Promise<CompanyIndex | undefined> {
    // The version first: a change committed while loading is read again at the next check.
    const version = await this.repository.indexVersion(companyId)
    const documents = await this.repository.indexedDocuments(companyId)
    const allChunks = documents.reduce((sum, document) => sum + document.chunkCount, 0)
    const postings = await this.repository.postingCount(companyId)
    // Typed arrays of the postings and per-chunk data: checked before reading anything large.
    const expected = postings * 8 + allChunks * 120
    if (expected > this.options.budgetBytes) return this.tooLarge(companyId, entry, expected)

    const index = new CompanyIndex(version)
    const searchable = [...new Set(documents.filter((d) => d.searchable).map((d) => d.documentId))].sort()
    await new Promise((resolve) => setImmediate(resolve))
    const chunks = await this.repository.searchableChunks(companyId, searchable)
    await new Promise((resolve) => setImmediate(resolve))
    const { byChunk, added } = index.addChunks(chunks)
    index.setContexts(searchable, await this.repository.documentContexts(companyId, searchable))
    const builder = new TermRunBuilder(postings)
    let from: string | null = null
    for (;;) {
      const page = await this.repository.postingsFromTerm(companyId, from, LOAD_BLOCKS)
      for (const posting of page.postings) {
        const ordinal = byChunk.get(refCode(posting.documentKey, posting.chunkIdx))
        if (ordinal !== undefined) builder.add(posting.term, ordinal, posting.tf)
      }
      if (page.next === null) break
      from = page.next
      // An embedded (synchronous) SQLite resolves every read at once: without a turn of the event
      // loop, a load of seconds would hold back every other request and the load-wait timer.
      await new Promise((resolve) => setImmediate(resolve))
    }
    index.attach(builder.build(byChunk.size), added)
    if (index.bytes > this.options.budgetBytes) return this.tooLarge(companyId, entry, index.bytes)
    entry.index = index
    this.fit(companyId, entry)
    return entry.index
  }

  private tooLarge(companyId: string, entry: Entry, bytes: number): undefined {
    entry.index = undefined
    entry.tooLargeAt = this.now()
    this.options.onTooLarge?.(companyId, bytes)
    return undefined
  }

  /** The documents' current chunks and postings, a few at a time. */
  private async read(companyId: string, documentIds: readonly string[]): Promise<DocumentBatch[]> {
    const batches: DocumentBatch[] = []
    // Bounded so that a refresh after a large change does not hold every posting at once.
    for (let start = 0; start < documentIds.length; start += 200) {
      const ids = documentIds.slice(start, start + 200)
      const chunks = await this.repository.searchableChunks(companyId, ids)
      const postings = chunks.length > 0 ? await this.repository.searchablePostings(companyId, ids) : []
      const contexts = chunks.length > 0 ? await this.repository.documentContexts(companyId, ids) : []
      batches.push({ documentIds: ids, chunks, postings, contexts })
    }
    return batches
  }

  /** Drops the least recently used other companies until every index fits in the budget. */
  private fit(companyId: string, entry: Entry): void {
    const budget = this.options.budgetBytes
    if ((entry.index?.bytes ?? 0) > budget) {
      this.tooLarge(companyId, entry, entry.index?.bytes ?? 0)
      return
    }
    for (const victim of this.companies) {
      if (this.bytes <= budget) break
      if (victim === companyId) continue
      const other = this.entries.get(victim)
      if (other) other.index = undefined
    }
  }
}
