import { readFile } from 'node:fs/promises'
import { extname } from 'node:path'
import ExcelJS from 'exceljs'
import { describe, expect, it } from 'vitest'
import { IngestError } from '../../src/ingestion/errors.js'
import type { TableBlock } from '../../src/ingestion/model.js'
import { formatDate, formatNumber, spreadsheetParser } from '../../src/ingestion/parsers/spreadsheet.js'
import {
  filesWithExtensions,
  inputFor,
  LIMITS,
  plainRow,
  plainTable,
  realFilePass,
  robustnessDir,
  tempFiles,
  zipOf,
} from './text-formats-support.js'

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'
const ODS = 'application/vnd.oasis.opendocument.spreadsheet'
const file = tempFiles()

async function xlsxFixture(): Promise<string> {
  const wb = new ExcelJS.Workbook()
  const sales = wb.addWorksheet('Sales')
  sales.addRow(['Region', 'Amount', 'Date', 'Total', 'Paid'])
  sales.addRow(['North', 0.1 + 0.2, new Date(Date.UTC(2024, 2, 15)), { formula: 'B2*2', result: 0.6 }, true])
  sales.addRow([])
  sales.addRow([
    { richText: [{ text: 'So' }, { text: 'uth', font: { bold: true } }] },
    1234.5,
    new Date(Date.UTC(2024, 2, 16, 14, 30)),
    { formula: 'B4*2', result: 2469 },
    false,
  ])
  sales.getCell('C2').numFmt = 'yyyy-mm-dd'
  sales.getCell('C4').numFmt = 'yyyy-mm-dd hh:mm'
  sales.getCell('B4').numFmt = '#,##0.00'
  sales.getCell('F2').value = 0.125
  sales.getCell('F2').numFmt = '0.0%'
  const notes = wb.addWorksheet('Notes')
  notes.addRow(['Name', 'City'])
  notes.addRow(['Bob', 'Paris'])
  notes.addRow(['Alice', 'Rome or Milan'])
  const buffer = await wb.xlsx.writeBuffer()
  return file('book.xlsx', Buffer.from(buffer as ArrayBuffer))
}

const ODS_CONTENT = `<?xml version="1.0" encoding="UTF-8"?>
<office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0"
  xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0"
  xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" office:version="1.3">
<office:body><office:spreadsheet>
<table:table table:name="Budget">
<table:table-column table:number-columns-repeated="1024"/>
<table:table-row>
 <table:table-cell office:value-type="string"><text:p>Item</text:p></table:table-cell>
 <table:table-cell office:value-type="string"><text:p>Cost</text:p></table:table-cell>
 <table:table-cell office:value-type="string"><text:p>Due</text:p></table:table-cell>
 <table:table-cell office:value-type="string"><text:p>Share</text:p></table:table-cell>
 <table:table-cell office:value-type="string"><text:p>Paid</text:p></table:table-cell>
 <table:table-cell table:number-columns-repeated="16379"/>
</table:table-row>
<table:table-row>
 <table:table-cell office:value-type="string"><text:p>Rent<text:s text:c="2"/>&amp; bills</text:p><office:annotation><text:p>secret note</text:p></office:annotation></table:table-cell>
 <table:table-cell office:value-type="float" office:value="1234.5"><text:p>1 234,50</text:p></table:table-cell>
 <table:table-cell office:value-type="date" office:date-value="2024-03-15"><text:p>15/03/24</text:p></table:table-cell>
 <table:table-cell office:value-type="percentage" office:value="0.25"><text:p>25 %</text:p></table:table-cell>
 <table:table-cell office:value-type="boolean" office:boolean-value="true"><text:p>VRAI</text:p></table:table-cell>
</table:table-row>
<table:table-row table:number-rows-repeated="3"><table:table-cell table:number-columns-repeated="1024"/></table:table-row>
<table:table-row>
 <table:table-cell office:value-type="string"><text:p>Food</text:p></table:table-cell>
 <table:table-cell office:value-type="float" office:value="0.30000000000000004"><text:p>0.3</text:p></table:table-cell>
 <table:table-cell office:value-type="date" office:date-value="2024-03-16T14:30:00"/>
 <table:covered-table-cell table:number-columns-repeated="2"/>
 <table:table-cell table:number-columns-repeated="16379"/>
</table:table-row>
<table:table-row table:number-rows-repeated="1048570"><table:table-cell table:number-columns-repeated="16384"/></table:table-row>
</table:table>
<table:table table:name="Second">
 <table:table-row><table:table-cell/><table:table-cell office:value-type="string"><text:p>only text</text:p><text:p>two lines</text:p></table:table-cell></table:table-row>
</table:table>
</office:spreadsheet></office:body></office:document-content>`

function odsFixture(content = ODS_CONTENT): Buffer {
  return zipOf([
    { name: 'mimetype', content: ODS, store: true },
    { name: 'content.xml', content },
  ])
}

function tables(blocks: readonly unknown[]): TableBlock[] {
  return blocks as TableBlock[]
}

describe('spreadsheet parser: XLSX', () => {
  it('reads one table per sheet with displayed values, sheet row numbers and the header row', async () => {
    const progress: [number, number][] = []
    const doc = await spreadsheetParser.parse(
      inputFor(await xlsxFixture(), XLSX, { progress: (done, total) => progress.push([done, total]) }),
    )
    expect(doc.pageCount).toBe(2)
    expect(doc.documentType).toBe('text')
    const [sales, notes] = tables(doc.blocks)
    expect(doc.blocks).toHaveLength(2)
    expect(plainTable(sales)).toEqual({
      kind: 'table',
      sheet: 'Sales',
      header: ['Region', 'Amount', 'Date', 'Total', 'Paid', ''],
      rows: [
        { rowNumber: 2, cells: ['North', '0.3', '2024-03-15', '0.6', 'TRUE', '12.5%'] },
        // Row 3 is empty and skipped; row 4 keeps its sheet row number.
        { rowNumber: 4, cells: ['South', '1234.50', '2024-03-16 14:30', '2469', 'FALSE', ''] },
      ],
    })
    // All-text rows with no type difference: no header.
    expect(plainTable(notes)).toEqual({
      kind: 'table',
      sheet: 'Notes',
      header: null,
      rows: [
        { rowNumber: 1, cells: ['Name', 'City'] },
        { rowNumber: 2, cells: ['Bob', 'Paris'] },
        { rowNumber: 3, cells: ['Alice', 'Rome or Milan'] },
      ],
    })
    expect(progress.at(-1)).toEqual([2, 2])
  })

  it('streams a large sheet and keeps every row number', async () => {
    const wb = new ExcelJS.Workbook()
    const sheet = wb.addWorksheet('Big')
    sheet.addRow(['Id', 'Value'])
    for (let i = 1; i <= 5000; i++) sheet.addRow([i, i * 1.1])
    const path = await file('big.xlsx', Buffer.from((await wb.xlsx.writeBuffer()) as ArrayBuffer))
    const [big] = tables((await spreadsheetParser.parse(inputFor(path, XLSX))).blocks)
    expect(big?.header).toEqual(['Id', 'Value'])
    expect(big?.rows).toHaveLength(5000)
    expect(plainRow(big?.rows[4999])).toEqual({ rowNumber: 5001, cells: ['5000', '5500'] })
    expect(plainRow(big?.rows[2])).toEqual({ rowNumber: 4, cells: ['3', '3.3'] })
  })

  it('reads the shared strings stored after the worksheets, every time, and keeps long non-ASCII text whole', async () => {
    // LibreOffice stores xl/sharedStrings.xml after the worksheets. exceljs's one-pass reader missed
    // that part in about one read in ten, and decoded each chunk alone, splitting characters.
    const long = 'Grüße aus Köln, ½ € — 東京 '.repeat(4000)
    const ns = 'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"'
    const rel = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships'
    const bytes = zipOf([
      {
        name: '[Content_Types].xml',
        content: `<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="xml" ContentType="application/xml"/></Types>`,
      },
      {
        name: 'xl/workbook.xml',
        content: `<workbook ${ns} xmlns:r="${rel}"><sheets><sheet name="Städte" sheetId="1" r:id="rId1"/></sheets></workbook>`,
      },
      {
        name: 'xl/worksheets/sheet1.xml',
        content: `<worksheet ${ns}><sheetData><row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c></row><row r="2"><c r="A2" t="s"><v>2</v></c><c r="B2"><v>42</v></c></row></sheetData></worksheet>`,
      },
      {
        name: 'xl/_rels/workbook.xml.rels',
        content: `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${rel}/worksheet" Target="worksheets/sheet1.xml"/></Relationships>`,
      },
      {
        name: 'xl/sharedStrings.xml',
        content: `<sst ${ns}><si><t>Stadt</t></si><si><t>Einwohner</t></si><si><t>${long}</t></si></sst>`,
      },
    ])
    const path = await file('libreoffice-order.xlsx', bytes)
    for (let read = 0; read < 40; read++) {
      const [sheet] = tables((await spreadsheetParser.parse(inputFor(path, XLSX))).blocks)
      expect(sheet?.sheet).toBe('Städte')
      expect(sheet?.header, `read ${read}`).toEqual(['Stadt', 'Einwohner'])
      expect(sheet?.rows[0]?.cells[0] === long, `read ${read}`).toBe(true)
    }
  })

  it('formats numbers and dates as a spreadsheet shows them', () => {
    expect(formatNumber(0.1 + 0.2)).toBe('0.3')
    expect(formatNumber(1 / 3)).toBe('0.333333333333333')
    expect(formatNumber(1234.5, '#,##0.00')).toBe('1234.50')
    expect(formatNumber(0.25, '0%')).toBe('25%')
    expect(formatNumber(198356388, '0.00E+00')).toBe('1.98E+08')
    expect(formatNumber(7.6, '0')).toBe('8')
    expect(formatNumber(Number.NaN)).toBe('')
    expect(formatDate(new Date(Date.UTC(2024, 0, 5)))).toBe('2024-01-05')
    expect(formatDate(new Date(Date.UTC(2024, 0, 5, 9, 3, 7)))).toBe('2024-01-05 09:03:07')
    expect(formatDate(new Date(Date.UTC(1899, 11, 30, 14, 30)))).toBe('14:30')
  })

  it('checks the archive with the zip guard before opening it', async () => {
    const path = await xlsxFixture()
    const error = await spreadsheetParser
      .parse(inputFor(path, XLSX, { limits: { ...LIMITS, maxZipEntries: 2 } }))
      .catch((e: unknown) => e)
    expect(error).toBeInstanceOf(IngestError)
    expect((error as IngestError).permanent).toBe(true)
    expect((error as IngestError).message).toMatch(/^limit exceeded: .*entries/)
  })

  it('rejects truncated, non-zip and password-protected files with a permanent IngestError', async () => {
    const whole = await readFile(await xlsxFixture())
    const cases: [string, Buffer, RegExp][] = [
      ['truncated.xlsx', whole.subarray(0, Math.floor(whole.length / 2)), /damaged or truncated/],
      ['garbage.xlsx', Buffer.from('this is not a zip archive at all'), /damaged or truncated/],
      [
        'protected.xlsx',
        Buffer.concat([Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]), Buffer.alloc(512)]),
        /password-protected/,
      ],
    ]
    for (const [name, bytes, message] of cases) {
      const error = await spreadsheetParser.parse(inputFor(await file(name, bytes), XLSX)).catch((e: unknown) => e)
      expect(error, name).toBeInstanceOf(IngestError)
      expect((error as IngestError).permanent, name).toBe(true)
      expect((error as IngestError).message, name).toMatch(message)
    }
  })

  it('fails (never hangs) on an archive whose compressed data is corrupt', async () => {
    const wb = new ExcelJS.Workbook()
    wb.created = new Date(Date.UTC(2024, 0, 1))
    wb.modified = wb.created
    const sheet = wb.addWorksheet('Data')
    let seed = 42
    const random = (): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648
      return seed / 2147483648
    }
    for (let i = 0; i < 2000; i++) sheet.addRow([i, `text ${i} ${random()}`])
    const whole = Buffer.from((await wb.xlsx.writeBuffer()) as ArrayBuffer)
    // Without the inflate check, exceljs's unzip stalls forever on 0.5 and 0.6.
    for (const at of [0.3, 0.5, 0.6]) {
      const bytes = Buffer.from(whole)
      const start = Math.floor(bytes.length * at)
      for (let i = start; i < start + 200; i++) bytes[i] = (bytes[i] as number) ^ 0x5a
      const path = await file(`corrupt-${at}.xlsx`, bytes)
      const error = await spreadsheetParser.parse(inputFor(path, XLSX)).catch((e: unknown) => e)
      expect(error, String(at)).toBeInstanceOf(IngestError)
      expect((error as IngestError).permanent).toBe(true)
      expect((error as IngestError).message).toMatch(/^the XLSX file is damaged or truncated/)
    }
  }, 15_000)
})

describe('spreadsheet parser: ODS', () => {
  it('reads content.xml as a stream: typed values, repeats, covered cells, annotations dropped', async () => {
    const doc = await spreadsheetParser.parse(inputFor(await file('budget.ods', odsFixture()), ODS))
    expect(doc.pageCount).toBe(2)
    const [budget, second] = tables(doc.blocks)
    expect(plainTable(budget)).toEqual({
      kind: 'table',
      sheet: 'Budget',
      header: ['Item', 'Cost', 'Due', 'Share', 'Paid'],
      rows: [
        { rowNumber: 2, cells: ['Rent  & bills', '1234.5', '2024-03-15', '25%', 'TRUE'] },
        { rowNumber: 6, cells: ['Food', '0.3', '2024-03-16 14:30', '', ''] },
      ],
    })
    // The leading empty column is dropped; paragraphs of one cell are lines.
    expect(plainTable(second)).toEqual({
      kind: 'table',
      sheet: 'Second',
      header: null,
      rows: [{ rowNumber: 1, cells: ['only text\ntwo lines'] }],
    })
    expect(JSON.stringify(doc)).not.toContain('secret note')
  })

  it('fails cleanly without content.xml, and on a sheet-count breach', async () => {
    const missing = zipOf([{ name: 'mimetype', content: ODS, store: true }])
    const error = await spreadsheetParser
      .parse(inputFor(await file('empty.ods', missing), ODS))
      .catch((e: unknown) => e)
    expect(error).toBeInstanceOf(IngestError)
    expect((error as IngestError).message).toMatch(/content\.xml is missing/)

    const many = ODS_CONTENT.replace(
      '<table:table table:name="Second">',
      '<table:table table:name="Third"></table:table><table:table table:name="Second">',
    )
    const limited = await spreadsheetParser
      .parse(inputFor(await file('many.ods', odsFixture(many)), ODS, { limits: { ...LIMITS, maxPages: 2 } }))
      .catch((e: unknown) => e)
    expect(limited).toBeInstanceOf(IngestError)
    expect((limited as IngestError).message).toMatch(/^limit exceeded: .*more than 2 sheets/)
  })
})

describe('spreadsheet parser: real files', () => {
  const dir = robustnessDir()
  it.skipIf(!dir)('parses every xlsx/ods in the robustness corpus or rejects it with an IngestError', async () => {
    const files = filesWithExtensions(dir as string, ['xlsx', 'ods'])
    expect(files.length).toBeGreaterThan(5)
    const { parsed, rejected } = await realFilePass(spreadsheetParser, files, (path) =>
      extname(path) === '.ods' ? ODS : XLSX,
    )
    // Only the two password-protected workbooks are expected to fail.
    expect(rejected.every((line) => /password-protected/.test(line))).toBe(true)
    expect(parsed).toBe(files.length - rejected.length)
  })
})
