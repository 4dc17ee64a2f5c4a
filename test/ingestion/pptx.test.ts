import { join } from 'node:path'
import PptxGenModule from 'pptxgenjs'
import { describe, expect, it } from 'vitest'
import type { TableBlock } from '../../src/ingestion/model.js'
import { createPresentationParser, presentationParser } from '../../src/ingestion/parsers/pptx.js'
import { loadParserFor } from '../../src/ingestion/parsers/registry.js'
import { fakeOcr, ingestFailure, textImage, withTimeout } from './ocr-support.js'
import {
  expectWellFormed,
  filesWithExtensions,
  inputFor,
  LIMITS,
  parsesOrRejectsCleanly,
  robustnessDir,
  tempFiles,
  zipOf,
} from './text-formats-support.js'

const PPTX = 'application/vnd.openxmlformats-officedocument.presentationml.presentation'
const ODP = 'application/vnd.oasis.opendocument.presentation'
const ADVANCED = { loaderType: 'ADVANCED', csvDelimiter: null, imageMinSizeRatio: 0.1 } as const
const file = tempFiles()
// pptxgenjs ships CJS-style types for an ESM build: TypeScript sees the class under `default`.
const PptxGenJS = ((PptxGenModule as unknown as { default?: unknown }).default ??
  PptxGenModule) as typeof PptxGenModule.default

async function deck(): Promise<Buffer> {
  const pptx = new PptxGenJS()
  pptx.title = 'Quarterly review'
  pptx.defineSlideMaster({
    title: 'WITH_TITLE',
    objects: [{ placeholder: { options: { name: 'title', type: 'title', x: 0.5, y: 0.2, w: 9, h: 1 }, text: '' } }],
  })
  const chart = await textImage(['Revenue grew 12 percent'], 1200)
  for (let n = 1; n <= 3; n++) {
    const slide = pptx.addSlide({ masterName: 'WITH_TITLE' })
    slide.addText(`Slide ${n} title`, { placeholder: 'title' })
    slide.addText(`Body text of slide ${n}.`, { x: 0.5, y: 1.4, w: 9, h: 0.8 })
    slide.addNotes(`Speaker notes for slide ${n}`)
    if (n === 2) {
      slide.addTable(
        [
          [{ text: 'Region' }, { text: 'Sales' }],
          [{ text: 'North' }, { text: '100' }],
          [{ text: 'South' }, { text: '200' }],
        ],
        { x: 0.5, y: 2.5, w: 6 },
      )
    }
    if (n === 3) slide.addImage({ data: `image/png;base64,${chart.toString('base64')}`, x: 0.5, y: 2.5, w: 6, h: 1.1 })
  }
  return (await pptx.write({ outputType: 'nodebuffer' })) as Buffer
}

const ODF_NS =
  'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:presentation="urn:oasis:names:tc:opendocument:xmlns:presentation:1.0" office:version="1.3"'

function odpPage(n: number, title: string, body: string, note: string): string {
  return `<draw:page draw:name="page${n}"><draw:frame presentation:class="title"><draw:text-box><text:p>${title}</text:p></draw:text-box></draw:frame><draw:frame presentation:class="outline"><draw:text-box><text:p>${body}</text:p></draw:text-box></draw:frame><presentation:notes><draw:frame presentation:class="notes"><draw:text-box><text:p>${note}</text:p></draw:text-box></draw:frame></presentation:notes></draw:page>`
}

function odp(): Buffer {
  const content = `<?xml version="1.0" encoding="UTF-8"?><office:document-content ${ODF_NS}><office:body><office:presentation>${odpPage(1, 'Welcome', 'First slide body', 'Note one')}${odpPage(2, 'Agenda', 'Second slide body', 'Note two')}</office:presentation></office:body></office:document-content>`
  return zipOf([
    { name: 'mimetype', content: ODP, store: true },
    {
      name: 'META-INF/manifest.xml',
      content: `<?xml version="1.0"?><manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.3"><manifest:file-entry manifest:full-path="/" manifest:media-type="${ODP}"/><manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/></manifest:manifest>`,
    },
    { name: 'content.xml', content },
  ])
}

describe('PPTX and ODP parser', () => {
  it('gives each slide its title as a heading, text, tables and notes, with the slide number as page', async () => {
    const path = await file('deck.pptx', await deck())
    const progress: [number, number][] = []
    const doc = await presentationParser.parse(
      inputFor(path, PPTX, { progress: (done, total) => progress.push([done, total]) }),
    )
    expect(doc.pageCount).toBe(3)
    expect(doc.documentType).toBe('text')
    expect(doc.title).toBe('Quarterly review')
    expect(doc.blocks).toEqual([
      { kind: 'heading', level: 1, text: 'Slide 1 title', page: 1 },
      { kind: 'paragraph', text: 'Body text of slide 1.', page: 1 },
      { kind: 'paragraph', text: 'Speaker notes for slide 1', page: 1 },
      { kind: 'heading', level: 1, text: 'Slide 2 title', page: 2 },
      { kind: 'paragraph', text: 'Body text of slide 2.', page: 2 },
      {
        kind: 'table',
        header: ['Region', 'Sales'],
        rows: [
          { rowNumber: 2, cells: ['North', '100'] },
          { rowNumber: 3, cells: ['South', '200'] },
        ],
        page: 2,
      },
      { kind: 'paragraph', text: 'Speaker notes for slide 2', page: 2 },
      { kind: 'heading', level: 1, text: 'Slide 3 title', page: 3 },
      { kind: 'paragraph', text: 'Body text of slide 3.', page: 3 },
      { kind: 'paragraph', text: 'Speaker notes for slide 3', page: 3 },
    ])
    expect(progress.at(-1)).toEqual([3, 3])
  })

  it('with the ADVANCED loader, OCRs a large picture on a slide into an image block of that slide', async () => {
    const path = await file('deck-images.pptx', await deck())
    const ocr = fakeOcr('Revenue grew 12 percent')
    const doc = await createPresentationParser(ocr).parse(inputFor(path, PPTX, { options: ADVANCED }))
    expect(ocr.calls).toHaveLength(1)
    const image = doc.blocks.find((block) => block.kind === 'image')
    expect(image).toEqual({ kind: 'image', imageId: 'p3-img1', text: 'Revenue grew 12 percent', page: 3 })
    const slide3 = doc.blocks.filter((block) => block.page === 3).map((block) => block.kind)
    expect(slide3).toEqual(['heading', 'paragraph', 'image', 'paragraph'])
  })

  it('reads ODP slides the same way', async () => {
    const doc = await presentationParser.parse(inputFor(await file('deck.odp', odp()), ODP))
    expect(doc.pageCount).toBe(2)
    expect(doc.blocks).toEqual([
      { kind: 'heading', level: 1, text: 'Welcome', page: 1 },
      { kind: 'paragraph', text: 'First slide body', page: 1 },
      { kind: 'paragraph', text: 'Note one', page: 1 },
      { kind: 'heading', level: 1, text: 'Agenda', page: 2 },
      { kind: 'paragraph', text: 'Second slide body', page: 2 },
      { kind: 'paragraph', text: 'Note two', page: 2 },
    ])
  })

  it('reads a PPTX chart (title, series, categories, values) into the slide that shows it', async () => {
    const pptx = new PptxGenJS()
    pptx.addSlide().addText('Intro slide', { x: 0.5, y: 0.5, w: 9, h: 1 })
    const slide = pptx.addSlide()
    slide.addText('Sales by fruit', { x: 0.5, y: 0.2, w: 9, h: 0.8 })
    slide.addChart(
      'bar',
      [
        { name: 'North', labels: ['Apples', 'Pears'], values: [10, 20] },
        { name: 'South', labels: ['Apples', 'Pears'], values: [5, 7] },
      ],
      { x: 0.5, y: 1.2, w: 8, h: 4, showTitle: true, title: 'Fruit sold per region' },
    )
    const path = await file('chart.pptx', (await pptx.write({ outputType: 'nodebuffer' })) as Buffer)
    const doc = await presentationParser.parse(inputFor(path, PPTX))
    expect(doc.blocks.filter((block) => block.page === 2)).toEqual([
      { kind: 'paragraph', text: 'Sales by fruit', page: 2 },
      { kind: 'paragraph', text: 'Fruit sold per region', page: 2 },
      {
        kind: 'table',
        header: ['', 'North', 'South'],
        rows: [
          { rowNumber: 2, cells: ['Apples', '10', '5'] },
          { rowNumber: 3, cells: ['Pears', '20', '7'] },
        ],
        page: 2,
      },
    ])
    expect(doc.blocks.filter((block) => block.page === 1)).toEqual([
      { kind: 'paragraph', text: 'Intro slide', page: 1 },
    ])
  })

  it('reads ODP master-page text (footer, other objects, per-slide footer) once, on the first slide showing it', async () => {
    const NS = `${ODF_NS} xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0"`
    const frame = (cls: string, inner: string, extra = '') =>
      `<draw:frame ${cls ? `presentation:class="${cls}"` : ''} ${extra}><draw:text-box><text:p>${inner}</text:p></draw:text-box></draw:frame>`
    const styles = `<?xml version="1.0" encoding="UTF-8"?><office:document-styles ${NS}><office:master-styles><style:master-page style:name="Default">${frame('title', 'Click to add title', 'presentation:placeholder="true"')}${frame('footer', 'Acme confidential')}${frame('page-number', '<text:page-number>&lt;number&gt;</text:page-number>')}${frame('date-time', '<presentation:date-time/>')}${frame('', 'Draft<text:s/>copy')}<presentation:notes>${frame('footer', 'Notes footer')}</presentation:notes></style:master-page><style:master-page style:name="Custom">${frame('footer', '<presentation:footer/>')}</style:master-page></office:master-styles></office:document-styles>`
    const page = (n: number, master: string, style: string, extra = '') =>
      `<draw:page draw:name="page${n}" draw:master-page-name="${master}" draw:style-name="${style}" ${extra}>${frame('title', `Slide ${n}`)}</draw:page>`
    const content = `<?xml version="1.0" encoding="UTF-8"?><office:document-content ${NS}><office:automatic-styles><style:style style:name="dp1" style:family="drawing-page"><style:drawing-page-properties presentation:display-footer="false" presentation:background-objects-visible="false"/></style:style><style:style style:name="dp2" style:family="drawing-page"><style:drawing-page-properties presentation:display-footer="true"/></style:style></office:automatic-styles><office:body><office:presentation><presentation:footer-decl presentation:name="ftr1">Board meeting only</presentation:footer-decl>${page(1, 'Default', 'dp1')}${page(2, 'Default', 'dp2')}${page(3, 'Default', 'dp2')}${page(4, 'Custom', 'dp2', 'presentation:use-footer-name="ftr1"')}</office:presentation></office:body></office:document-content>`
    const path = await file(
      'master.odp',
      zipOf([
        { name: 'mimetype', content: ODP, store: true },
        { name: 'content.xml', content },
        { name: 'styles.xml', content: styles },
      ]),
    )
    const doc = await presentationParser.parse(inputFor(path, ODP))
    expect(doc.blocks).toEqual([
      { kind: 'heading', level: 1, text: 'Slide 1', page: 1 },
      { kind: 'heading', level: 1, text: 'Slide 2', page: 2 },
      { kind: 'paragraph', text: 'Acme confidential', page: 2 },
      { kind: 'paragraph', text: 'Draft copy', page: 2 },
      { kind: 'heading', level: 1, text: 'Slide 3', page: 3 },
      { kind: 'heading', level: 1, text: 'Slide 4', page: 4 },
      { kind: 'paragraph', text: 'Board meeting only', page: 4 },
    ])
  })

  it('reads the real testPPT_charts.pptx and testMasterFooter.odp (text only in a chart / a master footer)', async () => {
    const corpus = robustnessDir()
    if (!corpus) return
    const charts = await presentationParser.parse(
      inputFor(join(corpus, 'tika-test-documents', 'testPPT_charts.pptx'), PPTX),
    )
    expect(charts.blocks[0]).toEqual({ kind: 'paragraph', text: 'wants a peach', page: 1 })
    expect(charts.blocks[1]).toMatchObject({ kind: 'table', header: ['', 'NUMBER'], page: 1 })
    expect((charts.blocks[1] as TableBlock).rows.map((row) => row.cells.join(' '))).toEqual([
      'January 5',
      'February 8',
      'March 4',
      'April 7',
      'May 4',
      'June 2',
      'July 5',
      'August 6',
    ])
    const footer = await presentationParser.parse(
      inputFor(join(corpus, 'tika-test-documents', 'testMasterFooter.odp'), ODP),
    )
    expect(footer.blocks).toEqual([{ kind: 'paragraph', text: 'Master footer is here', page: 1 }])
  })

  it('runs the zip guard first and calls broken decks damaged', async () => {
    const path = await file('guarded.pptx', await deck())
    const limited = await ingestFailure(
      presentationParser.parse(inputFor(path, PPTX, { limits: { ...LIMITS, maxZipEntries: 5 } })),
    )
    expect(limited.message).toMatch(/^limit exceeded: the PPTX archive has \d+ entries, more than the limit of 5$/)
    const whole = await deck()
    const truncated = await file('half.pptx', whole.subarray(0, Math.floor(whole.length / 2)))
    const error = await ingestFailure(presentationParser.parse(inputFor(truncated, PPTX)))
    expect(error.permanent).toBe(true)
    expect(error.message).toMatch(/^the PPTX file is damaged or truncated: /)
    const notDeck = await file('other.odp', zipOf([{ name: 'readme.txt', content: 'hello' }]))
    expect((await ingestFailure(presentationParser.parse(inputFor(notDeck, ODP)))).message).toMatch(
      /^the ODP file is damaged or truncated: /,
    )
  })

  it('is the registered parser for PPTX and ODP', async () => {
    expect(await loadParserFor(PPTX)).toBe(presentationParser)
    expect(await loadParserFor(ODP)).toBe(presentationParser)
  })

  it('parses every real PPTX and ODP of the corpus or rejects it with an IngestError, without hanging', async () => {
    const corpus = robustnessDir()
    if (!corpus) return
    const parser = createPresentationParser(fakeOcr('image text'))
    const files = filesWithExtensions(corpus, ['pptx', 'odp'])
    expect(files.length).toBeGreaterThan(10)
    let parsed = 0
    for (const path of files) {
      const mime = path.endsWith('.odp') ? ODP : PPTX
      for (const options of [undefined, ADVANCED]) {
        const result = await withTimeout(
          parsesOrRejectsCleanly(() => parser.parse(inputFor(path, mime, options ? { options } : {}))),
          20_000,
          path,
        )
        if (result instanceof Error) continue
        expectWellFormed(result)
        expect(
          result.blocks.every((block) => Number.isInteger(block.page)),
          path,
        ).toBe(true)
        parsed++
      }
    }
    expect(parsed).toBeGreaterThan(files.length * 1.6)
  }, 120_000)
})
