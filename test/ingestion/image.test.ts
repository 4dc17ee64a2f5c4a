import sharp from 'sharp'
import { afterAll, describe, expect, it } from 'vitest'
import { isOcrLanguageInstalled, normaliseOcrText, terminateOcr } from '../../src/ingestion/ocr/ocr.js'
import { decodeBmp } from '../../src/ingestion/parsers/bmp.js'
import { createImageParser, imageParser } from '../../src/ingestion/parsers/image.js'
import { loadParserFor } from '../../src/ingestion/parsers/registry.js'
import { fakeOcr, ingestFailure, textImage, withTimeout } from './ocr-support.js'
import {
  expectWellFormed,
  filesWithExtensions,
  inputFor,
  LIMITS,
  parsesOrRejectsCleanly,
  robustnessDir,
  tempFiles,
} from './text-formats-support.js'

const file = tempFiles()
afterAll(() => terminateOcr())

/** A 24-bit bottom-up BMP of an image, written by hand (sharp cannot write BMP). */
async function bmpOf(png: Buffer): Promise<Buffer> {
  const { data, info } = await sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true })
  const rowBytes = Math.ceil((info.width * 3) / 4) * 4
  const header = Buffer.alloc(54)
  header.write('BM', 0, 'latin1')
  header.writeUInt32LE(54 + rowBytes * info.height, 2)
  header.writeUInt32LE(54, 10)
  header.writeUInt32LE(40, 14)
  header.writeInt32LE(info.width, 18)
  header.writeInt32LE(info.height, 22)
  header.writeUInt16LE(1, 26)
  header.writeUInt16LE(24, 28)
  const pixels = Buffer.alloc(rowBytes * info.height)
  for (let y = 0; y < info.height; y++) {
    for (let x = 0; x < info.width; x++) {
      const from = (y * info.width + x) * 3
      const to = (info.height - 1 - y) * rowBytes + x * 3
      pixels[to] = data[from + 2] ?? 0
      pixels[to + 1] = data[from + 1] ?? 0
      pixels[to + 2] = data[from] ?? 0
    }
  }
  return Buffer.concat([header, pixels])
}

describe('image parser', () => {
  it('reads the text of a PNG with Tesseract into paragraphs split at blank lines', async () => {
    const png = await textImage(['Meeting notes March', '', 'Budget approved for 2025'])
    const path = await file('notes.png', png)
    const progress: [number, number][] = []
    const doc = await imageParser.parse(
      inputFor(path, 'image/png', { progress: (done, total) => progress.push([done, total]) }),
    )
    expect(doc.documentType).toBe('image')
    expect(doc.pageCount).toBe(1)
    expect(doc.blocks).toEqual([
      { kind: 'paragraph', text: 'Meeting notes March' },
      { kind: 'paragraph', text: 'Budget approved for 2025' },
    ])
    expect(progress).toEqual([[1, 1]])
  })

  it('gives a document without blocks for a picture with no text', async () => {
    const blank = await sharp({ create: { width: 640, height: 480, channels: 3, background: '#ffffff' } })
      .png()
      .toBuffer()
    const doc = await imageParser.parse(inputFor(await file('blank.png', blank), 'image/png'))
    expect(doc).toEqual({ blocks: [], pageCount: 1, documentType: 'image' })
  })

  it('reads JPEG, WebP, GIF, TIFF and BMP through the same preprocessing', async () => {
    const png = await textImage(['Format check'], 600)
    const variants: [string, string, Buffer][] = [
      ['a.jpg', 'image/jpeg', await sharp(png).jpeg().toBuffer()],
      ['a.webp', 'image/webp', await sharp(png).webp().toBuffer()],
      ['a.gif', 'image/gif', await sharp(png).gif().toBuffer()],
      ['a.tiff', 'image/tiff', await sharp(png).tiff().toBuffer()],
      ['a.bmp', 'image/bmp', await bmpOf(png)],
    ]
    for (const [name, mime, bytes] of variants) {
      const ocr = fakeOcr('Format check')
      const doc = await createImageParser(ocr).parse(inputFor(await file(name, bytes), mime))
      expect(doc.blocks, name).toEqual([{ kind: 'paragraph', text: 'Format check' }])
      // Upscaled for OCR from 600 x 220 to at least 1000 px wide, proportions kept.
      expect(
        ocr.calls.map((c) => [c.width, c.height]),
        name,
      ).toEqual([[1000, 367]])
    }
  })

  it('decodes a BMP to the same pixels sharp sees in the original', async () => {
    const png = await textImage(['BMP'], 101, 40)
    const decoded = decodeBmp(await bmpOf(png))
    const { data, info } = await sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true })
    expect([decoded.width, decoded.height, decoded.channels]).toEqual([info.width, info.height, 3])
    expect(Buffer.from(decoded.data).equals(data)).toBe(true)
  })

  it('reads each page of a multi-page TIFF onto its own page, under the page cap', async () => {
    const pages = [await textImage(['First page']), await textImage(['Second page'])]
    const tiff = await sharp(pages, { join: { animated: true } })
      .tiff()
      .toBuffer()
    const path = await file('scan.tiff', tiff)
    const ocr = fakeOcr('Scanned words')
    const doc = await createImageParser(ocr).parse(inputFor(path, 'image/tiff'))
    expect(doc.pageCount).toBe(2)
    expect(doc.blocks).toEqual([
      { kind: 'paragraph', text: 'Scanned words', page: 1 },
      { kind: 'paragraph', text: 'Scanned words', page: 2 },
    ])
    expect(ocr.calls.map((call) => call.options)).toEqual([
      { page: 0, sidewaysRetry: true },
      { page: 1, sidewaysRetry: true },
    ])
    const error = await ingestFailure(
      createImageParser(ocr).parse(inputFor(path, 'image/tiff', { limits: { ...LIMITS, maxPages: 1 } })),
    )
    expect(error.message).toBe('limit exceeded: the image has 2 pages, more than the limit of 1')
  })

  it('calls an unreadable image damaged, permanently', async () => {
    const png = await textImage(['cut'])
    const truncated = await file('cut.png', png.subarray(0, 60))
    const error = await ingestFailure(imageParser.parse(inputFor(truncated, 'image/png')))
    expect(error.permanent).toBe(true)
    expect(error.message).toMatch(/^the image file is damaged or truncated: /)
    const badBmp = await file('bad.bmp', Buffer.concat([Buffer.from('BM'), Buffer.alloc(100, 7)]))
    expect((await ingestFailure(imageParser.parse(inputFor(badBmp, 'image/bmp')))).message).toMatch(
      /^the image file is damaged or truncated: /,
    )
  })

  it('is registered for the image types, and OCR data is installed for eng, fra, deu and spa', async () => {
    for (const mime of ['image/png', 'image/jpeg', 'image/tiff', 'image/bmp', 'image/webp', 'image/gif']) {
      expect(await loadParserFor(mime)).toBe(imageParser)
    }
    expect(['eng', 'fra', 'deu', 'spa'].map(isOcrLanguageInstalled)).toEqual([true, true, true, true])
    expect(isOcrLanguageInstalled('xxx')).toBe(false)
    expect(isOcrLanguageInstalled('../eng')).toBe(false)
    expect(normaliseOcrText('  a  \r\n\r\n\r\n b \n')).toBe('a\n\n b')
  })

  it('parses every real image of the corpus or rejects it with an IngestError, without hanging', async () => {
    const corpus = robustnessDir()
    if (!corpus) return
    const mimes: Record<string, string> = {
      png: 'image/png',
      jpg: 'image/jpeg',
      jpeg: 'image/jpeg',
      tiff: 'image/tiff',
    }
    const parser = createImageParser(fakeOcr('text'))
    const files = filesWithExtensions(corpus, Object.keys(mimes))
    expect(files.length).toBeGreaterThan(5)
    for (const path of files) {
      const mime = mimes[path.split('.').pop() ?? ''] ?? 'image/png'
      const result = await withTimeout(
        parsesOrRejectsCleanly(() => parser.parse(inputFor(path, mime))),
        20_000,
        path,
      )
      expect(result, path).not.toBeInstanceOf(Error)
      if (!(result instanceof Error)) expectWellFormed(result)
    }
  }, 120_000)
})
