import { execFileSync } from 'node:child_process'
import { readFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import ExcelJS from 'exceljs'
import PptxGenModule from 'pptxgenjs'
import { describe, expect, it } from 'vitest'
import { detectMimeType } from '../../src/ingestion/detection/file-types.js'
import type { ParsedDocument, TableBlock } from '../../src/ingestion/model.js'
import { PPT, XLS, XLSB } from '../../src/ingestion/parsers/formats.js'
import { legacyOfficeParser } from '../../src/ingestion/parsers/legacy-office.js'
import { libreOfficeRuns } from '../../src/ingestion/parsers/libreoffice.js'
import { sharedData } from '../support/shared-data.js'
import { SALES_AND_STAFF, xlsbOf } from '../support/xlsb.js'
import { inputFor, tempFiles } from './text-formats-support.js'

const file = tempFiles()
const soffice = libreOfficeRuns() ? 'soffice' : null
if (!soffice) console.log('LibreOffice (soffice) not installed: the .xls and .ppt conversions are SKIPPED')
const robustness = sharedData('parser-robustness', 'the .xls file of the corpus is not read')
const PptxGenJS = ((PptxGenModule as unknown as { default?: unknown }).default ??
  PptxGenModule) as typeof PptxGenModule.default

/** Writes `bytes` as `name`, then has LibreOffice convert it to `format` (`xls`, `ppt`): a legacy file written by an office suite. */
async function legacyFile(name: string, bytes: Buffer, format: string): Promise<string> {
  const source = await file(name, bytes)
  execFileSync(
    'soffice',
    [
      '--headless',
      `-env:UserInstallation=file://${dirname(source)}/profile`,
      '--convert-to',
      format,
      '--outdir',
      dirname(source),
      source,
    ],
    { stdio: 'ignore', timeout: 120_000 },
  )
  return source.replace(/\.[a-z]+$/, `.${format}`)
}

async function workbook(): Promise<Buffer> {
  const wb = new ExcelJS.Workbook()
  const sales = wb.addWorksheet('Sales')
  sales.addRow(['Region', 'Quarter', 'Revenue'])
  sales.addRow(['North', 'Q1', 1250.5])
  sales.addRow(['South', 'Q1', 980])
  const staff = wb.addWorksheet('Staff')
  staff.addRow(['Name', 'Team'])
  staff.addRow(['Ada', 'Research'])
  return Buffer.from((await wb.xlsx.writeBuffer()) as ArrayBuffer)
}

async function deck(): Promise<Buffer> {
  const pptx = new PptxGenJS()
  for (let n = 1; n <= 3; n++) {
    const slide = pptx.addSlide()
    slide.addText(`Slide ${n}: lantern sales in region ${n}`, { x: 0.5, y: 0.5, w: 9, h: 1 })
  }
  return (await pptx.write({ outputType: 'nodebuffer' })) as Buffer
}

const tables = (parsed: ParsedDocument) => parsed.blocks.filter((b): b is TableBlock => b.kind === 'table')
const parse = (path: string, mimeType: string) => legacyOfficeParser.parse(inputFor(path, mimeType, { soffice }))

describe.skipIf(!soffice)('legacy Office formats through LibreOffice', () => {
  it('reads every sheet of an .xls as a table, with its sheet and rows', async () => {
    const parsed = await parse(await legacyFile('book.xlsx', await workbook(), 'xls'), XLS)
    const [sales, staff] = tables(parsed)
    expect(sales?.sheet).toBe('Sales')
    expect(sales?.header).toEqual(['Region', 'Quarter', 'Revenue'])
    expect(sales?.rows.map((row) => row.cells)).toEqual([
      ['North', 'Q1', '1250.5'],
      ['South', 'Q1', '980'],
    ])
    expect(staff?.sheet).toBe('Staff')
    expect(staff?.rows[0]?.cells).toEqual(['Ada', 'Research'])
  }, 120_000)

  it('reads a .ppt slide by slide, with slide numbers', async () => {
    const parsed = await parse(await legacyFile('deck.pptx', await deck(), 'ppt'), PPT)
    const slides = parsed.blocks.filter((block) => 'text' in block && String(block.text).includes('lantern sales'))
    expect(slides.map((block) => block.page)).toEqual([1, 2, 3])
    expect(slides.map((block) => ('text' in block ? block.text : ''))).toEqual([
      'Slide 1: lantern sales in region 1',
      'Slide 2: lantern sales in region 2',
      'Slide 3: lantern sales in region 3',
    ])
  }, 120_000)

  it('reads every sheet of an .xlsb, and sniffs it from its content', async () => {
    const bytes = xlsbOf(SALES_AND_STAFF)
    const path = await file('workbook', bytes)
    expect(await detectMimeType(path, 'workbook', bytes.length)).toBe(XLSB)
    const [sales, staff] = tables(await parse(path, XLSB))
    expect(sales).toMatchObject({ sheet: 'Sales', header: ['Region', 'Revenue'] })
    expect(sales?.rows.map((row) => row.cells)).toEqual([
      ['North', '1250.5'],
      ['South', '980'],
    ])
    expect(staff).toMatchObject({ sheet: 'Staff', header: ['Name'] })
  }, 120_000)

  // The corpus's only .ppt (eng_spa_mult.ppt) is an Open XML package by its content, read as PPTX.
  it.skipIf(!robustness)(
    "reads the corpus's Excel 97 workbook",
    async () => {
      const dir = fileURLToPath(robustness as URL)
      const [sheet] = tables(await parse(join(dir, 'tika-test-documents/testEXCEL.xls'), XLS))
      expect(sheet?.sheet).toBe('Feuil1')
      // Which row becomes the header depends on how the LibreOffice at hand writes the title row; the words do not.
      const cells = [...(sheet?.header ?? []), ...(sheet?.rows.flatMap((row) => row.cells) ?? [])]
      expect(cells).toEqual(expect.arrayContaining(['Number', 'Square', '15', '225']))
    },
    120_000,
  )
})

describe('legacy Office formats without LibreOffice', () => {
  it('end in a permanent error naming the package to install', async () => {
    const path = await file('old.xls', await readFile(fileURLToPath(import.meta.url)))
    await expect(legacyOfficeParser.parse(inputFor(path, XLS, { soffice: null }))).rejects.toMatchObject({
      permanent: true,
      message: expect.stringContaining('libreoffice-calc-nogui'),
    })
  })
})
