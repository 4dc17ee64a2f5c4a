import type { Readable } from 'node:stream'
import ExcelJS from 'exceljs'
import type { Entry, ZipFile } from 'yauzl'
import { openZipEntries } from './zip-entries.js'

/** One worksheet of a workbook: its tab name, how many sheets the workbook lists, and its rows, read as they are iterated. */
export interface XlsxWorksheet {
  readonly name: string
  readonly sheetCount: number
  readonly rows: AsyncIterable<ExcelJS.Row>
}

/** The parts of exceljs's streaming reader this module drives (present since exceljs 4.0). */
interface ReaderParts {
  _parseRels(part: Readable): Promise<void>
  _parseWorkbook(part: Readable): Promise<void>
  _parseSharedStrings(part: Readable): AsyncGenerator<unknown>
  _parseStyles(part: Readable): Promise<void>
  _parseWorksheet(part: Readable, sheetNo: string): Generator<{ value: ExcelJS.stream.xlsx.WorksheetReader }>
  workbookRels?: readonly { Id?: string; Target?: string }[]
  model?: { sheets?: readonly { name?: string; rId?: string }[] }
}

const WORKBOOK = 'xl/workbook.xml'

/**
 * The worksheets of an XLSX workbook in tab order, cells read by exceljs (shared strings, styles
 * and number formats, formulas' cached results, rich text).
 *
 * exceljs's own `WorkbookReader.parse` reads the archive in one streaming pass, and on Node 20 it
 * misses an entry that follows the worksheets in about one read in ten (exceljs issue #683, still
 * open): LibreOffice writes the shared strings last, so every text cell of such a workbook was
 * lost now and then. It also decodes each chunk of XML on its own, which splits a multi-byte
 * character at a chunk boundary into two U+FFFD. Here the parts are opened through the archive's
 * central directory (yauzl) in the order they depend on each other, relationships, workbook,
 * shared strings and styles before any worksheet, and handed to exceljs's part readers as text
 * already decoded across chunk boundaries.
 */
export async function* xlsxWorksheets(path: string): AsyncGenerator<XlsxWorksheet> {
  const { zip, entries } = await openZipEntries(path)
  try {
    const reader = new ExcelJS.stream.xlsx.WorkbookReader(path, {
      worksheets: 'emit',
      sharedStrings: 'cache',
      styles: 'cache',
      hyperlinks: 'ignore',
      entries: 'ignore',
    }) as unknown as ReaderParts
    const part = async (name: string): Promise<Readable | null> => {
      const entry = entries.get(name)
      return entry ? textOf(zip, entry) : null
    }
    const rels = await part('xl/_rels/workbook.xml.rels')
    if (rels) await reader._parseRels(rels)
    const workbook = await part(WORKBOOK)
    if (!workbook) throw new Error(`${WORKBOOK} is missing`)
    await reader._parseWorkbook(workbook)
    const strings = await part('xl/sharedStrings.xml')
    if (strings) for await (const _ of reader._parseSharedStrings(strings));
    const styles = await part('xl/styles.xml')
    if (styles) await reader._parseStyles(styles)

    const targets = new Map((reader.workbookRels ?? []).map((rel) => [rel.Id, rel.Target ?? '']))
    const sheets = reader.model?.sheets ?? []
    for (const [index, sheet] of sheets.entries()) {
      const name = sheet.name ?? `Sheet${index + 1}`
      const target = partPath(targets.get(sheet.rId) ?? `worksheets/sheet${index + 1}.xml`)
      const content = await part(target)
      if (!content) continue
      const sheetNo = /sheet(\d+)\.xml$/i.exec(target)?.[1] ?? String(index + 1)
      for (const { value } of reader._parseWorksheet(content, sheetNo))
        yield { name, sheetCount: sheets.length, rows: value }
    }
  } finally {
    zip.close()
  }
}

/** A relationship target of the workbook as a part name: relative to `xl/`, or absolute from the root. */
function partPath(target: string): string {
  if (target.startsWith('/')) return target.slice(1)
  const segments: string[] = ['xl']
  for (const segment of target.split('/')) {
    if (segment === '..') segments.pop()
    else if (segment && segment !== '.') segments.push(segment)
  }
  return segments.join('/')
}

async function textOf(zip: ZipFile, entry: Entry): Promise<Readable> {
  const stream = await zip.openReadStreamPromise(entry)
  return stream.setEncoding('utf8')
}
