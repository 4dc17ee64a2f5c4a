import { describe, expect, it } from 'vitest'
import { chunkDocument } from '../../src/ingestion/chunking/chunker.js'
import type { ChunkingContext } from '../../src/ingestion/chunking/chunking-options.js'
import { countTokens } from '../../src/ingestion/chunking/tokens.js'
import type { Block, ParsedDocument, TableBlock } from '../../src/ingestion/model.js'
import type { ChunkDraft } from '../../src/ingestion/pipeline/pipeline-types.js'

const CONTEXT: ChunkingContext = {
  documentId: 'doc-1',
  objectName: '/hr/leave.pdf',
  filename: 'leave.pdf',
  mimeType: 'application/pdf',
}

function doc(blocks: Block[], extra: Partial<ParsedDocument> = {}): ParsedDocument {
  return { blocks, pageCount: 1, documentType: 'text', ...extra }
}

/** `count` distinct sentences of about 12 tokens each. */
function sentencesText(count: number, topic = 'annual leave', from = 0): string {
  return Array.from(
    { length: count },
    (_, i) => `Sentence ${from + i} explains a rule about ${topic} and how managers approve it.`,
  ).join(' ')
}

function paragraph(text: string, page?: number): Block {
  return page === undefined ? { kind: 'paragraph', text } : { kind: 'paragraph', text, page }
}

function heading(level: number, text: string, page?: number): Block {
  return page === undefined ? { kind: 'heading', level, text } : { kind: 'heading', level, text, page }
}

function expectWithinBudget(chunks: readonly ChunkDraft[], budget: number): void {
  expect(chunks.length).toBeGreaterThan(0)
  chunks.forEach((chunk, index) => {
    expect(chunk.idx).toBe(index)
    expect(chunk.metadata.idx).toBe(index)
    expect(chunk.tokenCount).toBe(countTokens(chunk.text))
    expect(chunk.tokenCount).toBeLessThanOrEqual(budget)
    expect(chunk.text.trim()).not.toBe('')
  })
}

describe('chunkDocument: prose', () => {
  it('keeps every chunk within the token budget and loses no sentence', () => {
    const text = sentencesText(300)
    const chunks = chunkDocument(doc([paragraph(text)]), CONTEXT, { chunkTokens: 120, overlapTokens: 20 })
    expectWithinBudget(chunks, 120)
    expect(chunks.length).toBeGreaterThan(25)
    const joined = chunks.map((chunk) => chunk.text).join(' ')
    for (const i of [0, 1, 57, 150, 299]) expect(joined).toContain(`Sentence ${i} explains`)
  })

  it('cuts sentences, words and runs longer than the budget', () => {
    const endless = Array.from({ length: 2000 }, (_, i) => `word${i}`).join(' ')
    const blob = 'QUJDRE'.repeat(3000)
    const special = 'Text with <|endoftext|> and <|fim_prefix|> markers inside.'
    const hostile: Block[] = [
      heading(1, 'H'.repeat(20_000)),
      paragraph(endless),
      paragraph(blob),
      paragraph(special),
      paragraph('東京都に住んでいます'.repeat(200)),
      { kind: 'table', header: ['x'.repeat(5000)], rows: [{ rowNumber: 1, cells: ['y'.repeat(20_000), 'z'] }] },
    ]
    const chunks = chunkDocument(doc(hostile), CONTEXT, { chunkTokens: 64, overlapTokens: 8 })
    expectWithinBudget(chunks, 64)
    expect(chunks.map((chunk) => chunk.text).join('')).toContain('word1999')
    expect(chunks.some((chunk) => chunk.text.includes('<|endoftext|>'))).toBe(true)
  })

  it('prefixes the heading path and never joins two top-level sections', () => {
    const chunks = chunkDocument(
      doc([
        heading(1, 'Leave policy'),
        heading(2, 'Annual leave'),
        paragraph('Employees get 25 days of annual leave.'),
        heading(2, 'Sick leave'),
        paragraph('Sick leave needs a certificate after three days.'),
        heading(3, 'Long illness'),
        paragraph('After six weeks, insurance pays.'),
      ]),
      CONTEXT,
      { chunkTokens: 400, overlapTokens: 40 },
    )
    expectWithinBudget(chunks, 400)
    expect(chunks.map((chunk) => chunk.text)).toEqual([
      'Leave policy > Annual leave\nEmployees get 25 days of annual leave.',
      // A short sub-section stays with its parent, its heading as a line.
      'Leave policy > Sick leave\nSick leave needs a certificate after three days.\nLong illness\nAfter six weeks, insurance pays.',
    ])
    expect(chunks.map((chunk) => chunk.metadata.category)).toEqual(['text', 'text'])
  })

  it('repeats the end of a chunk at the start of the next one in the same section', () => {
    const chunks = chunkDocument(
      doc([
        heading(1, 'Rules'),
        paragraph(sentencesText(40)),
        heading(1, 'Other'),
        paragraph(sentencesText(40, 'travel')),
      ]),
      CONTEXT,
      { chunkTokens: 100, overlapTokens: 30 },
    )
    expectWithinBudget(chunks, 100)
    const bodies = chunks.map((chunk) => ({
      section: chunk.text.split('\n')[0],
      body: chunk.text.slice(chunk.text.indexOf('\n') + 1),
    }))
    let overlaps = 0
    for (let i = 1; i < bodies.length; i++) {
      const previous = bodies[i - 1]
      const current = bodies[i]
      if (!previous || !current) continue
      if (previous.section === current.section) {
        // The next chunk starts with whole sentences that end the previous one, within the overlap.
        const leading = current.body.split(/(?<=\.) /)
        const shared = [1, 2, 3]
          .map((k) => leading.slice(0, k).join(' '))
          .filter((text) => previous.body.endsWith(text))
        expect(shared.length).toBeGreaterThan(0)
        expect(countTokens(shared.at(-1) ?? '')).toBeLessThanOrEqual(30)
        overlaps++
      } else {
        // No overlap across sections.
        expect(current.body.startsWith('Sentence 0 explains a rule about travel')).toBe(true)
      }
    }
    expect(overlaps).toBeGreaterThan(5)
  })

  it('makes a title chunk of a heading with nothing under it', () => {
    const chunks = chunkDocument(
      doc([heading(1, 'Handbook', 1), heading(1, 'Contacts', 2), paragraph('Call HR.', 2)]),
      CONTEXT,
    )
    expect(chunks.map((chunk) => [chunk.text, chunk.metadata.category, chunk.pageNumber])).toEqual([
      ['Handbook', 'title', '1'],
      ['Contacts\nCall HR.', 'text', '2'],
    ])
  })

  it('heads the chunks of the ten pages after a heading, not the pages beyond them', () => {
    const pages = Array.from({ length: 14 }, (_, i) => i + 1)
    const chunks = chunkDocument(
      doc(
        [
          heading(1, 'Exhibit 10.4 Severance plan', 1),
          ...pages.map((page) => paragraph(sentencesText(12, `page ${page}`), page)),
          heading(1, 'Consolidated balance sheets', 15),
          paragraph(sentencesText(12, 'page 15'), 15),
        ],
        { pageCount: 15 },
      ),
      CONTEXT,
      { chunkTokens: 400, overlapTokens: 40 },
    )
    const headed = (text: string) => chunks.filter((chunk) => chunk.text.startsWith(`${text}\n`))
    expect(headed('Exhibit 10.4 Severance plan').map((chunk) => chunk.pageNumber)).toEqual(
      pages.slice(0, 11).map(String),
    )
    expect(headed('Consolidated balance sheets').map((chunk) => chunk.pageNumber)).toEqual(['15'])
    // Beyond its reach the prose stands alone.
    expect(chunks.find((chunk) => chunk.pageNumber === '12')?.text).toMatch(/^Sentence 0 explains a rule about page 12/)
  })

  it('keeps a chunk within its page, and gives a range when a small one spans pages', () => {
    const chunks = chunkDocument(
      doc(
        [
          paragraph(sentencesText(12, 'page one'), 1),
          paragraph(sentencesText(12, 'page two'), 2),
          paragraph('A short tail on page three.', 3),
          paragraph('It continues on page four.', 4),
        ],
        { pageCount: 4 },
      ),
      CONTEXT,
      { chunkTokens: 400, overlapTokens: 40 },
    )
    expect(chunks.map((chunk) => chunk.pageNumber)).toEqual(['1', '2', '3-4'])
    expect(chunks.map((chunk) => chunk.metadata.page_number)).toEqual(['1', '2', '3-4'])
    expect(chunks[2]?.text).toBe('A short tail on page three.\nIt continues on page four.')
  })

  it('gives text chunks exactly the spec 2.9 metadata', () => {
    const [pdf] = chunkDocument(doc([paragraph('Hello.', 7)]), CONTEXT)
    expect(pdf?.metadata).toEqual({
      document_type: 'text',
      filename: 'leave.pdf',
      filetype: 'application/pdf',
      category: 'text',
      idx: 0,
      page_number: '7',
      source: '/hr/leave.pdf',
      academy_file: false,
      lantern_document_id: 'doc-1',
    })
    // No pages in the format: no page_number at all.
    const [text] = chunkDocument(doc([paragraph('Hello.')]), { ...CONTEXT, mimeType: 'text/plain' })
    expect(text?.pageNumber).toBeNull()
    expect(text?.rowIdx).toBeNull()
    expect(Object.keys(text?.metadata ?? {})).toEqual([
      'document_type',
      'filename',
      'filetype',
      'category',
      'idx',
      'source',
      'academy_file',
      'lantern_document_id',
    ])
  })

  it('returns no chunks for a document without text', () => {
    expect(chunkDocument(doc([paragraph('  \n '), { kind: 'image', imageId: 'i1', text: ' ' }]), CONTEXT)).toEqual([])
  })

  it('handles a large document in one pass', () => {
    const blocks: Block[] = []
    for (let page = 1; page <= 500; page++) {
      blocks.push(heading(2, `Article ${page}`, page))
      for (let p = 0; p < 4; p++) blocks.push(paragraph(sentencesText(5, `topic ${page}`, p * 5), page))
    }
    const chunks = chunkDocument(doc(blocks, { pageCount: 500 }), CONTEXT)
    expectWithinBudget(chunks, 400)
    expect(chunks.length).toBeGreaterThanOrEqual(500)
    expect(chunks.at(-1)?.pageNumber).toBe('500')
  })
})

describe('chunkDocument: tables', () => {
  function table(rows: number, extra: Partial<TableBlock> = {}): TableBlock {
    return {
      kind: 'table',
      header: ['Region', 'Quarter', 'Amount'],
      rows: Array.from({ length: rows }, (_, i) => ({
        rowNumber: i + 2,
        cells: [`Region ${i}`, `Q${(i % 4) + 1}`, String(i * 100)],
      })),
      ...extra,
    }
  }

  it('groups rows to the budget with the header at the top of every chunk', () => {
    const chunks = chunkDocument(doc([table(200, { sheet: 'Sales' })]), CONTEXT, {
      chunkTokens: 100,
      overlapTokens: 20,
    })
    expectWithinBudget(chunks, 100)
    expect(chunks.length).toBeGreaterThan(5)
    let nextRow = 2
    for (const chunk of chunks) {
      const lines = chunk.text.split('\n')
      // The sheet name (no headings here), then the header row.
      expect(lines[0]).toBe('Sales')
      expect(lines[1]).toBe('Region | Quarter | Amount')
      expect(lines[2]).toBe(`Region ${nextRow - 2} | Q${((nextRow - 2) % 4) + 1} | ${(nextRow - 2) * 100}`)
      const last = nextRow + lines.length - 3
      expect(chunk.rowIdx).toBe(`${nextRow}-${last}`)
      expect(chunk.pageNumber).toBe(`Sales!${nextRow}-${last}`)
      expect(chunk.metadata).toMatchObject({ category: 'table', row: nextRow, page_number: `Sales!${nextRow}-${last}` })
      nextRow = last + 1
    }
    expect(nextRow).toBe(202)
  })

  it('gives csv-like tables rows but no page, and single rows as "12"', () => {
    const chunks = chunkDocument(doc([{ kind: 'table', header: null, rows: [{ rowNumber: 12, cells: ['a', 'b'] }] }]), {
      ...CONTEXT,
      mimeType: 'text/csv',
    })
    expect(chunks).toHaveLength(1)
    expect(chunks[0]?.text).toBe('a | b')
    expect(chunks[0]?.rowIdx).toBe('12')
    expect(chunks[0]?.pageNumber).toBeNull()
    expect(chunks[0]?.metadata).toMatchObject({ category: 'table', row: 12 })
    expect(chunks[0]?.metadata).not.toHaveProperty('page_number')
  })

  it('keeps tables apart from prose, under the heading path, with the page of a pdf table', () => {
    const chunks = chunkDocument(
      doc([heading(1, 'Budget', 3), paragraph('The table below lists spending.', 3), { ...table(3), page: 3 }]),
      CONTEXT,
    )
    expect(chunks.map((chunk) => [chunk.metadata.category, chunk.pageNumber, chunk.rowIdx])).toEqual([
      ['text', '3', null],
      ['table', '3', '2-4'],
    ])
    expect(chunks[1]?.text).toBe(
      'Budget\nRegion | Quarter | Amount\nRegion 0 | Q1 | 0\nRegion 1 | Q2 | 100\nRegion 2 | Q3 | 200',
    )
  })

  it('starts every chunk with the heading path, the title and unit on one line, and the header', () => {
    const titled = { ...table(60), title: 'Segment results', unit: '(in millions)', page: 4 }
    const chunks = chunkDocument(doc([heading(1, 'Results of operations', 4), titled]), CONTEXT, {
      chunkTokens: 100,
      overlapTokens: 10,
    })
    expectWithinBudget(chunks, 100)
    expect(chunks.length).toBeGreaterThan(3)
    const rows: string[] = []
    for (const chunk of chunks) {
      const [path, caption, header, ...rest] = chunk.text.split('\n')
      expect([path, caption, header]).toEqual([
        'Results of operations',
        'Segment results (in millions)',
        'Region | Quarter | Amount',
      ])
      expect(chunk.metadata).toMatchObject({ category: 'table', page_number: '4' })
      rows.push(...rest)
    }
    expect(rows).toEqual(titled.rows.map((row) => row.cells.join(' | ')))
  })

  it('cuts a long title and header to half the budget together, never a row', () => {
    const long = sentencesText(20, 'segment reporting')
    const header = Array.from({ length: 30 }, (_, i) => `Quarter ${i + 1} of the fiscal year`)
    const rows = Array.from({ length: 12 }, (_, i) => ({ rowNumber: i + 2, cells: [`Line ${i}`, String(i * 7)] }))
    const chunks = chunkDocument(doc([{ kind: 'table', title: long, unit: '(in thousands)', header, rows }]), CONTEXT, {
      chunkTokens: 120,
      overlapTokens: 0,
    })
    expectWithinBudget(chunks, 120)
    const shown: string[] = []
    for (const chunk of chunks) {
      const [caption, head, ...rest] = chunk.text.split('\n')
      expect(countTokens(`${caption}\n${head}`)).toBeLessThanOrEqual(61)
      expect(long.startsWith((caption as string).slice(0, 40))).toBe(true)
      expect(head?.startsWith('Quarter 1 of the fiscal year | Quarter 2')).toBe(true)
      shown.push(...rest)
    }
    expect(shown).toEqual(rows.map((row) => row.cells.join(' | ')))
  })

  it('does not repeat a title the heading path ends with, and shows a unit without a title', () => {
    const chunks = chunkDocument(
      doc([
        heading(1, 'Balance sheet', 2),
        { ...table(2), title: 'Balance sheet', unit: '(in thousands)', page: 2 },
        { ...table(2), unit: '(in millions)', header: null, page: 2 },
      ]),
      CONTEXT,
    )
    expect(chunks.map((chunk) => chunk.text)).toEqual([
      'Balance sheet\n(in thousands)\nRegion | Quarter | Amount\nRegion 0 | Q1 | 0\nRegion 1 | Q2 | 100',
      'Balance sheet\n(in millions)\nRegion 0 | Q1 | 0\nRegion 1 | Q2 | 100',
    ])
  })

  it('cuts a row longer than the budget, repeating the header on each piece', () => {
    const long = sentencesText(30)
    const chunks = chunkDocument(
      doc([{ kind: 'table', header: ['Note'], rows: [{ rowNumber: 5, cells: [long] }] }]),
      CONTEXT,
      { chunkTokens: 80, overlapTokens: 0 },
    )
    expectWithinBudget(chunks, 80)
    expect(chunks.length).toBeGreaterThan(3)
    for (const chunk of chunks) {
      expect(chunk.text.startsWith('Note\n')).toBe(true)
      expect(chunk.rowIdx).toBe('5')
    }
  })
})

describe('chunkDocument: images', () => {
  it('puts OCR text in chunks of its own with image_id, after the prose around it', () => {
    const chunks = chunkDocument(
      doc([
        heading(1, 'Forms', 2),
        paragraph('Before the scan.', 2),
        { kind: 'image', imageId: 'p2-img1', text: 'Application form: name, date, signature.', page: 2 },
        paragraph('After the scan.', 2),
      ]),
      CONTEXT,
    )
    expect(chunks.map((chunk) => [chunk.text, chunk.metadata.category, chunk.metadata.image_id])).toEqual([
      ['Forms\nBefore the scan.\nAfter the scan.', 'text', undefined],
      ['Forms\nApplication form: name, date, signature.', 'image', 'p2-img1'],
    ])
    expect(chunks[1]?.metadata).toEqual({
      document_type: 'text',
      filename: 'leave.pdf',
      filetype: 'application/pdf',
      category: 'image',
      idx: 1,
      page_number: '2',
      image_id: 'p2-img1',
      source: '/hr/leave.pdf',
      academy_file: false,
      lantern_document_id: 'doc-1',
    })
  })

  it('cuts long OCR text to the budget, each piece keeping the image id', () => {
    const chunks = chunkDocument(
      doc([{ kind: 'image', imageId: 'scan', text: sentencesText(40) }], { documentType: 'image' }),
      { ...CONTEXT, mimeType: 'image/png' },
      { chunkTokens: 100, overlapTokens: 10 },
    )
    expectWithinBudget(chunks, 100)
    expect(chunks.length).toBeGreaterThan(3)
    for (const chunk of chunks) {
      expect(chunk.metadata).toMatchObject({ category: 'image', image_id: 'scan', document_type: 'image' })
    }
  })
})
