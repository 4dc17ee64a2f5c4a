import { zipOf } from '../ingestion/text-formats-support.js'

/**
 * A minimal Excel binary workbook (.xlsb, MS-XLSB): a ZIP of BIFF12 record streams, one sheet per
 * entry of `sheets`, each row's cells strings or numbers. Written by hand because no tool here
 * writes one (LibreOffice reads .xlsb but has no export filter for it).
 */
export function xlsbOf(sheets: Readonly<Record<string, readonly (readonly (string | number)[])[]>>): Buffer {
  const names = Object.keys(sheets)
  const workbook = Buffer.concat([
    record(BEGIN_BOOK),
    record(BEGIN_BUNDLE_SHEETS),
    ...names.map((name, i) =>
      record(BUNDLE_SHEET, Buffer.concat([u32(0), u32(i + 1), wide(`rId${i + 1}`), wide(name)])),
    ),
    record(END_BUNDLE_SHEETS),
    record(END_BOOK),
  ])
  const worksheetType = 'application/vnd.ms-excel.worksheet'
  const relationship = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships'
  return zipOf([
    {
      name: '[Content_Types].xml',
      content: `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="bin" ContentType="application/vnd.ms-excel.sheet.binary.macroEnabled.main"/>${names.map((_, i) => `<Override PartName="/xl/worksheets/sheet${i + 1}.bin" ContentType="${worksheetType}"/>`).join('')}</Types>`,
    },
    {
      name: '_rels/.rels',
      content: `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${relationship}/officeDocument" Target="xl/workbook.bin"/></Relationships>`,
    },
    { name: 'xl/workbook.bin', content: workbook },
    {
      name: 'xl/_rels/workbook.bin.rels',
      content: `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${names.map((_, i) => `<Relationship Id="rId${i + 1}" Type="${relationship}/worksheet" Target="worksheets/sheet${i + 1}.bin"/>`).join('')}</Relationships>`,
    },
    ...names.map((name, i) => ({ name: `xl/worksheets/sheet${i + 1}.bin`, content: sheet(sheets[name] ?? []) })),
  ])
}

// Record types (MS-XLSB 2.3).
const ROW_HEADER = 0x00
const CELL_REAL = 0x05
const CELL_STRING = 0x06
const BEGIN_SHEET = 0x81
const END_SHEET = 0x82
const BEGIN_BOOK = 0x83
const END_BOOK = 0x84
const BEGIN_BUNDLE_SHEETS = 0x8f
const END_BUNDLE_SHEETS = 0x90
const BEGIN_SHEET_DATA = 0x91
const END_SHEET_DATA = 0x92
const BUNDLE_SHEET = 0x9c

/** A record: its type and size as 7-bit varints, then its data. */
function record(type: number, data: Buffer = Buffer.alloc(0)): Buffer {
  return Buffer.concat([varint(type), varint(data.length), data])
}

function varint(value: number): Buffer {
  const bytes: number[] = []
  let rest = value
  do {
    let byte = rest & 0x7f
    rest >>= 7
    if (rest) byte |= 0x80
    bytes.push(byte)
  } while (rest)
  return Buffer.from(bytes)
}

/** XLWideString: a character count, then UTF-16LE. */
function wide(text: string): Buffer {
  const bytes = Buffer.alloc(4 + text.length * 2)
  bytes.writeUInt32LE(text.length, 0)
  bytes.write(text, 4, 'utf16le')
  return bytes
}

function u32(value: number): Buffer {
  const bytes = Buffer.alloc(4)
  bytes.writeUInt32LE(value, 0)
  return bytes
}

function sheet(rows: readonly (readonly (string | number)[])[]): Buffer {
  const parts = [record(BEGIN_SHEET), record(BEGIN_SHEET_DATA)]
  rows.forEach((cells, row) => {
    // Row index, style, height (twips), flags, one column span.
    const header = Buffer.alloc(25)
    header.writeUInt32LE(row, 0)
    header.writeUInt16LE(300, 8)
    header.writeUInt32LE(1, 13)
    header.writeUInt32LE(cells.length - 1, 21)
    parts.push(record(ROW_HEADER, header))
    cells.forEach((value, column) => {
      const cell = Buffer.concat([u32(column), u32(0)])
      if (typeof value === 'string') {
        parts.push(record(CELL_STRING, Buffer.concat([cell, wide(value)])))
        return
      }
      const number = Buffer.alloc(8)
      number.writeDoubleLE(value, 0)
      parts.push(record(CELL_REAL, Buffer.concat([cell, number])))
    })
  })
  parts.push(record(END_SHEET_DATA), record(END_SHEET))
  return Buffer.concat(parts)
}

/** A two-sheet workbook the .xlsb tests write: a `Sales` table with a header, and a one-row `Staff`. */
export const SALES_AND_STAFF = {
  Sales: [
    ['Region', 'Revenue'],
    ['North', 1250.5],
    ['South', 980],
  ],
  Staff: [['Name'], ['Ada']],
} as const
