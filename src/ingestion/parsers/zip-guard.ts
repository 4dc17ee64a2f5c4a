import yauzl, { type ZipFile } from 'yauzl'
import { IngestError, ingestErrors } from '../errors.js'
import type { IngestLimits } from '../model.js'

/**
 * Entries this small are never a bomb whatever their ratio; repetitive XML (styles, shared strings,
 * empty table cells) legitimately compresses 100–300 times.
 */
const RATIO_FLOOR_BYTES = 1024 * 1024

export type ZipLimits = Pick<IngestLimits, 'maxZipEntries' | 'maxZipUncompressedBytes' | 'maxZipRatio'>

/**
 * Checks a zip-based document (docx, pptx, xlsx, odt…) before any parser opens it, from the central
 * directory alone — nothing is inflated. Throws a permanent IngestError "limit exceeded: …" when the
 * archive has more entries than `maxZipEntries`, declares more than `maxZipUncompressedBytes` in all,
 * or holds an entry over 1 MiB whose uncompressed/compressed ratio exceeds `maxZipRatio`; a file that
 * is not a readable zip gives `ingestErrors.corrupt(format, …)`.
 *
 * Sizes are the ones the archive declares; an archive that lies about them is caught by the
 * parsers' own decompression limits and the worker's memory guard.
 */
export async function guardZip(path: string, limits: ZipLimits, format: string): Promise<void> {
  let zip: ZipFile
  try {
    zip = await yauzl.openPromise(path, { lazyEntries: true, autoClose: false, strictFileNames: false })
  } catch (error) {
    throw ingestErrors.corrupt(format, `not a readable zip archive (${messageOf(error)})`, error)
  }
  try {
    if (zip.entryCount > limits.maxZipEntries) {
      throw ingestErrors.limit(
        `the ${format} archive has ${zip.entryCount} entries, more than the limit of ${limits.maxZipEntries}`,
      )
    }
    let total = 0
    for await (const entry of zip.eachEntry()) {
      total += entry.uncompressedSize
      if (total > limits.maxZipUncompressedBytes) {
        throw ingestErrors.limit(
          `the ${format} archive expands to more than ${formatBytes(limits.maxZipUncompressedBytes)} (the limit)`,
        )
      }
      const ratio = entry.uncompressedSize / Math.max(entry.compressedSize, 1)
      if (entry.uncompressedSize > RATIO_FLOOR_BYTES && ratio > limits.maxZipRatio) {
        throw ingestErrors.limit(
          `"${entry.fileName}" in the ${format} archive expands ${Math.round(ratio)} times, more than the limit of ${limits.maxZipRatio}`,
        )
      }
    }
  } catch (error) {
    if (error instanceof IngestError) throw error
    throw ingestErrors.corrupt(format, `damaged zip archive (${messageOf(error)})`, error)
  } finally {
    zip.close()
  }
}

function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${Math.round(bytes / (1024 * 1024))} MiB`
  if (bytes >= 1024) return `${Math.round(bytes / 1024)} KiB`
  return `${bytes} bytes`
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}
