import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { loadConfig } from '../../src/config.js'
import { ingestSettings } from '../../src/ingestion/jobs/settings.js'
import type { Block, ParsedDocument, ParseInput } from '../../src/ingestion/model.js'
import { terminateOcr } from '../../src/ingestion/ocr/ocr.js'
import { createPdfParser, pdfParser } from '../../src/ingestion/parsers/pdf.js'
import { mutoolRuns, PAGES_PER_RUN } from '../../src/ingestion/parsers/pdf-mutool.js'
import { loadParserFor } from '../../src/ingestion/parsers/registry.js'
import { pdfOf } from '../support/pdf.js'
import { allText, fakeOcr, ingestFailure, manifestTags, textImage, withTimeout } from './ocr-support.js'
import {
  expectWellFormed,
  filesWithExtensions,
  inputFor,
  LIMITS,
  parsesOrRejectsCleanly,
  robustnessDir,
  tempFiles,
} from './text-formats-support.js'

const PDF = 'application/pdf'
const file = tempFiles()
afterAll(() => terminateOcr())

/** Three pages with known text; page 2 also has a three-column table drawn cell by cell. */
function reportPdf(): Promise<Buffer> {
  return pdfOf(
    (doc) => {
      for (let page = 1; page <= 3; page++) {
        doc.addPage()
        doc.fontSize(20).text(`Chapter ${page} overview`)
        doc
          .fontSize(11)
          .text(
            `Page ${page} explains the quarterly results in enough words that this paragraph wraps onto a second line of the page.`,
          )
        doc.moveDown()
        doc.text(`Closing remark number ${page}.`)
        if (page === 2) {
          const top = doc.y + 20
          const rows = [
            ['Product', 'Units', 'Price'],
            ['Apples', '120', '0.40'],
            ['Pears', '75', '0.55'],
          ]
          for (const [r, cells] of rows.entries()) {
            for (const [c, cell] of cells.entries()) doc.text(cell, 72 + c * 160, top + r * 22, { lineBreak: false })
          }
        }
      }
    },
    { info: { Title: 'Quarterly Report 2024' } },
  )
}

function blocksOn(doc: ParsedDocument, page: number): Block[] {
  return doc.blocks.filter((block) => block.page === page)
}

/**
 * Every behaviour holds with either text layer: MuPDF's mutool (when installed; CI installs
 * mupdf-tools) and pdf.js, which is also the fallback for documents mutool cannot read.
 */
const mutoolInstalled = mutoolRuns()
if (!mutoolInstalled) console.warn('mutool (mupdf-tools) is not installed: the PDF tests run with pdf.js text only')

describe.each([
  { source: 'pdf.js', mutool: null },
  { source: 'mutool', mutool: mutoolInstalled ? 'mutool' : undefined },
])('PDF parser ($source text layer)', ({ mutool }) => {
  if (mutool === undefined) return
  const sourceInput = (path: string, mimeType: string, overrides: Partial<ParseInput> = {}): ParseInput =>
    inputFor(path, mimeType, { mutool, ...overrides })

  it('reads text per page in reading order, with headings, paragraphs, tables, title and progress', async () => {
    const path = await file('report.pdf', await reportPdf())
    const progress: [number, number][] = []
    const doc = await pdfParser.parse(
      sourceInput(path, PDF, { progress: (done, total) => progress.push([done, total]) }),
    )
    expect(doc.pageCount).toBe(3)
    expect(doc.documentType).toBe('text')
    expect(doc.title).toBe('Quarterly Report 2024')
    expect(progress).toEqual([
      [1, 3],
      [2, 3],
      [3, 3],
    ])
    expect(doc.blocks.every((block) => block.page !== undefined)).toBe(true)
    for (const page of [1, 2, 3]) {
      const [heading, body, closing] = blocksOn(doc, page)
      expect(heading).toEqual({ kind: 'heading', level: 1, text: `Chapter ${page} overview`, page })
      expect(body).toEqual({
        kind: 'paragraph',
        text: `Page ${page} explains the quarterly results in enough words that this paragraph wraps onto a second line of the page.`,
        page,
      })
      expect(closing).toEqual({ kind: 'paragraph', text: `Closing remark number ${page}.`, page })
    }
    const table = blocksOn(doc, 2).find((block) => block.kind === 'table')
    expect(table).toEqual({
      kind: 'table',
      page: 2,
      header: ['Product', 'Units', 'Price'],
      rows: [
        { rowNumber: 2, cells: ['Apples', '120', '0.40'] },
        { rowNumber: 3, cells: ['Pears', '75', '0.55'] },
      ],
    })
    expect(blocksOn(doc, 1).some((block) => block.kind === 'table')).toBe(false)
  })

  it('reads a list item or a long sentence set large as a paragraph, not a heading', async () => {
    const bullet = '• an increase in marketing costs for the year, which relate to a rise in paid campaigns'
    const clause =
      'For purposes of this Article, the term Employment shall refer to active employment with the Company.'
    const path = await file(
      'large-sentences.pdf',
      await pdfOf((doc) => {
        doc.addPage()
        doc.fontSize(20).text('Results of operations')
        doc.fontSize(11).text('The body of the report is set in the usual size, line after line, on the page.')
        doc.moveDown()
        doc.fontSize(16).text(bullet)
        doc.moveDown()
        doc.fontSize(11).text('More body text follows the list, in the usual size for the rest of the page.')
        doc.moveDown()
        doc.fontSize(16).text(clause)
        doc.moveDown()
        doc.fontSize(11).text('And the report closes with one more paragraph of body text in the usual size.')
      }),
    )
    const blocks = blocksOn(await pdfParser.parse(sourceInput(path, PDF)), 1)
    expect(blocks[0]).toMatchObject({ kind: 'heading', text: 'Results of operations' })
    expect(blocks.filter((block) => block.kind === 'heading')).toHaveLength(1)
    expect(blocks).toContainEqual({ kind: 'paragraph', text: bullet, page: 1 })
    expect(blocks).toContainEqual({ kind: 'paragraph', text: clause, page: 1 })
  })

  it('OCRs a page that is only a picture of text (real Tesseract)', async () => {
    const png = await textImage(['Invoice number 48213', 'Total due 1250 EUR'])
    const path = await file(
      'scanned.pdf',
      await pdfOf((doc) => {
        doc.addPage()
        doc.text('This first page has a real text layer that is long enough.')
        doc.addPage()
        doc.image(png, 36, 36, { width: 540 })
      }),
    )
    const doc = await pdfParser.parse(sourceInput(path, PDF))
    expect(doc.pageCount).toBe(2)
    expect(blocksOn(doc, 1)).toEqual([
      { kind: 'paragraph', text: 'This first page has a real text layer that is long enough.', page: 1 },
    ])
    const scanned = blocksOn(doc, 2)
    expect(scanned.length).toBeGreaterThan(0)
    expect(scanned.every((block) => block.kind === 'paragraph')).toBe(true)
    const text = scanned.map((block) => ('text' in block ? block.text : '')).join(' ')
    expect(text).toContain('Invoice number 48213')
    expect(text).toContain('1250 EUR')
    expect(doc.documentType).toBe('text')
  })

  it('with the ADVANCED loader, OCRs large embedded images into image blocks and skips small ones', async () => {
    const png = await textImage(['Embedded chart label'])
    const path = await file(
      'embedded.pdf',
      await pdfOf((doc) => {
        doc.addPage({ size: [600, 800] })
        doc.text('Text of the page that talks about the chart below, long enough to count.')
        doc.image(png, 10, 200, { width: 580 }) // 580 x 106 of 600 x 800: 13 % of the page
        doc.image(png, 50, 600, { width: 100 }) // 0.5 % of the page: a logo
      }),
    )
    const ocr = fakeOcr('Embedded chart label')
    const standard = await createPdfParser(ocr).parse(sourceInput(path, PDF))
    expect(ocr.calls).toHaveLength(0)
    expect(standard.blocks.map((block) => block.kind)).toEqual(['paragraph'])
    const advanced = await createPdfParser(ocr).parse(
      sourceInput(path, PDF, { options: { loaderType: 'ADVANCED', csvDelimiter: null, imageMinSizeRatio: 0.1 } }),
    )
    expect(ocr.calls).toHaveLength(1)
    expect(ocr.calls[0]?.options).toEqual({ rotate: 0, flip: false })
    expect(advanced.blocks).toEqual([
      { kind: 'paragraph', text: 'Text of the page that talks about the chart below, long enough to count.', page: 1 },
      { kind: 'image', imageId: 'p1-img1', text: 'Embedded chart label', page: 1 },
    ])
    ocr.calls.length = 0
    const searchable = await file(
      'searchable.pdf',
      await pdfOf((doc) => {
        doc.addPage({ size: [600, 800] })
        doc.image(png, 0, 0, { width: 600, height: 800 })
        doc.text('The OCR text layer of a scanned page lies over the scan itself.', 50, 50)
      }),
    )
    const overScan = await createPdfParser(ocr).parse(
      sourceInput(searchable, PDF, { options: { loaderType: 'ADVANCED', csvDelimiter: null, imageMinSizeRatio: 0.1 } }),
    )
    expect(ocr.calls).toHaveLength(0)
    expect(overScan.blocks.map((block) => block.kind)).toEqual(['paragraph'])
    await createPdfParser(ocr).parse(
      sourceInput(path, PDF, { options: { loaderType: 'ADVANCED', csvDelimiter: null, imageMinSizeRatio: 0.001 } }),
    )
    expect(ocr.calls).toHaveLength(2)
  })

  it('turns images drawn rotated or flipped upright for OCR', async () => {
    const png = await textImage(['Sideways'], 800, 200)
    const path = await file(
      'rotated.pdf',
      await pdfOf((doc) => {
        doc.addPage()
        doc.save()
        doc.rotate(90, { origin: [300, 300] })
        doc.image(png, 100, 200, { width: 400 })
        doc.restore()
      }),
    )
    const ocr = fakeOcr()
    await createPdfParser(ocr).parse(sourceInput(path, PDF))
    expect(ocr.calls).toHaveLength(1)
    expect(ocr.calls[0]?.options).toEqual({ rotate: 90, flip: false, sidewaysRetry: true })
    // Rotated a quarter, the 800 x 400 picture (upscaled for OCR) stands taller than wide.
    expect(ocr.calls[0]?.height).toBeGreaterThan(ocr.calls[0]?.width ?? 0)
  })

  it('rejects a PDF that needs a password, and opens one protected by an owner password only', async () => {
    const locked = await file(
      'locked.pdf',
      await pdfOf(
        (doc) => {
          doc.addPage()
          doc.text('Top secret')
        },
        { userPassword: 'secret', ownerPassword: 'owner' },
      ),
    )
    const error = await ingestFailure(pdfParser.parse(sourceInput(locked, PDF)))
    expect(error.permanent).toBe(true)
    expect(error.message).toBe('the PDF is password-protected')
    const ownerOnly = await file(
      'owner.pdf',
      await pdfOf(
        (doc) => {
          doc.addPage()
          doc.text('Readable but not printable')
        },
        { ownerPassword: 'owner', permissions: { printing: 'lowResolution', copying: false } },
      ),
    )
    const doc = await pdfParser.parse(sourceInput(ownerOnly, PDF))
    expect(doc.blocks).toEqual([{ kind: 'paragraph', text: 'Readable but not printable', page: 1 }])
  })

  it('reads text drawn only by form-field appearances (push-button caption), also in an AES-256 PDF without user password', async () => {
    const path = await file(
      'form.pdf',
      await pdfOf(
        (doc) => {
          doc.addPage()
          doc.fontSize(11).text('Press the button below.', 72, 72)
          const font = doc.ref({
            Type: 'Font',
            Subtype: 'Type1',
            BaseFont: 'Helvetica-Bold',
            Encoding: 'WinAnsiEncoding',
          })
          font.end('')
          const appearance = (text: string) => {
            const form = doc.ref({
              Type: 'XObject',
              Subtype: 'Form',
              BBox: [0, 0, 160, 20],
              Resources: { Font: { HeBo: font } },
            })
            // Two runs placed apart, as Acrobat writes a caption: the gap is a word space.
            const [first, ...rest] = text.split(' ')
            form.end(`BT /HeBo 12 Tf 6 5 Td (${first}) Tj 60 0 Td (${rest.join(' ')}) Tj ET`)
            return form
          }
          const widget = (y: number, name: string, caption: string, flags: number) =>
            doc.annotate(72, y, 160, 20, {
              Subtype: 'Widget',
              FT: 'Btn',
              Ff: 1 << 16,
              F: flags,
              T: new String(name),
              AP: { N: appearance(caption) },
            } as PDFKit.Mixins.AnnotationOption)
          widget(200, 'Button4', 'Security Handler', 4)
          // A hidden field (flag 2) is not printed, so not read.
          widget(240, 'Button5', 'Hidden caption', 2)
          // The widgets are the document's form fields, as in any real form (pdfkit's annotate
          // does not register them itself).
          doc.initForm()
          const internals = doc as unknown as {
            page: { annotations: unknown[] }
            _root: { data: { AcroForm: { data: { Fields: unknown[] } } } }
          }
          internals._root.data.AcroForm.data.Fields.push(...internals.page.annotations)
          doc.link(72, 300, 100, 20, 'https://example.com/')
        },
        { ownerPassword: 'owner', pdfVersion: '1.7ext3', permissions: { copying: false } },
      ),
    )
    const doc = await pdfParser.parse(sourceInput(path, PDF))
    expect(doc.blocks).toEqual([
      { kind: 'paragraph', text: 'Press the button below.', page: 1 },
      { kind: 'paragraph', text: 'Security Handler', page: 1 },
    ])
  })

  it('reads the real secHandler.pdf (encrypted, text only in a push button) like pdftotext', async () => {
    const corpus = robustnessDir()
    if (!corpus) return
    const doc = await pdfParser.parse(sourceInput(join(corpus, 'pdfjs-test-pdfs', 'secHandler.pdf'), PDF))
    expect(doc.blocks).toEqual([{ kind: 'paragraph', text: 'Security Handler', page: 1 }])
  })

  it('calls a truncated PDF or non-PDF bytes damaged, permanently', async () => {
    const whole = await reportPdf()
    const truncated = await file('half.pdf', whole.subarray(0, Math.floor(whole.length / 2)))
    const error = await ingestFailure(pdfParser.parse(sourceInput(truncated, PDF)))
    expect(error.permanent).toBe(true)
    expect(error.message).toMatch(/^the PDF file is damaged or truncated: /)
    const garbage = await file('garbage.pdf', Buffer.from('%PDF-1.7\n this is not really a PDF at all'))
    expect((await ingestFailure(pdfParser.parse(sourceInput(garbage, PDF)))).message).toMatch(
      /^the PDF file is damaged or truncated: /,
    )
  })

  it('enforces the page cap before reading pages, also on a 10,000-page PDF', async () => {
    const five = await file(
      'five.pdf',
      await pdfOf((doc) => {
        for (let i = 1; i <= 5; i++) doc.addPage().text(`page ${i}`)
      }),
    )
    const error = await ingestFailure(pdfParser.parse(sourceInput(five, PDF, { limits: { ...LIMITS, maxPages: 3 } })))
    expect(error.permanent).toBe(true)
    expect(error.message).toBe('limit exceeded: the PDF has 5 pages, more than the limit of 3')
    const huge = await file(
      'huge.pdf',
      await pdfOf((doc) => {
        for (let i = 1; i <= 10_000; i++) doc.addPage({ size: [200, 200] })
      }),
    )
    const progress: number[] = []
    const hugeError = await ingestFailure(
      pdfParser.parse(sourceInput(huge, PDF, { progress: (done) => progress.push(done) })),
    )
    expect(hugeError.message).toBe('limit exceeded: the PDF has 10000 pages, more than the limit of 2000')
    expect(progress).toEqual([])
  })

  it('is the registered parser for application/pdf', async () => {
    expect(await loadParserFor(PDF)).toBe(pdfParser)
  })

  it('parses every real PDF of the corpus or rejects it with an IngestError, without hanging', async () => {
    const corpus = robustnessDir()
    if (!corpus) return
    const tags = manifestTags(corpus)
    const parser = createPdfParser(fakeOcr())
    const files = filesWithExtensions(corpus, ['pdf'])
    expect(files.length).toBeGreaterThan(50)
    const outcomes = new Map<string, ParsedDocument | Error>()
    for (const path of files) {
      const result = await withTimeout(
        parsesOrRejectsCleanly(() => parser.parse(sourceInput(path, PDF))),
        20_000,
        path,
      )
      outcomes.set(path, result)
      if (!(result instanceof Error)) expectWellFormed(result)
    }
    for (const [path, result] of outcomes) {
      const tag = tags.get(path) ?? ''
      if (tag.includes('needs-password')) expect((result as Error).message, path).toBe('the PDF is password-protected')
      if (tag.includes('encrypted-no-user-password')) expect(result, path).not.toBeInstanceOf(Error)
    }
    const parsed = [...outcomes.values()].filter((r) => !(r instanceof Error)) as ParsedDocument[]
    expect(parsed.length).toBeGreaterThan(files.length * 0.8)
    expect(parsed.filter((doc) => allText(doc).length > 100).length).toBeGreaterThan(files.length * 0.4)
  }, 240_000)
})

describe('PDF text from mutool, with pdf.js as the fallback', () => {
  it('reads a document with pdf.js when the mutool command cannot run', async () => {
    const path = await file('fallback.pdf', await reportPdf())
    const doc = await pdfParser.parse(inputFor(path, PDF, { mutool: '/nonexistent/mutool' }))
    expect(doc.pageCount).toBe(3)
    expect(doc.title).toBe('Quarterly Report 2024')
    expect(blocksOn(doc, 1)[0]).toEqual({ kind: 'heading', level: 1, text: 'Chapter 1 overview', page: 1 })
  })

  it.skipIf(!mutoolInstalled)('gives the same blocks as pdf.js on a generated report', async () => {
    const path = await file('same.pdf', await reportPdf())
    const fromPdfjs = await pdfParser.parse(inputFor(path, PDF))
    const fromMutool = await pdfParser.parse(inputFor(path, PDF, { mutool: 'mutool' }))
    expect(fromMutool).toEqual(fromPdfjs)
  })

  it.skipIf(!mutoolInstalled)(
    'calls a PDF damaged when MuPDF had to repair it and nothing in it could be read, not PROCESSED and empty',
    async () => {
      // One page, no xref table nor startxref: MuPDF reports the error and rebuilds the xref.
      const objects = (page: string, extra = '') =>
        '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n' +
        `3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 612 792]${page}>>endobj\n${extra}trailer<</Root 1 0 R>>\n%%EOF\n`
      const broken = await file('broken-blank.pdf', objects(''))
      const error = await ingestFailure(pdfParser.parse(inputFor(broken, PDF, { mutool: 'mutool' })))
      expect(error.permanent).toBe(true)
      expect(error.message).toBe(
        'the PDF file is damaged or truncated: nothing in it could be read (MuPDF: cannot find startxref)',
      )
      // The same damage with text in it: repaired and read.
      const text = 'BT /F1 24 Tf 72 700 Td (Repaired but readable text) Tj ET'
      const readable = await file(
        'broken-text.pdf',
        objects(
          '/Contents 4 0 R/Resources<</Font<</F1 5 0 R>>>>',
          `4 0 obj<</Length ${text.length}>>stream\n${text}\nendstream endobj\n5 0 obj<</Type/Font/Subtype/Type1/BaseFont/Helvetica>>endobj\n`,
        ),
      )
      const doc = await pdfParser.parse(inputFor(readable, PDF, { mutool: 'mutool' }))
      expect(doc.blocks).toEqual([{ kind: 'paragraph', text: 'Repaired but readable text', page: 1 }])
      // A sound blank page is blank, not damaged.
      const blank = await file('blank.pdf', await pdfOf((pdf) => pdf.addPage()))
      expect((await pdfParser.parse(inputFor(blank, PDF, { mutool: 'mutool' }))).blocks).toEqual([])
    },
  )

  it.skipIf(!mutoolInstalled)(
    'reads every page of a document longer than one mutool run, in order, with progress',
    async () => {
      const total = PAGES_PER_RUN + 25
      const path = await file(
        'long.pdf',
        await pdfOf((doc) => {
          for (let i = 1; i <= total; i++)
            doc.addPage({ size: [300, 200] }).text(`Section number ${i} of the long report.`)
        }),
      )
      const progress: number[] = []
      const doc = await pdfParser.parse(
        inputFor(path, PDF, { mutool: 'mutool', progress: (done, of) => progress.push(of === total ? done : -1) }),
      )
      expect(doc.pageCount).toBe(total)
      expect(doc.blocks.map((block) => [block.page, block.kind === 'paragraph' ? block.text : block.kind])).toEqual(
        Array.from({ length: total }, (_, i) => [i + 1, `Section number ${i + 1} of the long report.`]),
      )
      expect(progress).toEqual(Array.from({ length: total }, (_, i) => i + 1))
    },
  )

  it.skipIf(!mutoolInstalled)('LANTERN_PDF_TEXT chooses the text layer, and mutool is required only when named', () => {
    const dataDir = '/tmp/lantern-settings'
    expect(ingestSettings(loadConfig({ LANTERN_DATA_DIR: dataDir })).mutool).toBe('mutool')
    expect(ingestSettings(loadConfig({ LANTERN_DATA_DIR: dataDir, LANTERN_PDF_TEXT: 'mutool' })).mutool).toBe('mutool')
    expect(ingestSettings(loadConfig({ LANTERN_DATA_DIR: dataDir, LANTERN_PDF_TEXT: 'pdfjs' })).mutool).toBeNull()
  })
})
