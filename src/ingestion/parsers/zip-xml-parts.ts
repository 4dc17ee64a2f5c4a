import yauzl from 'yauzl'
import { type XmlEvent, XmlScanner } from './xml-scan.js'

/**
 * Streams the XML parts of a zip package whose names `wanted` accepts through the safe scanner,
 * part by part in archive order: `visit(name)` returns the handler of that part's events. Used for
 * the parts officeparser does not read (PPTX charts, ODP master pages); the zip guard has already
 * checked the archive's declared sizes, and yauzl checks each part against its declared size.
 */
export async function scanXmlParts(
  path: string,
  wanted: (name: string) => boolean,
  visit: (name: string) => (events: readonly XmlEvent[]) => void,
): Promise<void> {
  const zip = await yauzl.openPromise(path, { lazyEntries: true, autoClose: false, strictFileNames: false })
  try {
    for await (const entry of zip.eachEntry()) {
      if (!wanted(entry.fileName)) continue
      const handle = visit(entry.fileName)
      const scanner = new XmlScanner()
      const decoder = new TextDecoder('utf-8')
      for await (const chunk of await zip.openReadStreamPromise(entry)) {
        handle(scanner.write(decoder.decode(chunk as Buffer, { stream: true })))
      }
      handle(scanner.write(decoder.decode()))
      handle(scanner.end())
    }
  } finally {
    zip.close()
  }
}
