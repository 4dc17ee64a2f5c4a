import { readFileSync, statSync } from 'node:fs'
import { basename, join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { detectMimeType } from '../../src/domain/knowledge-base/file-types.js'
import {
  bufferSource,
  CompoundFile,
  compoundFileType,
  compoundFileTypeOf,
  withCompoundFile,
} from '../../src/ingestion/compound-file.js'
import { robustnessDir, tempFiles } from './text-formats-support.js'

const CFB = 'application/x-cfb'
const XLS = 'application/vnd.ms-excel'
const PPT = 'application/vnd.ms-powerpoint'
const DOC = 'application/msword'
const MSG = 'application/vnd.ms-outlook'
const FREE = 0xffffffff
const END = 0xfffffffe
const dir = robustnessDir()
const file = tempFiles()

interface Node {
  readonly name: string
  /** Entries inside a storage. */
  readonly children?: readonly Node[]
}

/**
 * A Compound File Binary container (512-byte sectors): sector 0 the FAT, then the directory. The
 * children of each storage are chained through right siblings (a valid, if unbalanced, tree).
 */
function cfbOf(root: readonly Node[]): Buffer {
  const flat: { name: string; type: number; child: number; right: number }[] = [
    { name: 'Root Entry', type: 5, child: FREE, right: FREE },
  ]
  const place = (nodes: readonly Node[]): number => {
    const ids = nodes.map((node) => {
      flat.push({ name: node.name, type: node.children ? 1 : 2, child: FREE, right: FREE })
      return flat.length - 1
    })
    nodes.forEach((node, i) => {
      const entry = flat[ids[i] as number] as (typeof flat)[number]
      entry.right = ids[i + 1] ?? FREE
      if (node.children) entry.child = place(node.children)
    })
    return ids[0] ?? FREE
  }
  ;(flat[0] as (typeof flat)[number]).child = place(root)
  const dirSectors = Math.ceil(flat.length / 4)
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
  for (let i = 0; i < 128; i++) out.writeUInt32LE(FREE, 512 + i * 4)
  out.writeUInt32LE(0xfffffffd, 512)
  for (let s = 0; s < dirSectors; s++) out.writeUInt32LE(s + 1 < dirSectors ? s + 2 : END, 512 + (s + 1) * 4)
  flat.forEach((entry, i) => {
    const at = 1024 + i * 128
    out.write(entry.name, at, 'utf16le')
    out.writeUInt16LE((entry.name.length + 1) * 2, at + 64)
    out[at + 66] = entry.type
    out.writeUInt32LE(FREE, at + 68)
    out.writeUInt32LE(entry.right, at + 72)
    out.writeUInt32LE(entry.child, at + 76)
    out.writeUInt32LE(END, at + 116)
  })
  return out
}

const rootNames = async (bytes: Buffer): Promise<string[] | undefined> =>
  (await CompoundFile.open(bufferSource(bytes), bytes.length))?.rootEntries().map((entry) => entry.name)

describe('CFB containers: root entries and the type they give', () => {
  it('lists only the root storage’s own entries, not those of storages inside it', async () => {
    const bytes = cfbOf([
      { name: 'WordDocument' },
      { name: '1Table' },
      { name: 'ObjectPool', children: [{ name: '_123', children: [{ name: '__substg1.0_0037001F' }] }] },
    ])
    expect(await rootNames(bytes)).toEqual(['WordDocument', '1Table', 'ObjectPool'])
    // A Word document embedding an Outlook item is still a Word document.
    const path = await file('report.doc', bytes)
    expect(await compoundFileType(path, 'report.doc')).toBe(DOC)
    expect(await detectMimeType(path, 'anything.bin', bytes.length)).toBe(DOC)
  })

  it('reads the type from the entries; the extension only breaks ties or stands in for an unreadable directory', () => {
    expect(compoundFileTypeOf(['WordDocument', '1Table'], 'x.msg')).toBe(DOC)
    expect(compoundFileTypeOf(['__substg1.0_0037001F', '__properties_version1.0'], 'x.doc')).toBe(MSG)
    expect(compoundFileTypeOf(['__nameid_version1.0'], 'x')).toBe(MSG)
    expect(compoundFileTypeOf(['WordDocument', '__properties_version1.0'], 'x.msg')).toBe(MSG)
    expect(compoundFileTypeOf(['WordDocument', '__properties_version1.0'], 'x.doc')).toBe(DOC)
    expect(compoundFileTypeOf(['WordDocument', '__properties_version1.0'], 'x.bin')).toBe(CFB)
    expect(compoundFileTypeOf(['Workbook'], 'x.doc')).toBe(XLS)
    expect(compoundFileTypeOf(['Book'], 'x')).toBe(XLS)
    expect(compoundFileTypeOf(['PowerPoint Document', 'Current User'], 'x.xls')).toBe(PPT)
    expect(compoundFileTypeOf(['EncryptionInfo', 'EncryptedPackage'], 'x.docx')).toBe(CFB)
    expect(compoundFileTypeOf(null, 'old.DOC')).toBe(DOC)
    expect(compoundFileTypeOf([], 'mail.msg')).toBe(MSG)
    expect(compoundFileTypeOf(null, 'x.xls')).toBe(XLS)
    expect(compoundFileTypeOf(null, 'x.bin')).toBe(CFB)
  })

  it('gives no entries for bytes that are not a readable container', async () => {
    expect(await rootNames(Buffer.from('not a compound file'))).toBeUndefined()
    const truncated = cfbOf([{ name: 'WordDocument' }]).subarray(0, 700)
    expect(await rootNames(truncated)).toEqual([])
    const path = await file('cut.msg', truncated)
    expect(await detectMimeType(path, 'cut.msg', truncated.length)).toBe(MSG)
  })
})

describe.skipIf(!dir)('CFB containers: real files', () => {
  const real = (name: string): string => join(dir as string, name)
  const sniff = (path: string, name = basename(path)) => detectMimeType(path, name, statSync(path).size)

  it('sniffs Word, Outlook and Excel files as such, whatever their name', async () => {
    for (const name of ['testWORD.doc', 'testWORD_various.doc', 'testWORD_protected_passtika.doc', 'testWORD6.doc']) {
      expect(await sniff(real(`tika-test-documents/${name}`))).toBe(DOC)
    }
    for (const name of ['testMSG.msg', 'testMSG_chinese.msg', 'test-outlook2003.msg']) {
      expect(await sniff(real(`tika-test-documents/${name}`))).toBe(MSG)
    }
    expect(await sniff(real('unstructured-example-docs/fake-encrypted.msg'))).toBe(MSG)
    expect(await sniff(real('unstructured-example-docs/simple.doc'), 'simple.msg')).toBe(DOC)
    expect(await sniff(real('unstructured-example-docs/fake-email.msg'), 'mail.doc')).toBe(MSG)
    expect(await sniff(real('tika-test-documents/testEXCEL.xls'), 'book.doc')).toBe(XLS)
    // Named .ppt, but an Open XML package: the content decides.
    expect(await sniff(real('unstructured-example-docs/language-docs/eng_spa_mult.ppt'))).toBe(
      'application/vnd.openxmlformats-officedocument.presentationml.presentation',
    )
    expect(await sniff(real('tika-test-documents/testEPUB.epub'))).toBe('application/epub+zip')
  })

  it('reads streams from the mini stream and from regular sectors', async () => {
    const subject = await withCompoundFile(real('tika-test-documents/testMSG.msg'), async (cfb) => {
      const entry = cfb?.rootEntry('__substg1.0_0037001E')
      return entry && cfb ? cfb.readStream(entry, 1000) : null
    })
    expect(subject?.toString('latin1').replace(/\0+$/, '')).toBe('MIME registry use cases')
    const fib = await withCompoundFile(real('tika-test-documents/testWORD.doc'), async (cfb) => {
      const entry = cfb?.rootEntry('WordDocument')
      return entry && cfb ? cfb.readStream(entry, 4) : null
    })
    expect(fib?.readUInt16LE(0)).toBe(0xa5ec)
    // The same reads over a buffer.
    const bytes = readFileSync(real('tika-test-documents/testWORD.doc'))
    const cfb = await CompoundFile.open(bufferSource(bytes), bytes.length)
    expect(cfb?.rootEntry('worddocument')?.name).toBe('WordDocument')
  })
})
