import yauzl, { type Entry, type ZipFile } from 'yauzl'

/** An open ZIP package and its entries by name; the caller closes `zip`. */
export interface ZipEntries {
  readonly zip: ZipFile
  readonly entries: ReadonlyMap<string, Entry>
}

/** Opens a ZIP package and lists its entries (parts are inflated only when read, each checked against its size by yauzl). */
export async function openZipEntries(path: string): Promise<ZipEntries> {
  const zip = await yauzl.openPromise(path, { lazyEntries: true, autoClose: false, strictFileNames: false })
  const entries = new Map<string, Entry>()
  try {
    for await (const entry of zip.eachEntry()) entries.set(entry.fileName, entry)
  } catch (error) {
    zip.close()
    throw error
  }
  return { zip, entries }
}

/** The whole inflated content of one entry. */
export async function readZipEntry(zip: ZipFile, entry: Entry): Promise<Buffer> {
  const chunks: Buffer[] = []
  for await (const chunk of await zip.openReadStreamPromise(entry)) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks)
}
