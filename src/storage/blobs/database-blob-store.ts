import { Readable } from 'node:stream'
import type { Kysely } from 'kysely'
import { assertBlobKey, type BlobStore } from '../ports/blobs.js'
import type { Database } from '../schema.js'

/** Bytes per stored row: large enough to keep row counts low, small enough to stream. */
export const BLOB_CHUNK_BYTES = 1024 * 1024

/**
 * Blobs in the `blob_chunks` table (PostgreSQL mode), so API and worker processes share nothing
 * but the database. Written in one transaction (all chunks or none), read one chunk at a time.
 */
export class DatabaseBlobStore implements BlobStore {
  constructor(private readonly db: Kysely<Database>) {}

  async put(key: string, source: AsyncIterable<Uint8Array>): Promise<number> {
    assertBlobKey(key)
    return this.db.transaction().execute(async (trx) => {
      let seq = 0
      let bytes = 0
      let buffer = Buffer.allocUnsafe(BLOB_CHUNK_BYTES)
      let filled = 0
      const flush = async () => {
        await trx
          .insertInto('blob_chunks')
          .values({ blob_key: key, seq, data: buffer.subarray(0, filled) })
          .execute()
        seq += 1
        buffer = Buffer.allocUnsafe(BLOB_CHUNK_BYTES)
        filled = 0
      }
      for await (const chunk of source) {
        let offset = 0
        while (offset < chunk.length) {
          const take = Math.min(chunk.length - offset, BLOB_CHUNK_BYTES - filled)
          buffer.set(chunk.subarray(offset, offset + take), filled)
          filled += take
          offset += take
          if (filled === BLOB_CHUNK_BYTES) await flush()
        }
        bytes += chunk.length
      }
      // An empty blob still has its chunk 0, which is how it differs from a missing one.
      if (filled > 0 || seq === 0) await flush()
      return bytes
    })
  }

  async open(key: string): Promise<Readable | undefined> {
    assertBlobKey(key)
    const first = await this.chunk(key, 0)
    if (!first) return undefined
    const next = (seq: number) => this.chunk(key, seq)
    async function* chunks(): AsyncGenerator<Buffer> {
      let data: Buffer | undefined = first
      for (let seq = 1; data; seq++) {
        if (data.length > 0) yield data
        data = await next(seq)
      }
    }
    return Readable.from(chunks(), { objectMode: false })
  }

  async delete(key: string): Promise<void> {
    assertBlobKey(key)
    await this.db.deleteFrom('blob_chunks').where('blob_key', '=', key).execute()
    await this.deleteDerived(key)
  }

  async deleteDerived(key: string, keep?: string): Promise<void> {
    assertBlobKey(key)
    // Keys hold letters, digits, dashes and slashes only, none of which LIKE treats specially.
    let query = this.db.deleteFrom('blob_chunks').where('blob_key', 'like', `${key}-%`)
    if (keep !== undefined) query = query.where('blob_key', '<>', keep)
    await query.execute()
  }

  private async chunk(key: string, seq: number): Promise<Buffer | undefined> {
    const row = await this.db
      .selectFrom('blob_chunks')
      .select('data')
      .where('blob_key', '=', key)
      .where('seq', '=', seq)
      .executeTakeFirst()
    return row && Buffer.from(row.data.buffer, row.data.byteOffset, row.data.byteLength)
  }
}
