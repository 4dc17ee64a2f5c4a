import { readFileSync, statSync } from 'node:fs'
import { basename, join } from 'node:path'
import { describe, expect, it } from 'vitest'
import {
  bufferSource,
  CompoundFile,
  compoundFileType,
  compoundFileTypeOf,
  withCompoundFile,
} from '../../src/ingestion/detection/compound-file.js'
import { detectMimeType } from '../../src/ingestion/detection/file-types.js'
import { cfbOf } from '../support/cfb.js'
import { robustnessDir, tempFiles } from './text-formats-support.js'

const CFB = 'application/x-cfb'
const XLS = 'application/vnd.ms-excel'
const PPT = 'application/vnd.ms-powerpoint'
const DOC = 'application/msword'
const MSG = 'application/vnd.ms-outlook'
const dir = robustnessDir()
const file = tempFiles()

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
