import { execFileSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { hasBlankLines } from '../../src/data-analysis/raw-sources.js'
import { Sandbox } from '../../src/data-analysis/sandbox.js'
import type { LoadedDocument } from '../../src/data-analysis/table-cache.js'
import type { TableBlock } from '../../src/ingestion/model.js'
import { csvParser } from '../../src/ingestion/parsers/csv.js'
import { XLS, XLSB } from '../../src/ingestion/parsers/formats.js'
import { libreOfficeRuns } from '../../src/ingestion/parsers/libreoffice.js'
import { spreadsheetParser } from '../../src/ingestion/parsers/spreadsheet.js'
import { inputFor, zipOf } from '../ingestion/text-formats-support.js'
import { SALES_AND_STAFF, xlsbOf } from '../support/xlsb.js'
import { ODS, SANDBOX_LIMITS, tableWorld, twoSheetWorkbook, XLSX } from './support.js'

const world = tableWorld()
afterAll(() => world.close())

async function rows(loaded: LoadedDocument, sql: string, table = 0) {
  const target = loaded.tables[table]
  if (!target) throw new Error('no such table')
  const sandbox = await Sandbox.open([{ sqlName: 't1', file: loaded.file, table: target.table }], SANDBOX_LIMITS)
  try {
    const result = await sandbox.query(sql)
    return result.rows.map((row) => Object.fromEntries(result.columns.map((c, i) => [c, row[i]])))
  } finally {
    sandbox.close()
  }
}

function column(loaded: LoadedDocument, name: string, table = 0) {
  const found = loaded.tables[table]?.columns.find((c) => c.name === name)
  if (!found) throw new Error(`no column ${name}`)
  return found
}

describe('loading tables for data analysis', () => {
  it('types a French CSV: thousands separators, decimal commas, %, currency, day-first dates, booleans, empty cells', async () => {
    const csv = [
      'Client;Montant;Part;Prix;Date;Payé;Note',
      'Alice;1 234,50;12 %;3,50 €;03/04/2024;vrai;',
      'Bob;2,25;7,5 %;1.200,00 €;25/12/2023;faux;ok',
      'Carol;;1 %;0,10 €;01/01/2024;VRAI;',
    ].join('\n')
    const loaded = await world.cache.load(await world.document('/fr/ventes.csv', 'text/csv', csv))
    expect(loaded.filename).toBe('ventes.csv')
    expect(loaded.tables).toHaveLength(1)
    expect(loaded.tables[0]?.sheet).toBeNull()
    expect(loaded.tables[0]?.rowCount).toBe(3)
    expect(column(loaded, 'Montant')).toMatchObject({
      type: 'number',
      unit: null,
      nullCount: 1,
      min: 2.25,
      max: 1234.5,
    })
    expect(column(loaded, 'Part')).toMatchObject({ type: 'number', unit: 'percent', min: 1, max: 12 })
    expect(column(loaded, 'Prix')).toMatchObject({ type: 'number', unit: 'currency', min: 0.1, max: 1200 })
    expect(column(loaded, 'Date')).toMatchObject({ type: 'date', min: '2023-12-25', max: '2024-04-03' })
    expect(column(loaded, 'Payé')).toMatchObject({ type: 'boolean' })
    expect(column(loaded, 'Note')).toMatchObject({ type: 'text', nullCount: 2, topValues: ['ok'] })
    expect(column(loaded, 'Client').topValues).toEqual(['Alice', 'Bob', 'Carol'])
    const all = await rows(loaded, 'SELECT * FROM t1 ORDER BY "__row"')
    expect(all[0]).toEqual({
      __row: 2,
      Client: 'Alice',
      Montant: 1234.5,
      Part: 12,
      Prix: 3.5,
      Date: '2024-04-03',
      Payé: true,
      Note: null,
    })
    expect(await rows(loaded, 'SELECT sum("Prix") AS s FROM t1')).toEqual([{ s: 1203.6 }])
  })

  it('types an English CSV: thousands commas, dollar amounts, integers, ISO dates and timestamps, month-first dates', async () => {
    const csv = [
      'id,amount,price,when,at,us_date',
      '1,"1,234,567",$5.00,2024-01-31,2024-01-31 10:00:00,12/31/2023',
      '2,12,$1.25,2024-02-01,2024-02-01T08:30:00Z,01/02/2024',
    ].join('\n')
    const loaded = await world.cache.load(await world.document('/orders.csv', 'text/csv', csv))
    expect(column(loaded, 'id')).toMatchObject({ type: 'integer', min: 1, max: 2 })
    expect(column(loaded, 'amount')).toMatchObject({ type: 'integer', min: 12, max: 1234567 })
    expect(column(loaded, 'price')).toMatchObject({ type: 'number', unit: 'currency' })
    expect(column(loaded, 'when')).toMatchObject({ type: 'date' })
    expect(column(loaded, 'at')).toMatchObject({ type: 'timestamp' })
    expect(column(loaded, 'us_date')).toMatchObject({ type: 'date', min: '2023-12-31', max: '2024-01-02' })
  })

  it('reads the missing-value markers pandas reads ("null", "NaN", "N/A") as empty cells of a numeric column', async () => {
    const csv = ['day,open,label', '1,465.5,null', '2,null,a', '3,NaN,b', '4,N/A,c', '5,470.25,d'].join('\n')
    const loaded = await world.cache.load(await world.document('/prices.csv', 'text/csv', csv))
    expect(column(loaded, 'open')).toMatchObject({ type: 'number', nullCount: 3, min: 465.5, max: 470.25 })
    // A text column keeps them as written.
    expect(column(loaded, 'label')).toMatchObject({ type: 'text', nullCount: 0 })
  })

  it('reads a number written with a trailing point ("3504.") as a number, as pandas does', async () => {
    const csv = ['mpg,weight', '18.0,3504.', '15.0,3693.', '16.5,3436.'].join('\n')
    const loaded = await world.cache.load(await world.document('/cars.csv', 'text/csv', csv))
    expect(column(loaded, 'weight')).toMatchObject({ type: 'number', min: 3436, max: 3693 })
  })

  it('reads "6,00 US$" (no-break space) as currency, and keeps codes with leading zeros or 16+ digits as text', async () => {
    const csv = [
      'product,revenue,code,barcode',
      'Mocha,"6,00\u00a0US$",00123,1234567890123456789',
      'Latte,"12,50\u00a0US$",04567,2234567890123456789',
      'Tea,"1.250,00\u00a0US$",12345,3234567890123456789',
    ].join('\n')
    const loaded = await world.cache.load(await world.document('/sales.csv', 'text/csv', csv))
    expect(column(loaded, 'revenue')).toMatchObject({ type: 'number', unit: 'currency', min: 6, max: 1250 })
    expect(column(loaded, 'code')).toMatchObject({ type: 'text' })
    expect(column(loaded, 'barcode')).toMatchObject({ type: 'text' })
    expect(await rows(loaded, 'SELECT sum(revenue) AS total, min(code) AS first FROM t1')).toEqual([
      { total: 1268.5, first: '00123' },
    ])
  })

  it('reads numbers in scientific notation as numbers', async () => {
    const csv = ['feature,score', 'a,0.0670', 'b,8.87925167376269e-05', 'c,1E3', 'd,-2.5e+2'].join('\n')
    const loaded = await world.cache.load(await world.document('/scores.csv', 'text/csv', csv))
    expect(column(loaded, 'score')).toMatchObject({ type: 'number', min: -250, max: 1000 })
    expect(await rows(loaded, "SELECT score FROM t1 WHERE feature = 'b'")).toEqual([{ score: 8.87925167376269e-5 }])
  })

  it('keeps a column as text when one value does not convert, and names header-less columns', async () => {
    const numbers = Array.from({ length: 30 }, (_, i) => `x${i},${i}`)
    const csv = [...numbers, 'x99,unknown'].join('\n')
    const loaded = await world.cache.load(await world.document('/raw.csv', 'text/csv', csv))
    expect(loaded.tables[0]?.columns.map((c) => c.name)).toEqual(['Column 1', 'Column 2'])
    expect(column(loaded, 'Column 2').type).toBe('text')
    expect(loaded.tables[0]?.rowCount).toBe(31)
  })

  it('widens a column typed from the first rows when a later row needs it: integer → number → text', async () => {
    const head = Array.from({ length: 20_100 }, (_, i) => `${i},${i},${i}`)
    const csv = ['count,amount,code', ...head, '1,2.5,x'].join('\n')
    const loaded = await world.cache.load(await world.document('/widen.csv', 'text/csv', csv))
    expect(column(loaded, 'count')).toMatchObject({ type: 'integer', max: 20_099 })
    expect(column(loaded, 'amount')).toMatchObject({ type: 'number', max: 20_099 })
    expect(column(loaded, 'code').type).toBe('text')
    expect(await rows(loaded, 'SELECT sum(amount) AS s, count(code) AS n FROM t1')).toEqual([
      { s: 201_994_952.5, n: 20_101 },
    ])
  })

  it('numbers rows exactly like the ingestion parser (blank lines, quoted line breaks, header row 1)', async () => {
    const csv = 'name,qty\n"multi\nline",1\n\nb,2\n,\nc,3\n'
    const document = await world.document('/rows.csv', 'text/csv', csv)
    const loaded = await world.cache.load(document)
    const parsed = await csvParser.parse(inputFor(world.file('rows.csv', csv), 'text/csv'))
    const block = parsed.blocks[0] as TableBlock
    const expected = block.rows.map((row) => row.rowNumber)
    const got = (await rows(loaded, 'SELECT "__row" FROM t1 ORDER BY "__row"')).map((r) => r.__row)
    expect(got).toEqual(expected)
    expect(got).toEqual([2, 4, 6])

    // Without blank lines DuckDB's own reader loads the file: same numbering.
    const plain = 'name,qty\n"multi\nline",1\nb,2\nc,3\n'
    const fast = await world.cache.load(await world.document('/plain.csv', 'text/csv', plain))
    const plainParsed = await csvParser.parse(inputFor(world.file('plain.csv', plain), 'text/csv'))
    expect((await rows(fast, 'SELECT "__row" FROM t1 ORDER BY 1')).map((r) => r.__row)).toEqual(
      (plainParsed.blocks[0] as TableBlock).rows.map((row) => row.rowNumber),
    )
  })

  it('finds blank lines before the end of a file, not trailing ones', async () => {
    expect(await hasBlankLines(world.file('b1.csv', 'a\n1\n\n2\n'))).toBe(true)
    expect(await hasBlankLines(world.file('b2.csv', 'a\r\n1\r\n\r\n2'))).toBe(true)
    expect(await hasBlankLines(world.file('b3.csv', 'a\n1\n2\n\n\n'))).toBe(false)
    expect(await hasBlankLines(world.file('b4.csv', `a\n${'1\n'.repeat(600_000)}\n2\n`))).toBe(true)
    expect(await hasBlankLines(world.file('b5.csv', 'a\n1\n'))).toBe(false)
  })

  it('reads TSV and the document csv_delimiter', async () => {
    const tsv = await world.cache.load(
      await world.document('/a.tsv', 'text/tab-separated-values', 'key\tvalue\na\t1\nb\t2\n'),
    )
    expect(await rows(tsv, 'SELECT sum(value) AS s FROM t1')).toEqual([{ s: 3 }])
    const semi = await world.cache.load(
      await world.document('/b.csv', 'text/csv', 'key;v,w\na;1,5\nb;2,5\n', 'semicolon'),
    )
    expect(semi.tables[0]?.columns.map((c) => c.name)).toEqual(['key', 'v,w'])
    expect(await rows(semi, 'SELECT sum("v,w") AS s FROM t1')).toEqual([{ s: 4 }])
  })

  it('loads every sheet of an XLSX workbook as a table, rows numbered as in the sheet', async () => {
    const document = await world.document('/book.xlsx', XLSX, await twoSheetWorkbook())
    const loaded = await world.cache.load(document)
    expect(loaded.tables.map((t) => t.sheet)).toEqual(['Sales', 'Staff'])
    expect(column(loaded, 'Amount')).toMatchObject({ type: 'number', min: 99.5, max: 1200.5 })
    expect(column(loaded, 'Date')).toMatchObject({ type: 'date', min: '2024-01-15' })
    expect(column(loaded, 'Paid')).toMatchObject({ type: 'boolean' })
    expect(column(loaded, 'Share', 1)).toMatchObject({ type: 'integer', unit: 'percent', min: 25, max: 75 })
    expect((await rows(loaded, 'SELECT "__row" FROM t1 ORDER BY 1')).map((r) => r.__row)).toEqual([2, 3, 5])
    const parsed = await spreadsheetParser.parse(inputFor(world.file('book.xlsx', await twoSheetWorkbook()), XLSX))
    expect((parsed.blocks[0] as TableBlock).rows.map((r) => r.rowNumber)).toEqual([2, 3, 5])
  })

  it.skipIf(!libreOfficeRuns())(
    'loads every sheet of an Excel 97–2003 workbook, converted by LibreOffice',
    async () => {
      const source = world.file('book.xlsx', await twoSheetWorkbook())
      execFileSync(
        'soffice',
        [
          '--headless',
          `-env:UserInstallation=file://${world.dir}/profile`,
          '--convert-to',
          'xls',
          '--outdir',
          world.dir,
          source,
        ],
        { stdio: 'ignore', timeout: 120_000 },
      )
      const loaded = await world.cache.load(
        await world.document('/book.xls', XLS, readFileSync(join(world.dir, 'book.xls'))),
      )
      expect(loaded.tables.map((t) => t.sheet)).toEqual(['Sales', 'Staff'])
      expect(column(loaded, 'Amount')).toMatchObject({ type: 'number', min: 99.5, max: 1200.5 })
      expect((await rows(loaded, 'SELECT "__row" FROM t1 ORDER BY 1')).map((r) => r.__row)).toEqual([2, 3, 5])
    },
    120_000,
  )

  it.skipIf(!libreOfficeRuns())(
    'loads the sheets of an Excel binary workbook (.xlsb)',
    async () => {
      const bytes = xlsbOf(SALES_AND_STAFF)
      const loaded = await world.cache.load(await world.document('/book.xlsb', XLSB, bytes))
      expect(loaded.tables.map((t) => t.sheet)).toEqual(['Sales', 'Staff'])
      expect(await rows(loaded, 'SELECT sum("Revenue") AS s FROM t1')).toEqual([{ s: 2230.5 }])
    },
    120_000,
  )

  it('loads ODS sheets through the ingestion parser', async () => {
    const content = `<?xml version="1.0" encoding="UTF-8"?>
<office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"><office:body><office:spreadsheet>
<table:table table:name="Budget">
<table:table-row><table:table-cell office:value-type="string"><text:p>Expense</text:p></table:table-cell><table:table-cell office:value-type="string"><text:p>Cost</text:p></table:table-cell></table:table-row>
<table:table-row><table:table-cell office:value-type="string"><text:p>Rent</text:p></table:table-cell><table:table-cell office:value-type="float" office:value="1234.5"><text:p>1 234,50</text:p></table:table-cell></table:table-row>
<table:table-row><table:table-cell office:value-type="string"><text:p>Food</text:p></table:table-cell><table:table-cell office:value-type="float" office:value="300"><text:p>300</text:p></table:table-cell></table:table-row>
</table:table>
<table:table table:name="Other"><table:table-row><table:table-cell office:value-type="string"><text:p>a</text:p></table:table-cell><table:table-cell office:value-type="float" office:value="1"/></table:table-row></table:table>
</office:spreadsheet></office:body></office:document-content>`
    const ods = zipOf([
      { name: 'mimetype', content: ODS, store: true },
      { name: 'content.xml', content },
    ])
    const loaded = await world.cache.load(await world.document('/budget.ods', ODS, ods))
    expect(loaded.tables.map((t) => t.sheet)).toEqual(['Budget', 'Other'])
    expect(await rows(loaded, 'SELECT sum("Cost") AS s, min("__row") AS first FROM t1')).toEqual([
      { s: 1534.5, first: 2 },
    ])
  })

  it('refuses a document over the cell limit with table_too_large, and loads a document once per processing run', async () => {
    const small = tableWorld(10)
    try {
      const csv = ['a,b,c', ...Array.from({ length: 10 }, (_, i) => `${i},${i},${i}`)].join('\n')
      await expect(small.cache.load(await small.document('/big.csv', 'text/csv', csv))).rejects.toMatchObject({
        code: 'table_too_large',
      })
    } finally {
      await small.close()
    }
    // Past the cache size, the least recently used document goes (its file too) and is loaded again.
    const tiny = tableWorld(1_000_000, 1)
    try {
      const a = await tiny.document('/a.csv', 'text/csv', 'x\n1\n')
      const b = await tiny.document('/b.csv', 'text/csv', 'y\n2\n')
      const first = await tiny.cache.load(a)
      await tiny.cache.load(b)
      await new Promise((resolve) => setTimeout(resolve, 100))
      expect(existsSync(first.file)).toBe(false)
      const reloaded = await tiny.cache.load(a)
      expect(reloaded).not.toBe(first)
      expect(existsSync(reloaded.file)).toBe(true)
    } finally {
      await tiny.close()
    }
    const document = await world.document('/once.csv', 'text/csv', 'a\n1\n2\n')
    const first = await world.cache.load(document)
    expect(await world.cache.load(document)).toBe(first)
    const again = await world.cache.load({
      ...document,
      processing: { ...document.processing, startedAt: '2026-11-23T09:00:00.000000' },
    })
    expect(again).not.toBe(first)
  })
})
