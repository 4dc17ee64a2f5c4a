import { describe, expect, it } from 'vitest'
import { chunkDocument } from '../../src/ingestion/chunking/chunker.js'
import { countTokens } from '../../src/ingestion/chunking/tokens.js'
import type { ParsedDocument, TableBlock } from '../../src/ingestion/model.js'
import { pdfParser } from '../../src/ingestion/parsers/pdf.js'
import { mutoolRuns } from '../../src/ingestion/parsers/pdf-mutool.js'
import { pdfOf } from '../support/pdf.js'
import { inputFor, tempFiles } from './text-formats-support.js'

const PDF = 'application/pdf'
const file = tempFiles()

/** Right edges of the four figure columns, and where their `$` signs stand. */
const COLUMNS = [330, 400, 470, 540] as const
const DOLLAR_OFFSET = 62
const LABEL_X = 72
const PITCH = 13

type Row = readonly [label: string, ...figures: string[]] | readonly [section: string]

const ROWS: readonly { row: Row; dollars?: boolean; indent?: number }[] = [
  { row: ['Revenues', '1,250', '1,100', '2,480', '2,150'], dollars: true },
  { row: ['Costs and expenses:'] },
  { row: ['Cost of sales', '500', '460', '990', '905'], indent: 6 },
  { row: ['Research and development', '210', '190', '415', '380'], indent: 6 },
  { row: ['Other (income)/deductions—net', '(12)', '8', '(20)', '—'], indent: 6 },
  { row: ['Income from operations before provision'], indent: 6 },
  { row: ['for taxes on income', '552', '442', '1,095', '865'], indent: 12 },
  { row: ['Provision for taxes on income', '110', '90', '220', '175'] },
  { row: ['Net income', '442', '352', '875', '690'], dollars: true },
]

/** Draws `text` so that it ends at `right`. */
function rightAligned(doc: PDFKit.PDFDocument, text: string, right: number, y: number): void {
  doc.text(text, right - doc.widthOfString(text), y, { lineBreak: false })
}

function centred(doc: PDFKit.PDFDocument, text: string, middle: number, y: number): void {
  doc.text(text, middle - doc.widthOfString(text) / 2, y, { lineBreak: false })
}

/**
 * A page laid out like a 10-Q income statement: prose, a two-line centred title, a spanning
 * header ("Three Months Ended" over two columns), stacked dates ("June 30," over "2024"), the unit
 * line under the labels, `$` signs apart from their amounts, a section row, a label wrapped over
 * two lines, prose again and the page number. `rows` draws only the first rows; without `header`
 * the page starts with the rows (a table going on from the previous page).
 */
function statementPage(doc: PDFKit.PDFDocument, options: { rows?: number; header?: boolean } = {}): void {
  doc.addPage({ size: 'LETTER' })
  doc.font('Helvetica').fontSize(10)
  let y = 60
  if (options.header !== false) {
    doc.text(
      'Revenue grew in both periods. Management reviews these results every quarter and explains the main changes in the discussion that follows the statement below.',
      LABEL_X,
      y,
      { width: 470 },
    )
    y = 110
    centred(doc, 'ACME CORPORATION', 306, y)
    centred(doc, 'CONDENSED CONSOLIDATED STATEMENTS OF INCOME', 306, y + 12)
    y += 40
    centred(doc, 'Three Months Ended', (COLUMNS[0] + COLUMNS[1]) / 2 - 12, y)
    centred(doc, 'Six Months Ended', (COLUMNS[2] + COLUMNS[3]) / 2 - 12, y)
    y += 12
    for (const [k, right] of COLUMNS.entries()) {
      rightAligned(doc, 'June 30,', right, y)
      rightAligned(doc, k % 2 === 0 ? '2024' : '2023', right, y + 10)
    }
    doc.fontSize(8).text('(in millions, except per share data)', LABEL_X, y + 11, { lineBreak: false })
    doc.fontSize(10)
    y += 26
  }
  for (const { row, dollars, indent } of ROWS.slice(0, options.rows ?? ROWS.length)) {
    const [label, ...figures] = row
    doc.text(label, LABEL_X + (indent ?? 0), y, { lineBreak: false })
    for (const [k, figure] of figures.entries()) {
      const right = COLUMNS[k] as number
      if (dollars) doc.text('$', right - DOLLAR_OFFSET, y, { lineBreak: false })
      rightAligned(doc, figure, right, y)
    }
    // A wrapped label's second line is set closer than the rows.
    y += figures.length === 0 && indent === 6 ? 9 : PITCH
  }
  doc.text('See the accompanying notes, which are an integral part of these statements.', LABEL_X, y + 30, {
    lineBreak: false,
  })
  doc.text(String(doc.bufferedPageRange().count), 300, 740, { lineBreak: false })
}

const TITLE = 'ACME CORPORATION CONDENSED CONSOLIDATED STATEMENTS OF INCOME'
const UNIT = '(in millions, except per share data)'
const HEADER = [
  '',
  'Three Months Ended June 30, 2024',
  'Three Months Ended June 30, 2023',
  'Six Months Ended June 30, 2024',
  'Six Months Ended June 30, 2023',
]
const TABLE_ROWS = [
  ['Revenues', '$1,250', '$1,100', '$2,480', '$2,150'],
  ['Costs and expenses:'],
  ['Cost of sales', '500', '460', '990', '905'],
  ['Research and development', '210', '190', '415', '380'],
  ['Other (income)/deductions—net', '(12)', '8', '(20)', '—'],
  ['Income from operations before provision for taxes on income', '552', '442', '1,095', '865'],
  ['Provision for taxes on income', '110', '90', '220', '175'],
  ['Net income', '$442', '$352', '$875', '$690'],
]

const mutoolInstalled = mutoolRuns()

describe.each([
  { source: 'pdf.js', mutool: null },
  { source: 'mutool', mutool: mutoolInstalled ? 'mutool' : undefined },
])('PDF tables ($source text layer)', ({ mutool }) => {
  if (mutool === undefined) return
  const parse = async (name: string, build: (doc: PDFKit.PDFDocument) => void): Promise<ParsedDocument> =>
    pdfParser.parse(inputFor(await file(name, await pdfOf(build)), PDF, { mutool }))

  it('reads a financial statement as one table with its title, unit and composed column headers', async () => {
    const doc = await parse('statement.pdf', (pdf) => statementPage(pdf))
    expect(doc.blocks.map((block) => block.kind)).toEqual(['paragraph', 'table', 'paragraph', 'paragraph'])
    const [before, table, after, pageNumber] = doc.blocks as [unknown, TableBlock, unknown, unknown]
    expect(before).toEqual({
      kind: 'paragraph',
      text: 'Revenue grew in both periods. Management reviews these results every quarter and explains the main changes in the discussion that follows the statement below.',
      page: 1,
    })
    expect(table.title).toBe(TITLE)
    expect(table.unit).toBe(UNIT)
    expect(table.header).toEqual(HEADER)
    expect(table.rows.map((row) => row.cells)).toEqual(TABLE_ROWS)
    expect(table.page).toBe(1)
    expect(after).toEqual({
      kind: 'paragraph',
      text: 'See the accompanying notes, which are an integral part of these statements.',
      page: 1,
    })
    expect(pageNumber).toEqual({ kind: 'paragraph', text: '1', page: 1 })
  })

  it('cuts the table into chunks that each carry the title, the unit and the headers, and whole rows', async () => {
    const doc = await parse('statement-chunks.pdf', (pdf) => statementPage(pdf))
    const context = { documentId: 'd', objectName: '/s.pdf', filename: 's.pdf', mimeType: PDF }
    const chunks = chunkDocument(doc, context, { chunkTokens: 150, overlapTokens: 10 })
    const tables = chunks.filter((chunk) => chunk.metadata.category === 'table')
    expect(tables.length).toBeGreaterThan(1)
    const shown: string[] = []
    for (const chunk of tables) {
      const [caption, header, ...rows] = chunk.text.split('\n')
      expect(caption).toBe(`${TITLE} ${UNIT}`)
      expect(header).toBe(HEADER.join(' | ').trimStart())
      expect(chunk.tokenCount).toBe(countTokens(chunk.text))
      expect(chunk.tokenCount).toBeLessThanOrEqual(150)
      expect(chunk.pageNumber).toBe('1')
      shown.push(...rows)
    }
    expect(shown).toEqual(TABLE_ROWS.map((cells) => cells.join(' | ')))
    const prose = chunks.filter((chunk) => chunk.metadata.category === 'text').map((chunk) => chunk.text)
    expect(prose.join('\n')).toContain('Revenue grew in both periods.')
    expect(prose.join('\n')).not.toContain('1,250')
  })

  it('gives the title, unit and header of a table that goes on at the top of the next page', async () => {
    const doc = await parse('continued.pdf', (pdf) => {
      statementPage(pdf, { rows: 5 })
      statementPage(pdf, { header: false })
    })
    const tables = doc.blocks.filter((block): block is TableBlock => block.kind === 'table')
    expect(tables.map((table) => [table.page, table.title, table.unit, table.header])).toEqual([
      [1, TITLE, UNIT, HEADER],
      [2, TITLE, UNIT, HEADER],
    ])
    expect(tables[1]?.rows[0]?.cells).toEqual(TABLE_ROWS[0])
  })

  it('leaves prose, a bullet list and a line with figures as paragraphs', async () => {
    const doc = await parse('prose.pdf', (pdf) => {
      pdf.addPage({ size: 'LETTER' })
      pdf.font('Helvetica').fontSize(10)
      pdf.text('Our business is subject to risks, including:', 72, 72, { lineBreak: false })
      const risks = ['changes in the demand for our products;', 'the loss of key suppliers; and', 'currency rates.']
      for (const [i, risk] of risks.entries()) {
        pdf.text('•', 80, 92 + i * 16, { lineBreak: false })
        pdf.text(risk, 100, 92 + i * 16, { lineBreak: false })
      }
      pdf.text('Total headcount at year end was 1,250 people, up from 1,100 a year before.', 72, 150, { width: 470 })
    })
    expect(doc.blocks.every((block) => block.kind === 'paragraph')).toBe(true)
    expect(doc.blocks.map((block) => ('text' in block ? block.text : ''))).toEqual([
      'Our business is subject to risks, including: • changes in the demand for our products; • the loss of key suppliers; and • currency rates.',
      'Total headcount at year end was 1,250 people, up from 1,100 a year before.',
    ])
  })
})

describe.skipIf(!mutoolInstalled)('PDF tables from both text layers', () => {
  it('are the same blocks with MuPDF and pdf.js', async () => {
    const path = await file(
      'both.pdf',
      await pdfOf((pdf) => {
        statementPage(pdf, { rows: 5 })
        statementPage(pdf, { header: false })
      }),
    )
    const fromPdfjs = await pdfParser.parse(inputFor(path, PDF))
    const fromMutool = await pdfParser.parse(inputFor(path, PDF, { mutool: 'mutool' }))
    expect(fromMutool.blocks).toEqual(fromPdfjs.blocks)
  })
})
