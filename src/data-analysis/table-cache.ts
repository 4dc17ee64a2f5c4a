import { randomUUID } from 'node:crypto'
import { createWriteStream } from 'node:fs'
import { mkdir, rm, stat } from 'node:fs/promises'
import { extname, join } from 'node:path'
import { pipeline } from 'node:stream/promises'
import type { IngestLimits } from '../ingestion/model.js'
import { AppError } from '../lib/errors.js'
import type { BlobStore } from '../storage/ports/blobs.js'
import type { DocumentRecord } from '../storage/ports/knowledge-base.js'
import type { EngineLimits } from './duckdb.js'
import { buildTableFile, type CachedTable, cellCount, readTableFile, removeTableFile, tooLarge } from './table-file.js'
import { preparedTablesKey } from './table-preparation.js'

/** A document's tables, typed, in a DuckDB file that queries attach read-only. */
export interface LoadedDocument {
  readonly documentId: string
  readonly filename: string
  readonly file: string
  readonly tables: readonly CachedTable[]
  readonly bytes: number
}

export interface TableCacheSettings {
  /** Where loaded tables live (a directory private to this process, emptied on start). */
  readonly directory: string
  readonly maxCells: number
  /** Total size of cached table files; the least recently used go first. */
  readonly maxBytes: number
  readonly engine: EngineLimits
  readonly ingestLimits: IngestLimits
  /** LibreOffice's `soffice` for legacy workbooks; null or absent: not installed. */
  readonly soffice?: string | null
}

/** Loaded documents kept at most, whatever their size. */
const MAX_ENTRIES = 64

/**
 * Loads documents' tables from the blob store into DuckDB files, once per (document, processing
 * run): a bounded LRU keeps them, so repeated questions do not reload. Loads of one key share one promise.
 */
export class TableCache {
  private readonly entries = new Map<string, Promise<LoadedDocument>>()
  private readonly loaded = new Map<string, LoadedDocument>()
  private ready: Promise<void> | null = null
  /** Loads run one at a time: each may use the whole DuckDB memory limit and both cores. */
  private queue: Promise<unknown> = Promise.resolve()

  constructor(
    private readonly blobs: BlobStore,
    private readonly settings: TableCacheSettings,
  ) {}

  async load(document: DocumentRecord): Promise<LoadedDocument> {
    const key = `${document.id}@${document.processing.startedAt ?? ''}@${document.blobKey}`
    const existing = this.entries.get(key)
    if (existing) {
      // Most recently used last.
      this.entries.delete(key)
      this.entries.set(key, existing)
      return existing
    }
    const turn = this.queue.then(() => this.loadFresh(document))
    this.queue = turn.catch(() => {})
    const loading = turn.then(
      (result) => {
        this.loaded.set(key, result)
        void this.evict()
        return result
      },
      (error: unknown) => {
        this.entries.delete(key)
        throw error
      },
    )
    this.entries.set(key, loading)
    return loading
  }

  /** Removes every cached file. */
  async close(): Promise<void> {
    this.entries.clear()
    this.loaded.clear()
    await rm(this.settings.directory, { recursive: true, force: true })
  }

  private async evict(): Promise<void> {
    let total = [...this.loaded.values()].reduce((sum, entry) => sum + entry.bytes, 0)
    for (const key of [...this.entries.keys()]) {
      if ((total <= this.settings.maxBytes && this.loaded.size <= MAX_ENTRIES) || this.loaded.size <= 1) break
      const entry = this.loaded.get(key)
      if (!entry) continue
      this.entries.delete(key)
      this.loaded.delete(key)
      total -= entry.bytes
      // A query that attached it already keeps its own handle open; later opens reload.
      await removeTableFile(entry.file).catch(() => {})
    }
  }

  private async prepareDirectory(): Promise<void> {
    this.ready ??= (async () => {
      await rm(this.settings.directory, { recursive: true, force: true })
      await mkdir(this.settings.directory, { recursive: true })
    })()
    await this.ready
  }

  private async loadFresh(document: DocumentRecord): Promise<LoadedDocument> {
    await this.prepareDirectory()
    const id = randomUUID()
    const file = join(this.settings.directory, `${id}.duckdb`)
    const filename = document.objectName.slice(document.objectName.lastIndexOf('/') + 1)
    const tables = (await this.fetchPrepared(document, file)) ?? (await this.build(document, id, file))
    return { documentId: document.id, filename, file, tables, bytes: (await stat(file)).size }
  }

  /**
   * The table file ingestion prepared for this processing run, copied to `file`; null when there
   * is none (processed before preparation existed, or too large then) or it is of another format.
   */
  private async fetchPrepared(document: DocumentRecord, file: string): Promise<CachedTable[] | null> {
    if (!document.processing.startedAt) return null
    const stream = await this.blobs.open(preparedTablesKey(document.blobKey, document.processing.startedAt))
    if (!stream) return null
    await pipeline(stream, createWriteStream(file))
    const tables = await readTableFile(file, this.settings.engine)
    if (!tables) {
      await removeTableFile(file)
      return null
    }
    if (cellCount(tables) > this.settings.maxCells) {
      await removeTableFile(file)
      throw tooLarge(this.settings.maxCells)
    }
    return tables
  }

  /** Loads the tables from the document's stored bytes. */
  private async build(document: DocumentRecord, id: string, file: string): Promise<CachedTable[]> {
    const extension = /^\.[A-Za-z0-9]{1,10}$/.test(extname(document.objectName)) ? extname(document.objectName) : ''
    const path = join(this.settings.directory, `${id}${extension.toLowerCase()}`)
    const stream = await this.blobs.open(document.blobKey)
    if (!stream) throw new AppError('not_found', `document ${document.id} was not found`)
    try {
      await pipeline(stream, createWriteStream(path))
      return await buildTableFile(
        {
          documentId: document.id,
          objectName: document.objectName,
          mimeType: document.mimeType,
          csvDelimiter: document.csvDelimiter,
          path,
        },
        file,
        join(this.settings.directory, `${id}.spill`),
        this.settings,
      )
    } finally {
      await rm(path, { force: true })
    }
  }
}
