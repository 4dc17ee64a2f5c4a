import type { Readable } from 'node:stream'

/**
 * Where the original bytes of documents live: files under the data dir in embedded mode, chunked
 * rows in PostgreSQL when processes share nothing but the database. Keys are `<companyId>/<uuid>`,
 * new for every upload, so a key is written once and never overwritten. Files computed from a
 * blob (a document's prepared tables) are stored as derived blobs, `<key>-<name>`, and go with it.
 */
export interface BlobStore {
  /**
   * Stores every byte of `source` under `key` and resolves with their count once they are durable.
   * On failure nothing is left under `key`. Streams: never holds the whole blob in memory.
   */
  put(key: string, source: AsyncIterable<Uint8Array>): Promise<number>
  /** A stream of the bytes under `key`, or undefined when there is no such blob. */
  open(key: string): Promise<Readable | undefined>
  /** Removes the blob and the blobs derived from it; a missing key is not an error. */
  delete(key: string): Promise<void>
  /** Removes the blobs derived from `key` (`<key>-…`) except `keep`. */
  deleteDerived(key: string, keep?: string): Promise<void>
}

const KEY = /^[A-Za-z0-9-]{1,100}(\/[A-Za-z0-9-]{1,100}){0,3}$/

/** Whether `candidate` is a blob derived from `key`. */
export function isDerivedKey(key: string, candidate: string): boolean {
  return candidate.startsWith(`${key}-`)
}

/** Keys are generated from UUIDs; anything else (dots, slashes at the ends) is a programming error. */
export function assertBlobKey(key: string): void {
  if (!KEY.test(key)) throw new Error(`invalid blob key ${JSON.stringify(key)}`)
}
