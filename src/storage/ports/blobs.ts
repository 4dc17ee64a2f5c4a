import type { Readable } from 'node:stream'

/**
 * Where the original bytes of documents live: files under the data dir in embedded mode, chunked
 * rows in PostgreSQL when processes share nothing but the database. Keys are `<companyId>/<uuid>`,
 * new for every upload, so a key is written once and never overwritten.
 */
export interface BlobStore {
  /**
   * Stores every byte of `source` under `key` and resolves with their count once they are durable.
   * On failure nothing is left under `key`. Streams: never holds the whole blob in memory.
   */
  put(key: string, source: AsyncIterable<Uint8Array>): Promise<number>
  /** A stream of the bytes under `key`, or undefined when there is no such blob. */
  open(key: string): Promise<Readable | undefined>
  /** Removes the blob; a missing key is not an error. */
  delete(key: string): Promise<void>
}

const KEY = /^[A-Za-z0-9-]{1,100}(\/[A-Za-z0-9-]{1,100}){0,3}$/

/** Keys are generated from UUIDs; anything else (dots, slashes at the ends) is a programming error. */
export function assertBlobKey(key: string): void {
  if (!KEY.test(key)) throw new Error(`invalid blob key ${JSON.stringify(key)}`)
}
