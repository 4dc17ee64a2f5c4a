import { readFile } from 'node:fs/promises'
import { IngestError } from '../errors.js'

/** The stored upload's bytes; a storage failure is transient (retried), never the file's fault. */
export async function readSource(path: string): Promise<Buffer> {
  try {
    return await readFile(path)
  } catch (error) {
    throw new IngestError(`the stored file could not be read: ${(error as Error).message}`, false, { cause: error })
  }
}
