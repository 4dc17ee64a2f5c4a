import { randomUUID } from 'node:crypto'
import { createReadStream } from 'node:fs'
import { mkdir, rm } from 'node:fs/promises'
import { join } from 'node:path'
import type { Timestamp } from '../lib/clock.js'
import type { BlobStore } from '../storage/ports/blobs.js'
import { buildTableFile, isTableType, removeTableFile, type TableFileSettings, type TableSource } from './table-file.js'

/**
 * Where the table file of one processing run of a document is stored: beside the document's
 * bytes (a derived blob, removed with them), named by the run, so a newer run never serves an
 * older run's tables.
 */
export function preparedTablesKey(blobKey: string, run: Timestamp): string {
  return `${blobKey}-tables-${run.replace(/[^0-9]/g, '')}`
}

export interface TablePreparationSettings extends TableFileSettings {
  /** Local working directory for the files being built. */
  readonly directory: string
}

/**
 * Loads a table document's tables into a DuckDB file while it is processed and stores that file
 * beside the document, so the first data-analysis question in any process starts from typed
 * tables instead of loading the document (seconds to tens of seconds for a million rows).
 * Builds run one at a time per process: each may use the whole DuckDB memory limit.
 */
export class TablePreparation {
  private queue: Promise<unknown> = Promise.resolve()

  constructor(
    private readonly blobs: BlobStore,
    private readonly settings: TablePreparationSettings,
  ) {}

  /**
   * Prepares the tables of `source` for processing run `run` of the document stored under
   * `blobKey`, and removes the files of its earlier runs. Does nothing for a type that is not a
   * table; rejects when the document cannot be loaded as a table (the caller decides what that
   * means: data-analysis mode then loads, and explains, on demand).
   */
  prepare(blobKey: string, run: Timestamp, source: TableSource): Promise<void> {
    if (!isTableType(source.mimeType)) return Promise.resolve()
    const turn = this.queue.then(() => this.build(blobKey, run, source))
    this.queue = turn.catch(() => {})
    return turn
  }

  /** Waits for the builds under way and removes the working directory. */
  async close(): Promise<void> {
    await this.queue
    await rm(this.settings.directory, { recursive: true, force: true })
  }

  private async build(blobKey: string, run: Timestamp, source: TableSource): Promise<void> {
    await mkdir(this.settings.directory, { recursive: true })
    const id = randomUUID()
    const file = join(this.settings.directory, `${id}.duckdb`)
    const key = preparedTablesKey(blobKey, run)
    try {
      await buildTableFile(source, file, join(this.settings.directory, `${id}.spill`), this.settings)
      await this.blobs.put(key, createReadStream(file))
    } finally {
      await removeTableFile(file)
    }
    await this.blobs.deleteDerived(blobKey, key)
  }
}
