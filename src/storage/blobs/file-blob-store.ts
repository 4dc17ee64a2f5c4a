import { randomUUID } from 'node:crypto'
import { mkdir, open, readdir, rename, rm } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'
import type { Readable } from 'node:stream'
import { assertBlobKey, type BlobStore, isDerivedKey } from '../ports/blobs.js'

function isMissing(error: unknown): boolean {
  return (error as NodeJS.ErrnoException | undefined)?.code === 'ENOENT'
}

/** Makes a rename durable: the directory entry itself must reach the disk. */
async function syncDirectory(path: string): Promise<void> {
  try {
    const handle = await open(path, 'r')
    try {
      await handle.sync()
    } finally {
      await handle.close()
    }
  } catch {
    // Some platforms cannot open or fsync a directory; the file's own fsync is the best they offer.
  }
}

/**
 * Blobs as files under `root` (embedded mode). A blob is written to a temporary file beside its
 * final place, fsynced, then renamed, so a crash never leaves a partial file under a key.
 */
export class FileBlobStore implements BlobStore {
  constructor(private readonly root: string) {}

  private pathOf(key: string): string {
    assertBlobKey(key)
    return join(this.root, ...key.split('/'))
  }

  async put(key: string, source: AsyncIterable<Uint8Array>): Promise<number> {
    const target = this.pathOf(key)
    await mkdir(dirname(target), { recursive: true })
    const temp = `${target}.${randomUUID()}.tmp`
    const handle = await open(temp, 'wx', 0o600)
    let bytes = 0
    try {
      for await (const chunk of source) {
        let offset = 0
        while (offset < chunk.length) {
          const { bytesWritten } = await handle.write(chunk, offset, chunk.length - offset)
          offset += bytesWritten
        }
        bytes += chunk.length
      }
      await handle.sync()
    } catch (error) {
      await handle.close()
      await rm(temp, { force: true })
      throw error
    }
    await handle.close()
    try {
      await rename(temp, target)
    } catch (error) {
      await rm(temp, { force: true })
      throw error
    }
    await syncDirectory(dirname(target))
    return bytes
  }

  async open(key: string): Promise<Readable | undefined> {
    try {
      const handle = await open(this.pathOf(key), 'r')
      return handle.createReadStream()
    } catch (error) {
      if (isMissing(error)) return undefined
      throw error
    }
  }

  async delete(key: string): Promise<void> {
    await rm(this.pathOf(key), { force: true })
    await this.deleteDerived(key)
  }

  async deleteDerived(key: string, keep?: string): Promise<void> {
    const path = this.pathOf(key)
    const name = basename(path)
    let names: string[]
    try {
      names = await readdir(dirname(path))
    } catch (error) {
      if (isMissing(error)) return
      throw error
    }
    const keepName = keep === undefined ? undefined : basename(this.pathOf(keep))
    for (const candidate of names) {
      // `.tmp` files belong to writes in progress.
      if (!isDerivedKey(name, candidate) || candidate === keepName || candidate.endsWith('.tmp')) continue
      await rm(join(dirname(path), candidate), { force: true })
    }
  }
}
