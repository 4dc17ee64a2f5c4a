import { execFileSync } from 'node:child_process'
import { dirname, join } from 'node:path'
import { Document, HeadingLevel, Packer, Paragraph, Table, TableCell, TableRow } from 'docx'
import { describe, expect, it } from 'vitest'
import type { Block, ParsedDocument } from '../../src/ingestion/model.js'
import { docParser, storyBlocks } from '../../src/ingestion/parsers/doc.js'
import { libreOfficeRuns } from '../../src/ingestion/parsers/libreoffice.js'
import { ingestFailure } from './ocr-support.js'
import { expectWellFormed, inputFor, plainBlocks, robustnessDir, tempFiles } from './text-formats-support.js'

const DOC = 'application/msword'
const dir = robustnessDir()
const file = tempFiles()
const real = (name: string): string => join(dir as string, name)
const parseDoc = (path: string): Promise<ParsedDocument> => docParser.parse(inputFor(path, DOC))
const paragraphs = (blocks: readonly Block[]): string[] =>
  blocks.flatMap((b) => (b.kind === 'paragraph' ? [b.text] : []))

describe('Word 97–2003 .doc parser', () => {
  it('turns each Word paragraph into a block and runs of table rows into a table (header when the rows say so)', () => {
    const text =
      'Title\n\nFirst  paragraph.\nName\tAmount\t\nAnn\t12\t\nBob\t7\t\n\t\nAfter the table\tand a tab\nLone cell\t\n'
    expect(plainBlocks(storyBlocks(text))).toEqual([
      { kind: 'paragraph', text: 'Title' },
      { kind: 'paragraph', text: 'First paragraph.' },
      {
        kind: 'table',
        header: ['Name', 'Amount'],
        rows: [
          { rowNumber: 2, cells: ['Ann', '12'] },
          { rowNumber: 3, cells: ['Bob', '7'] },
        ],
      },
      { kind: 'paragraph', text: 'After the table and a tab' },
      { kind: 'paragraph', text: 'Lone cell' },
    ])
  })

  it('rejects a file that is not a compound file as damaged', async () => {
    const error = await ingestFailure(parseDoc(await file('fake.doc', 'not a Word file at all')))
    expect(error).toMatchObject({ permanent: true })
    expect(error.message).toBe('the DOC file is damaged or truncated: no readable WordDocument stream')
  })
})

describe.skipIf(!dir)('Word 97–2003 .doc parser: real files', () => {
  it('reads the body in order, then the headers and footers once (testWORD.doc)', async () => {
    const doc = await parseDoc(real('tika-test-documents/testWORD.doc'))
    expectWellFormed(doc)
    // From the document's properties (SummaryInformation), not its text.
    expect(doc.title).toBe('Sample Word Document')
    expect(doc.pageCount).toBe(1)
    expect(doc.blocks.every((b) => b.page === undefined)).toBe(true)
    const body = paragraphs(doc.blocks)
    expect(body.slice(0, 8)).toEqual([
      'Sample Word Document Title',
      'And now for a subtitle',
      'Main Heading',
      'Heading Level 1',
      'Heading Level 2',
      'Heading Level 3',
      'This is a sample Microsoft Word Document.',
      'This document includes text that is BOLD and ITALIC.',
    ])
    expect(body).toContain('Apache Tika: http://tika.apache.org/ Tika')
    expect(body).toContain('This links to The Main Heading Bookmark and The Level 3 Bookmark. That’s it!')
    const section = doc.blocks.findIndex((b) => b.kind === 'heading' && b.text === 'Headers and footers')
    expect(section).toBe(doc.blocks.length - 3)
    expect(paragraphs(doc.blocks.slice(section))).toEqual([
      'This is the header for our document',
      'This is the footer for our document',
    ])
  })

  it('reads tables, Japanese and Gothic text, text boxes and footnotes (testWORD_various.doc)', async () => {
    const doc = await parseDoc(real('tika-test-documents/testWORD_various.doc'))
    expectWellFormed(doc)
    const table = doc.blocks.find((b) => b.kind === 'table')
    expect(table && plainBlocks([table])).toEqual([
      {
        kind: 'table',
        header: null,
        rows: [
          { rowNumber: 1, cells: ['Row 1 Col 1', 'Row 1 Col 2', 'Row 1 Col 3'] },
          { rowNumber: 2, cells: ['Row 2 Col 1', 'Row 2 Col 2', 'Row 2 Col 3'] },
        ],
      },
    ])
    const body = paragraphs(doc.blocks)
    expect(body).toContain('ゾルゲと尾崎、淡々と最期')
    expect(body).toContain('𐌲𐌿𐍄𐌹𐍃𐌺')
    expect(body).toContain('Here is a text box')
    const headings = doc.blocks.flatMap((b) => (b.kind === 'heading' ? [b.text] : []))
    expect(headings).toEqual(['Footnotes', 'Headers and footers'])
    const footnotes = doc.blocks.findIndex((b) => b.kind === 'heading' && b.text === 'Footnotes')
    expect(doc.blocks[footnotes + 1]).toEqual({ kind: 'paragraph', text: 'This is a footnote.' })
  })

  it('reads short documents (simple.doc, fake.doc)', async () => {
    expect(paragraphs((await parseDoc(real('unstructured-example-docs/simple.doc'))).blocks)).toEqual([
      'These are a few of my favorite things:',
      '• Parrots',
      '•',
      'Hockey',
      'Analysis',
      'This is my first thought. This is my second thought.',
      'This is my third thought.',
      '2023',
      'DOYLESTOWN, PA 18901',
    ])
    const fake = await parseDoc(real('unstructured-example-docs/fake.doc'))
    expect(fake.blocks).toEqual([{ kind: 'paragraph', text: 'Lorem ipsum dolor sit amet.' }])
    expect(fake.title).toBeUndefined()
  })

  it('calls an encrypted document password-protected and a Word 6.0/95 one unsupported', async () => {
    const encrypted = await ingestFailure(parseDoc(real('tika-test-documents/testWORD_protected_passtika.doc')))
    expect(encrypted).toMatchObject({ message: 'the DOC is password-protected', permanent: true })
    const word6 = await ingestFailure(parseDoc(real('tika-test-documents/testWORD6.doc')))
    expect(word6).toMatchObject({ message: 'unsupported file type: application/msword (Word 6.0/95)', permanent: true })
  })
})

describe.skipIf(!libreOfficeRuns())('Word 97–2003 .doc parser: a file written by LibreOffice', () => {
  it('reads the paragraphs and the table of a .doc LibreOffice wrote from a .docx', async () => {
    const document = new Document({
      sections: [
        {
          children: [
            new Paragraph({ text: 'Travel policy', heading: HeadingLevel.HEADING_1 }),
            new Paragraph('Trains are booked in second class for trips under four hours.'),
            new Table({
              rows: [
                new TableRow({
                  children: ['Band', 'Nightly cap'].map((text) => new TableCell({ children: [new Paragraph(text)] })),
                }),
                new TableRow({
                  children: ['Europe', '180 EUR'].map((text) => new TableCell({ children: [new Paragraph(text)] })),
                }),
              ],
            }),
          ],
        },
      ],
    })
    const source = await file('policy.docx', await Packer.toBuffer(document))
    execFileSync(
      'soffice',
      [
        '--headless',
        `-env:UserInstallation=file://${dirname(source)}/profile`,
        '--convert-to',
        'doc',
        '--outdir',
        dirname(source),
        source,
      ],
      { stdio: 'ignore', timeout: 120_000 },
    )
    const parsed = await parseDoc(source.replace(/\.docx$/, '.doc'))
    expect(paragraphs(parsed.blocks)).toContain('Trains are booked in second class for trips under four hours.')
    const text = JSON.stringify(parsed.blocks)
    expect(text).toContain('Travel policy')
    expect(text).toContain('180 EUR')
  }, 120_000)
})
