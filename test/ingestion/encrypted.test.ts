import { describe, expect, it } from 'vitest'
import { detectMimeType } from '../../src/ingestion/detection/file-types.js'
import { cfbEntryNames } from '../../src/ingestion/parsers/cfb.js'
import { odtParser } from '../../src/ingestion/parsers/odf-text.js'
import { parserFor, supportedMimeTypes } from '../../src/ingestion/parsers/registry.js'
import { cfbOf } from '../support/cfb.js'
import { ingestFailure } from './ocr-support.js'
import { inputFor, tempFiles, zipOf } from './text-formats-support.js'

const file = tempFiles()
const CFB = 'application/x-cfb'

/** A container whose root holds one empty stream per name. */
const cfbWith = (names: readonly string[]): Buffer => cfbOf(names.map((name) => ({ name })))

describe('encrypted Office files', () => {
  it('reads the entry names of a CFB container, and nothing from other bytes', async () => {
    const names = ['EncryptionInfo', 'EncryptedPackage', 'DataSpaces', 'Version', 'Primary']
    expect(await cfbEntryNames(cfbWith(names))).toEqual(['Root Entry', ...names])
    expect(await cfbEntryNames(Buffer.from('not a compound file at all'))).toEqual([])
    expect(await cfbEntryNames(cfbWith(names).subarray(0, 700))).toEqual([])
  })

  it('calls an encrypted .xlsx/.pptx (a CFB container) password-protected, other CFB files unsupported', async () => {
    const xlsx = await file('budget.xlsx', cfbWith(['EncryptionInfo', 'EncryptedPackage']))
    expect(await detectMimeType(xlsx, 'budget.xlsx', 2048)).toBe(CFB)
    const encrypted = await ingestFailure(parserFor(CFB).parse(inputFor(xlsx, CFB)))
    expect(encrypted).toMatchObject({ message: 'the XLSX is password-protected', permanent: true })
    const deck = await file('deck.pptx', cfbWith(['EncryptedPackage', 'EncryptionInfo']))
    expect((await ingestFailure(parserFor(CFB).parse(inputFor(deck, CFB)))).message).toBe(
      'the PPTX is password-protected',
    )
    const legacy = await file('old.doc', cfbWith(['WordDocument', '1Table']))
    const unsupported = await ingestFailure(parserFor(CFB).parse(inputFor(legacy, CFB)))
    expect(unsupported).toMatchObject({ message: `unsupported file type: ${CFB}`, permanent: true })
    // Recognised only to give the reason: not a type e-mail attachments are read as.
    expect(supportedMimeTypes()).not.toContain(CFB)
  })

  it('calls an encrypted ODT password-protected rather than damaged', async () => {
    const ODT = 'application/vnd.oasis.opendocument.text'
    const manifest = `<?xml version="1.0"?><manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.2"><manifest:file-entry manifest:full-path="/" manifest:media-type="${ODT}"/><manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml" manifest:size="1200"><manifest:encryption-data manifest:checksum-type="SHA1/1K" manifest:checksum="AAAA"><manifest:algorithm manifest:algorithm-name="Blowfish CFB" manifest:initialisation-vector="AAAA"/><manifest:key-derivation manifest:key-derivation-name="PBKDF2" manifest:iteration-count="1024" manifest:salt="AAAA"/></manifest:encryption-data></manifest:file-entry></manifest:manifest>`
    const path = await file(
      'secret.odt',
      zipOf([
        { name: 'mimetype', content: ODT, store: true },
        { name: 'META-INF/manifest.xml', content: manifest },
        { name: 'content.xml', content: Buffer.from([0x8f, 0x01, 0xfe, 0x3c, 0x99, 0x00, 0x42, 0x17]), store: true },
      ]),
    )
    const failure = await ingestFailure(odtParser.parse(inputFor(path, ODT)))
    expect(failure).toMatchObject({ message: 'the ODT is password-protected', permanent: true })
  })
})
