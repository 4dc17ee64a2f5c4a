import { crc32, createDeflateRaw } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { IngestError } from '../../src/ingestion/errors.js'
import { docxParser } from '../../src/ingestion/parsers/docx.js'
import { guardZip } from '../../src/ingestion/parsers/zip-guard.js'
import { inputFor, LIMITS, tempFiles, zipOf } from './text-formats-support.js'

const file = tempFiles()
const GUARD = { maxZipEntries: 100, maxZipUncompressedBytes: 50 * 1024 * 1024, maxZipRatio: 100 }
const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'

/** Deflates `size` zero bytes chunk by chunk, so the test never holds the inflated data. */
async function deflatedZeros(size: number): Promise<{ packed: Buffer; crc: number }> {
  const chunk = Buffer.alloc(1024 * 1024)
  const deflate = createDeflateRaw({ level: 9 })
  const out: Buffer[] = []
  deflate.on('data', (b: Buffer) => out.push(b))
  const done = new Promise((resolve, reject) => deflate.on('end', resolve).on('error', reject))
  let crc = 0
  for (let written = 0; written < size; written += chunk.length) {
    const piece = chunk.subarray(0, Math.min(chunk.length, size - written))
    crc = crc32(piece, crc)
    if (!deflate.write(piece)) await new Promise((resolve) => deflate.once('drain', resolve))
  }
  deflate.end()
  await done
  return { packed: Buffer.concat(out), crc }
}

/** A zip whose one deflated entry declares (truthfully) `size` bytes of zeros. */
async function bombZip(name: string, size: number): Promise<Buffer> {
  const { packed, crc } = await deflatedZeros(size)
  const fileName = Buffer.from(name)
  const local = Buffer.alloc(30)
  local.writeUInt32LE(0x04034b50, 0)
  local.writeUInt16LE(20, 4)
  local.writeUInt16LE(8, 8)
  local.writeUInt32LE(crc, 14)
  local.writeUInt32LE(packed.length, 18)
  local.writeUInt32LE(size, 22)
  local.writeUInt16LE(fileName.length, 26)
  const central = Buffer.alloc(46)
  central.writeUInt32LE(0x02014b50, 0)
  central.writeUInt16LE(20, 4)
  central.writeUInt16LE(20, 6)
  central.writeUInt16LE(8, 10)
  central.writeUInt32LE(crc, 16)
  central.writeUInt32LE(packed.length, 20)
  central.writeUInt32LE(size, 24)
  central.writeUInt16LE(fileName.length, 28)
  const directory = Buffer.concat([central, fileName])
  const end = Buffer.alloc(22)
  end.writeUInt32LE(0x06054b50, 0)
  end.writeUInt16LE(1, 8)
  end.writeUInt16LE(1, 10)
  end.writeUInt32LE(directory.length, 12)
  end.writeUInt32LE(30 + fileName.length + packed.length, 16)
  return Buffer.concat([local, fileName, packed, directory, end])
}

async function rejection(promise: Promise<unknown>): Promise<IngestError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(IngestError)
  return error as IngestError
}

describe('zip guard', () => {
  it('rejects a 200 MB zip bomb from its central directory, before inflating anything', async () => {
    const bomb = await bombZip('word/document.xml', 200 * 1024 * 1024)
    expect(bomb.length).toBeLessThan(1024 * 1024)
    const path = await file('bomb.docx', bomb)
    const error = await rejection(guardZip(path, GUARD, 'DOCX'))
    expect(error.permanent).toBe(true)
    expect(error.message).toBe('limit exceeded: the DOCX archive expands to more than 50 MiB (the limit)')
  })

  it('rejects an entry whose compression ratio is above the limit', async () => {
    const path = await file('ratio.zip', await bombZip('word/media/blob.bin', 4 * 1024 * 1024))
    const error = await rejection(guardZip(path, GUARD, 'DOCX'))
    expect(error.permanent).toBe(true)
    expect(error.message).toMatch(
      /^limit exceeded: "word\/media\/blob\.bin" in the DOCX archive expands \d+ times, more than the limit of 100$/,
    )
  })

  it('does not count the ratio of small entries, which are harmless however well they compress', async () => {
    const path = await file('small.zip', await bombZip('word/styles.xml', 512 * 1024))
    await expect(guardZip(path, GUARD, 'DOCX')).resolves.toBeUndefined()
  })

  it('rejects an archive with more entries than the limit', async () => {
    const entries = Array.from({ length: 11 }, (_, i) => ({ name: `part${i}.xml`, content: `<p>${i}</p>` }))
    const path = await file('many.zip', zipOf(entries))
    const error = await rejection(guardZip(path, { ...GUARD, maxZipEntries: 10 }, 'PPTX'))
    expect(error.message).toBe('limit exceeded: the PPTX archive has 11 entries, more than the limit of 10')
    await expect(guardZip(path, { ...GUARD, maxZipEntries: 11 }, 'PPTX')).resolves.toBeUndefined()
  })

  it('calls a file that is not a zip, or a truncated one, damaged', async () => {
    const notZip = await file('plain.docx', 'just some text, no archive here')
    const error = await rejection(guardZip(notZip, GUARD, 'DOCX'))
    expect(error.permanent).toBe(true)
    expect(error.message).toMatch(/^the DOCX file is damaged or truncated: not a readable zip archive/)
    const whole = zipOf([{ name: 'content.xml', content: '<office:document-content/>'.repeat(50) }])
    const truncated = await file('cut.odt', whole.subarray(0, Math.floor(whole.length / 2)))
    expect((await rejection(guardZip(truncated, GUARD, 'ODT'))).message).toMatch(
      /^the ODT file is damaged or truncated/,
    )
  })

  it('runs before the DOCX parser opens the archive', async () => {
    const path = await file('bomb2.docx', await bombZip('word/document.xml', 200 * 1024 * 1024))
    const error = await rejection(
      docxParser.parse(inputFor(path, DOCX, { limits: { ...LIMITS, maxZipUncompressedBytes: 100 * 1024 * 1024 } })),
    )
    expect(error.message).toBe('limit exceeded: the DOCX archive expands to more than 100 MiB (the limit)')
  })
})
