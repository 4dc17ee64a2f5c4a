import { join } from 'node:path'
import { Document, HeadingLevel, ImageRun, Packer, Paragraph, Table, TableCell, TableRow, TextRun } from 'docx'
import { describe, expect, it } from 'vitest'
import type { ParsedDocument } from '../../src/ingestion/model.js'
import { createDocxParser, docxParser } from '../../src/ingestion/parsers/docx.js'
import { loadParserFor } from '../../src/ingestion/parsers/registry.js'
import { allText, fakeOcr, ingestFailure, textImage, withTimeout } from './ocr-support.js'
import {
  expectWellFormed,
  filesWithExtensions,
  inputFor,
  parsesOrRejectsCleanly,
  robustnessDir,
  tempFiles,
  zipOf,
} from './text-formats-support.js'

const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'
const ADVANCED = { loaderType: 'ADVANCED', csvDelimiter: null, imageMinSizeRatio: 0.1 } as const
const file = tempFiles()

function cell(text: string): TableCell {
  return new TableCell({ children: [new Paragraph(text)] })
}

async function reportDocx(): Promise<Buffer> {
  const chart = await textImage(['Revenue by region'], 1200) // 1200 x 220 px: 31 % of a page
  const logo = await textImage(['Logo'], 200, 40) // 200 x 80 px: 2 % of a page
  const doc = new Document({
    sections: [
      {
        children: [
          new Paragraph({ text: 'Annual Report', heading: HeadingLevel.HEADING_1 }),
          new Paragraph({
            children: [new TextRun('Intro with café, naïve and '), new TextRun({ text: 'bold', bold: true })],
          }),
          new Paragraph({ text: 'Sales figures', heading: HeadingLevel.HEADING_2 }),
          new Table({
            rows: [
              new TableRow({ tableHeader: true, children: [cell('Region'), cell('Units')] }),
              new TableRow({ children: [cell('North'), cell('120')] }),
              new TableRow({ children: [cell('South'), cell('75')] }),
            ],
          }),
          new Paragraph({ text: 'First point', bullet: { level: 0 } }),
          new Paragraph({ text: 'Nested point', bullet: { level: 1 } }),
          new Paragraph({
            children: [new ImageRun({ type: 'png', data: chart, transformation: { width: 600, height: 110 } })],
          }),
          new Paragraph({
            children: [new ImageRun({ type: 'png', data: logo, transformation: { width: 100, height: 40 } })],
          }),
          new Paragraph({ text: 'Appendix', heading: HeadingLevel.HEADING_3 }),
          new Paragraph('Last words.'),
        ],
      },
    ],
  })
  return Packer.toBuffer(doc)
}

/** A minimal DOCX around a hand-written document.xml. */
function docxWith(documentXml: string): Buffer {
  return zipOf([
    {
      name: '[Content_Types].xml',
      content:
        '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
    },
    {
      name: '_rels/.rels',
      content:
        '<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>',
    },
    { name: 'word/document.xml', content: documentXml },
  ])
}

const W = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main'

describe('DOCX parser', () => {
  it('keeps headings with their level, paragraphs, tables (first row as header) and list items', async () => {
    const path = await file('report.docx', await reportDocx())
    const doc = await docxParser.parse(inputFor(path, DOCX))
    expect(doc.pageCount).toBe(1)
    expect(doc.documentType).toBe('text')
    expect(doc.title).toBe('Annual Report')
    expect(doc.blocks).toEqual([
      { kind: 'heading', level: 1, text: 'Annual Report' },
      { kind: 'paragraph', text: 'Intro with café, naïve and bold' },
      { kind: 'heading', level: 2, text: 'Sales figures' },
      {
        kind: 'table',
        header: ['Region', 'Units'],
        rows: [
          { rowNumber: 2, cells: ['North', '120'] },
          { rowNumber: 3, cells: ['South', '75'] },
        ],
      },
      { kind: 'paragraph', text: 'First point' },
      { kind: 'paragraph', text: 'Nested point' },
      { kind: 'heading', level: 3, text: 'Appendix' },
      { kind: 'paragraph', text: 'Last words.' },
    ])
  })

  it('with the ADVANCED loader, OCRs images large enough into image blocks where they stand', async () => {
    const path = await file('report-images.docx', await reportDocx())
    const ocr = fakeOcr('Revenue by region')
    const doc = await createDocxParser(ocr).parse(inputFor(path, DOCX, { options: ADVANCED }))
    expect(ocr.calls).toHaveLength(1)
    const kinds = doc.blocks.map((block) => block.kind)
    expect(kinds).toEqual([
      'heading',
      'paragraph',
      'heading',
      'table',
      'paragraph',
      'paragraph',
      'image',
      'heading',
      'paragraph',
    ])
    expect(doc.blocks[6]).toEqual({ kind: 'image', imageId: 'img1', text: 'Revenue by region' })
    const standard = fakeOcr('never')
    await createDocxParser(standard).parse(inputFor(path, DOCX))
    expect(standard.calls).toHaveLength(0)
  })

  it('does not expand a billion-laughs entity bomb in document.xml', async () => {
    const entities = ['<!ENTITY lol0 "lol">']
    for (let i = 1; i <= 9; i++) entities.push(`<!ENTITY lol${i} "${`&lol${i - 1};`.repeat(10)}">`)
    const xml = `<?xml version="1.0"?><!DOCTYPE lolz [${entities.join('')}]><w:document xmlns:w="${W}"><w:body><w:p><w:r><w:t>Before &lol9; after</w:t></w:r></w:p></w:body></w:document>`
    const path = await file('laughs.docx', docxWith(xml))
    const result = await withTimeout(
      parsesOrRejectsCleanly(() => docxParser.parse(inputFor(path, DOCX))),
      10_000,
      'billion laughs',
    )
    // xmldom does not expand entities declared in a DTD: the reference is refused as malformed.
    expect(result).toBeInstanceOf(Error)
    expect((result as Error).message).toMatch(/^the DOCX file is damaged or truncated: /)
  })

  it('reads a hand-written minimal DOCX', async () => {
    const xml = `<?xml version="1.0"?><w:document xmlns:w="${W}"><w:body><w:p><w:pPr><w:pStyle w:val="Heading1"/></w:pPr><w:r><w:t>Hello</w:t></w:r></w:p><w:p><w:r><w:t>World &amp; friends</w:t></w:r></w:p></w:body></w:document>`
    const doc = await docxParser.parse(inputFor(await file('minimal.docx', docxWith(xml)), DOCX))
    expect(doc.blocks).toEqual([
      { kind: 'heading', level: 1, text: 'Hello' },
      { kind: 'paragraph', text: 'World & friends' },
    ])
  })

  it('keeps ruby (phonetic guide) text as base(reading) in the sentence', async () => {
    const run = (text: string) => `<w:r><w:rPr><w:sz w:val="11"/><w:rtl w:val="0"/></w:rPr><w:t>${text}</w:t></w:r>`
    const ruby = (base: string, reading: string) =>
      `<w:r><w:rPr><w:sz w:val="22"/></w:rPr><w:ruby><w:rubyPr><w:hps w:val="11"/></w:rubyPr><w:rt>${run(reading)}</w:rt><w:rubyBase>${run(base)}</w:rubyBase></w:ruby></w:r>`
    const xml = `<?xml version="1.0"?><w:document xmlns:w="${W}"><w:body><w:p><w:r><w:t xml:space="preserve">Trip to </w:t></w:r>${ruby('東京', 'とうきょう')}${ruby('大阪', '')}<w:r><w:t xml:space="preserve"> in May.</w:t></w:r></w:p></w:body></w:document>`
    const doc = await docxParser.parse(inputFor(await file('ruby.docx', docxWith(xml)), DOCX))
    // A ruby without reading keeps its base alone.
    expect(doc.blocks).toEqual([{ kind: 'paragraph', text: 'Trip to 東京(とうきょう)大阪 in May.' }])
  })

  it('reads the real testWORD_phonetic.docx (ruby only)', async () => {
    const corpus = robustnessDir()
    if (!corpus) return
    const doc = await docxParser.parse(inputFor(join(corpus, 'tika-test-documents', 'testWORD_phonetic.docx'), DOCX))
    expect(doc.blocks).toEqual([{ kind: 'paragraph', text: '東京(とうきょう)' }])
  })

  it('calls a truncated DOCX or a zip without a document damaged, permanently', async () => {
    const whole = await reportDocx()
    const truncated = await file('half.docx', whole.subarray(0, Math.floor(whole.length / 2)))
    const error = await ingestFailure(docxParser.parse(inputFor(truncated, DOCX)))
    expect(error.permanent).toBe(true)
    expect(error.message).toMatch(/^the DOCX file is damaged or truncated: /)
    const empty = await file('empty.docx', zipOf([{ name: 'readme.txt', content: 'not a document' }]))
    expect((await ingestFailure(docxParser.parse(inputFor(empty, DOCX)))).message).toMatch(
      /^the DOCX file is damaged or truncated: /,
    )
  })

  it('is the registered parser for DOCX', async () => {
    expect(await loadParserFor(DOCX)).toBe(docxParser)
  })

  it('parses every real DOCX of the corpus or rejects it with an IngestError, without hanging', async () => {
    const corpus = robustnessDir()
    if (!corpus) return
    const parser = createDocxParser(fakeOcr('image text'))
    const files = filesWithExtensions(corpus, ['docx'])
    expect(files.length).toBeGreaterThan(10)
    const parsed: ParsedDocument[] = []
    for (const path of files) {
      for (const options of [undefined, ADVANCED]) {
        const result = await withTimeout(
          parsesOrRejectsCleanly(() => parser.parse(inputFor(path, DOCX, options ? { options } : {}))),
          20_000,
          path,
        )
        if (result instanceof Error) continue
        expectWellFormed(result)
        parsed.push(result)
      }
    }
    expect(parsed.length).toBeGreaterThan(files.length * 1.6)
    expect(parsed.some((doc) => allText(doc).length > 100_000)).toBe(true)
  }, 120_000)
})
