import { extname } from 'node:path'
import iconv from 'iconv-lite'
import { describe, expect, it } from 'vitest'
import { IngestError } from '../../src/ingestion/errors.js'
import type { ParseOptions, TableBlock } from '../../src/ingestion/model.js'
import { csvParser, detectDelimiter } from '../../src/ingestion/parsers/csv.js'
import {
  filesWithExtensions,
  inputFor,
  plainRow,
  plainTable,
  realFilePass,
  robustnessDir,
  tempFiles,
} from './text-formats-support.js'

const CSV = 'text/csv'
const TSV = 'text/tab-separated-values'
const file = tempFiles()

const OPTIONS = (csvDelimiter: ParseOptions['csvDelimiter']): ParseOptions => ({
  loaderType: 'STANDARD',
  csvDelimiter,
  imageMinSizeRatio: 0.1,
})

async function parseTable(path: string, mimeType = CSV, csvDelimiter: ParseOptions['csvDelimiter'] = null) {
  const doc = await csvParser.parse(inputFor(path, mimeType, { options: OPTIONS(csvDelimiter) }))
  expect(doc.pageCount).toBe(1)
  expect(doc.blocks.length).toBeLessThanOrEqual(1)
  return doc.blocks[0] as TableBlock
}

/** Header (when any) and rows, as cell lists. */
const cellsOf = (table: TableBlock): (readonly string[])[] => [
  ...(table.header ? [table.header] : []),
  ...table.rows.map((row) => row.cells),
]

const FRENCH = [
  'Produit;Prix;Date;Commentaire',
  'Café;1,50;2024-03-15;"Très bon; vraiment"',
  'Crème brûlée;12,75;2024-03-16;"sur',
  'deux lignes"',
  '',
  'Thé;3,00;2024-03-17;"dit ""parfait"" à 20 €"',
].join('\r\n')

describe('csv parser', () => {
  it('reads a windows-1252 CSV: semicolons detected, quotes, embedded newlines, decimal commas, header', async () => {
    const path = await file('prix.csv', iconv.encode(FRENCH, 'windows-1252'))
    const table = await parseTable(path)
    expect(plainTable(table)).toEqual({
      kind: 'table',
      header: ['Produit', 'Prix', 'Date', 'Commentaire'],
      rows: [
        { rowNumber: 2, cells: ['Café', '1,50', '2024-03-15', 'Très bon; vraiment'] },
        { rowNumber: 3, cells: ['Crème brûlée', '12,75', '2024-03-16', 'sur\ndeux lignes'] },
        // The blank line is row 4 (as a spreadsheet shows the file) and is skipped.
        { rowNumber: 5, cells: ['Thé', '3,00', '2024-03-17', 'dit "parfait" à 20 €'] },
      ],
    })
    expect('sheet' in table).toBe(false)
  })

  it('honours csv_delimiter over detection, and reads TSV with tabs', async () => {
    const path = await file('mixed.csv', 'a,b;c\n1,2;3\n')
    expect(cellsOf(await parseTable(path, CSV, 'semicolon'))).toEqual([
      ['a,b', 'c'],
      ['1,2', '3'],
    ])
    expect(cellsOf(await parseTable(path, CSV, 'comma'))).toEqual([
      ['a', 'b;c'],
      ['1', '2;3'],
    ])
    const tabbed = await file('tabbed.csv', 'x\ty,z\n1\t2\n')
    expect(cellsOf(await parseTable(tabbed, CSV, 'tab'))).toEqual([
      ['x', 'y,z'],
      ['1', '2'],
    ])

    const tsv = await file('people.tsv', 'name\tage, years\nBob, Jr\t42\nAnn\t37\n')
    const table = await parseTable(tsv, TSV)
    expect(table.header).toEqual(['name', 'age, years'])
    expect(plainTable(table)?.rows).toEqual([
      { rowNumber: 2, cells: ['Bob, Jr', '42'] },
      { rowNumber: 3, cells: ['Ann', '37'] },
    ])
  })

  it('detects the delimiter from the most consistent count outside quotes', () => {
    expect(detectDelimiter('a|b|c\n1|2|3\n4|5|6\n', true)).toBe('|')
    expect(detectDelimiter('a\tb\n1\t2\n', true)).toBe('\t')
    expect(detectDelimiter('name,note\nx,"a;b;c"\ny,"d;e"\n', true)).toBe(',')
    expect(detectDelimiter('a;b\n"1,5";2,5\n3;4,5\n', true)).toBe(';')
    expect(detectDelimiter('just one column\nanother\n', true)).toBe(',')
    expect(detectDelimiter('', true)).toBe(',')
    // A cut last record is not counted.
    expect(detectDelimiter('a;b;c\n1;2;3\n4,5,6,7,8,9', false)).toBe(';')
  })

  it('has no header when the first row does not differ in type from the rest', async () => {
    const table = await parseTable(await file('names.csv', 'Name,City\nBob,Paris\nAlice,Rome or Milan\n'))
    expect(table.header).toBeNull()
    expect(table.rows.map((row) => row.rowNumber)).toEqual([1, 2, 3])
  })

  it('reads UTF-16LE with a BOM, and pads ragged rows', async () => {
    const bytes = Buffer.concat([
      Buffer.from([0xff, 0xfe]),
      iconv.encode('Größe,Wert\nklein,1\nmittel,2,extra\n', 'utf-16le'),
    ])
    const table = await parseTable(await file('utf16.csv', bytes))
    expect(table.header).toEqual(['Größe', 'Wert', ''])
    expect(plainTable(table)?.rows).toEqual([
      { rowNumber: 2, cells: ['klein', '1', ''] },
      { rowNumber: 3, cells: ['mittel', '2', 'extra'] },
    ])
  })

  it('streams a large file row by row', async () => {
    const lines = ['id,amount,label']
    for (let i = 1; i <= 100_000; i++) lines.push(`${i},${(i / 100).toFixed(2)},item ${i}`)
    const table = await parseTable(await file('big.csv', lines.join('\n')))
    expect(table.header).toEqual(['id', 'amount', 'label'])
    expect(table.rows).toHaveLength(100_000)
    expect(plainRow(table.rows[99_999])).toEqual({ rowNumber: 100_001, cells: ['100000', '1000.00', 'item 100000'] })
  })

  it('returns no block for an empty file, and a permanent IngestError for an unclosed quote', async () => {
    const empty = await csvParser.parse(inputFor(await file('empty.csv', ''), CSV))
    expect(empty).toEqual({ blocks: [], pageCount: 1, documentType: 'text' })
    const error = await csvParser
      .parse(inputFor(await file('bad.csv', 'a,b\n1,"never closed\n2,3\n'), CSV))
      .catch((e: unknown) => e)
    expect(error).toBeInstanceOf(IngestError)
    expect((error as IngestError).permanent).toBe(true)
    expect((error as IngestError).message).toMatch(/^the CSV file is damaged or truncated: .*quote/i)
  })

  const dir = robustnessDir()
  it.skipIf(!dir)('parses every csv/tsv in the robustness corpus or rejects it with an IngestError', async () => {
    const files = filesWithExtensions(dir as string, ['csv', 'tsv'])
    expect(files.length).toBeGreaterThan(5)
    const { parsed, rejected } = await realFilePass(csvParser, files, (path) => (extname(path) === '.tsv' ? TSV : CSV))
    expect(rejected).toEqual([])
    expect(parsed).toBe(files.length)
  })
})
