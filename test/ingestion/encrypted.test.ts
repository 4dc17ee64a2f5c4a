import { describe, expect, it } from 'vitest'
import { detectMimeType } from '../../src/domain/knowledge-base/file-types.js'
import { cfbEntryNames } from '../../src/ingestion/parsers/cfb.js'
import { odtParser } from '../../src/ingestion/parsers/odf-text.js'
import { parserFor, supportedMimeTypes } from '../../src/ingestion/parsers/registry.js'
import { ingestFailure } from './ocr-support.js'
import { inputFor, tempFiles, zipOf } from './text-formats-support.js'

const file = tempFiles()
const CFB = 'application/x-cfb'
const FREE = 0xffffffff
const END = 0xfffffffe

/**
 * A minimal Compound File Binary container (MS-CFB, 512-byte sectors): sector 0 holds the FAT,
 * sectors 1… the directory (4 entries per sector: the root, then one empty stream per name).
 */
function cfbWith(names: readonly string[]): Buffer {
  const entries = ['Root Entry', ...names]
  const dirSectors = Math.ceil(entries.length / 4)
  const out = Buffer.alloc(512 * (2 + dirSectors))
  Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]).copy(out, 0)
  out.writeUInt16LE(0x3e, 24)
  out.writeUInt16LE(3, 26)
  out.writeUInt16LE(0xfffe, 28)
  out.writeUInt16LE(9, 30)
  out.writeUInt16LE(6, 32)
  out.writeUInt32LE(1, 44)
  out.writeUInt32LE(1, 48)
  out.writeUInt32LE(4096, 56)
  out.writeUInt32LE(END, 60)
  out.writeUInt32LE(END, 68)
  for (let i = 0; i < 109; i++) out.writeUInt32LE(i === 0 ? 0 : FREE, 76 + i * 4)
  const fat = 512
  for (let i = 0; i < 128; i++) out.writeUInt32LE(FREE, fat + i * 4)
  out.writeUInt32LE(0xfffffffd, fat)
  for (let s = 0; s < dirSectors; s++) out.writeUInt32LE(s + 1 < dirSectors ? s + 2 : END, fat + (s + 1) * 4)
  entries.forEach((name, i) => {
    const at = 1024 + i * 128
    out.write(name, at, 'utf16le')
    out.writeUInt16LE((name.length + 1) * 2, at + 64)
    out[at + 66] = i === 0 ? 5 : 2
    out.writeUInt32LE(FREE, at + 68)
    out.writeUInt32LE(FREE, at + 72)
    out.writeUInt32LE(i === 0 && entries.length > 1 ? 1 : FREE, at + 76)
    out.writeUInt32LE(END, at + 116)
  })
  return out
}

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
