import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import PDFDocument from 'pdfkit'
import { afterAll, describe, expect, it } from 'vitest'
import { mutoolRuns } from '../../src/ingestion/parsers/pdf-mutool.js'
import { readStextJson, StextJsonError, type StextLine } from '../../src/ingestion/parsers/stext-json.js'

interface Parsed {
  pages?: { blocks?: { type?: string; lines?: Record<string, unknown>[] }[] }[]
}

/** What the reader must give, from JSON.parse: the lines of text blocks, per page. */
function expected(json: string): StextLine[][] {
  const parsed = JSON.parse(json) as Parsed
  return (parsed.pages ?? []).map((page) =>
    (page.blocks ?? [])
      .filter((block) => block.type === 'text')
      .flatMap((block) =>
        (block.lines ?? []).map((line) => {
          const bbox = (line.bbox ?? {}) as { w?: number; h?: number }
          const font = (line.font ?? {}) as { size?: number }
          return {
            wmode: (line.wmode as number) ?? 0,
            x: (line.x as number) ?? 0,
            y: (line.y as number) ?? 0,
            w: bbox.w ?? 0,
            h: bbox.h ?? 0,
            size: font.size ?? 0,
            text: (line.text as string) ?? '',
          }
        }),
      ),
  )
}

function read(json: string | Buffer): StextLine[][] {
  const pages: StextLine[][] = []
  const count = readStextJson(Buffer.isBuffer(json) ? json : Buffer.from(json, 'utf8'), (page, line) => {
    while (pages.length <= page) pages.push([])
    pages[page]?.push(line)
  })
  while (pages.length < count) pages.push([])
  return pages
}

const line = (text: string, extra: Record<string, unknown> = {}) => ({
  wmode: 0,
  bbox: { x: 72, y: 700, w: 120, h: 12 },
  font: { name: 'Helvetica', family: 'sans-serif', weight: 'normal', style: 'normal', size: 11 },
  x: 72,
  y: 709,
  text,
  ...extra,
})

/** Two pages of prose with accents and typographic quotes, and a table drawn cell by cell. */
function reportPdf(): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const doc = new PDFDocument({ autoFirstPage: false })
    const chunks: Buffer[] = []
    doc.on('data', (chunk: Buffer) => chunks.push(chunk))
    doc.on('end', () => resolve(Buffer.concat(chunks)))
    doc.on('error', reject)
    for (let page = 1; page <= 2; page++) {
      doc.addPage()
      doc.fontSize(18).text(`Résumé ${page} — “quoted” and \\ "plain"`)
      doc.fontSize(11).text('The café’s results wrap onto a second line of the page, as prose in a filing does.')
      for (const [r, cells] of [
        ['Item', 'Amount'],
        ['Fees', '1,250.00'],
      ].entries()) {
        for (const [c, cell] of cells.entries()) doc.text(cell, 72 + c * 160, 400 + r * 22, { lineBreak: false })
      }
    }
    doc.end()
  })
}

describe("MuPDF's structured text read from its bytes", () => {
  it('gives the text lines of every page as JSON.parse reads them, skipping image blocks and other keys', () => {
    const json = JSON.stringify({
      file: 'report.pdf',
      pages: [
        {
          blocks: [
            { type: 'text', bbox: { x: 1, y: 2, w: 3, h: 4 }, lines: [line('Revenue'), line('12,345')] },
            { type: 'image', bbox: { x: 0, y: 0, w: 100, h: 100 } },
            { type: 'text', bbox: { x: 1, y: 2, w: 3, h: 4 }, lines: [line('縦書き', { wmode: 1 })] },
          ],
        },
        { blocks: [] },
        {},
        { blocks: [{ type: 'text', lines: [] }, {}] },
      ],
    })
    const pages = read(json)
    expect(pages).toEqual(expected(json))
    expect(pages.map((page) => page.map((l) => l.text))).toEqual([['Revenue', '12,345', '縦書き'], [], [], []])
    expect(pages[0]?.[2]?.wmode).toBe(1)
  })

  it('decodes raw UTF-8 and every JSON escape in the text', () => {
    const texts = [
      'café — “quoted” ’s',
      'a "quote" and a \\ backslash',
      'tab\there, line\nbreak, \u0001 control',
      'emoji 😀 and \u2028 separator',
      'plain',
    ]
    const escaped = JSON.stringify({ pages: [{ blocks: [{ type: 'text', lines: texts.map((t) => line(t)) }] }] })
    // \u escapes for every non-ASCII character, as another writer might give them.
    const asciiOnly = escaped.replace(/[\u007f-\uffff]/gu, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
    for (const json of [escaped, asciiOnly]) {
      expect(read(json)[0]?.map((l) => l.text)).toEqual(texts)
    }
  })

  it('takes keys in any order, whitespace anywhere, fractions, exponents and negative numbers', () => {
    const json = `{ "pages" : [ { "width": 612.5, "blocks" : [
      { "lines" : [ { "text" : "late type", "y" : -3.25, "x" : 1e2, "font" : { "size" : 10.5, "extra": [1, {"a": [true, false, null]}] },
        "bbox" : { "h" : 12.75, "w" : 2.5E1 }, "wmode" : 0, "dir": [1, 0] } ], "type" : "text" },
      { "lines" : [ { "text" : "in a picture" } ], "type" : "image" }
    ] } ] }`
    const pages = read(json)
    expect(pages).toEqual(expected(json))
    expect(pages[0]).toEqual([{ wmode: 0, x: 100, y: -3.25, w: 25, h: 12.75, size: 10.5, text: 'late type' }])
  })

  it('refuses what is not JSON, with the byte where it stopped', () => {
    const good = JSON.stringify({ pages: [{ blocks: [{ type: 'text', lines: [line('x')] }] }] })
    for (const bad of [
      good.slice(0, good.length - 3),
      `${good} trailing`,
      good.replace('"text":"x"', '"text":"x'),
      good.replace('"size":11', '"size":abc'),
      good.replace('"blocks":[', '"blocks":['.concat('1,')),
      '',
      '[]',
    ]) {
      expect(() => read(bad), bad).toThrow(StextJsonError)
    }
    expect(() => read(good.slice(0, 40))).toThrow(/at byte \d+/)
  })

  it('matches JSON.parse on random structured text', () => {
    let seed = 7
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648
      return seed / 2147483648
    }
    const alphabet = ['a', 'Z', ' ', '"', '\\', '\n', 'é', '€', '😀', '1', ',', '/', '\u0000']
    const text = () =>
      Array.from({ length: Math.floor(random() * 12) }, () => alphabet[Math.floor(random() * alphabet.length)]).join('')
    const number = () => Math.round((random() - 0.3) * 2000) / (random() < 0.5 ? 1 : 8)
    for (let round = 0; round < 200; round++) {
      const pages = Array.from({ length: Math.floor(random() * 3) }, () => ({
        blocks: Array.from({ length: Math.floor(random() * 4) }, () => ({
          type: random() < 0.8 ? 'text' : 'image',
          lines: Array.from({ length: Math.floor(random() * 4) }, () => ({
            wmode: random() < 0.1 ? 1 : 0,
            bbox: { x: number(), y: number(), w: number(), h: number() },
            font: { name: text(), size: number() },
            x: number(),
            y: number(),
            text: text(),
          })),
        })),
      }))
      const json = JSON.stringify({ file: text(), pages }, null, round % 2 ? 1 : 0)
      expect(read(json)).toEqual(expected(json))
    }
  })

  describe.skipIf(!mutoolRuns())('on what mutool writes', () => {
    const dir = mkdtempSync(join(tmpdir(), 'lantern-stext-'))
    afterAll(() => rmSync(dir, { recursive: true, force: true }))

    it('reads a generated report as JSON.parse does, accents and quotes included', async () => {
      const path = join(dir, 'report.pdf')
      writeFileSync(path, await reportPdf())
      const output = execFileSync('mutool', ['draw', '-q', '-F', 'stext.json', '-o', '-', path])
      const pages = read(output)
      expect(pages).toEqual(expected(output.toString('utf8')))
      expect(pages.flat().length).toBeGreaterThan(3)
    })
  })
})
