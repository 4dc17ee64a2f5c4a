import { describe, expect, it } from 'vitest'
import { createOdtParser, odtParser } from '../../src/ingestion/parsers/odf-text.js'
import { loadParserFor } from '../../src/ingestion/parsers/registry.js'
import { allText, fakeOcr, ingestFailure, withTimeout } from './ocr-support.js'
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

const ODT = 'application/vnd.oasis.opendocument.text'
const file = tempFiles()

const NS =
  'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" office:version="1.3"'

function odt(body: string): Buffer {
  return zipOf([
    { name: 'mimetype', content: ODT, store: true },
    {
      name: 'META-INF/manifest.xml',
      content: `<?xml version="1.0"?><manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.3"><manifest:file-entry manifest:full-path="/" manifest:media-type="${ODT}"/><manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/></manifest:manifest>`,
    },
    {
      name: 'content.xml',
      content: `<?xml version="1.0" encoding="UTF-8"?><office:document-content ${NS}><office:body><office:text>${body}</office:text></office:body></office:document-content>`,
    },
  ])
}

const POLICY = `<text:h text:outline-level="1">Leave policy</text:h><text:p>Every employee gets leave.</text:p><text:h text:outline-level="2">Annual leave</text:h><text:p>Twenty-five days, café included.</text:p><table:table table:name="Days"><table:table-row><table:table-cell><text:p>Kind</text:p></table:table-cell><table:table-cell><text:p>Days</text:p></table:table-cell></table:table-row><table:table-row><table:table-cell><text:p>Annual</text:p></table:table-cell><table:table-cell><text:p>25</text:p></table:table-cell></table:table-row></table:table><text:list><text:list-item><text:p>Ask your manager</text:p></text:list-item></text:list>`

describe('ODT parser', () => {
  it('keeps headings with their level, paragraphs, tables and list items', async () => {
    const doc = await odtParser.parse(inputFor(await file('policy.odt', odt(POLICY)), ODT))
    expect(doc).toEqual({
      blocks: [
        { kind: 'heading', level: 1, text: 'Leave policy' },
        { kind: 'paragraph', text: 'Every employee gets leave.' },
        { kind: 'heading', level: 2, text: 'Annual leave' },
        { kind: 'paragraph', text: 'Twenty-five days, café included.' },
        { kind: 'table', header: ['Kind', 'Days'], rows: [{ rowNumber: 2, cells: ['Annual', '25'] }] },
        { kind: 'paragraph', text: 'Ask your manager' },
      ],
      pageCount: 1,
      documentType: 'text',
      title: 'Leave policy',
    })
  })

  it('runs the zip guard first and calls broken files damaged', async () => {
    const path = await file('guarded.odt', odt(POLICY))
    const limited = await ingestFailure(
      odtParser.parse(inputFor(path, ODT, { limits: { ...LIMITS, maxZipEntries: 2 } })),
    )
    expect(limited.message).toBe('limit exceeded: the ODT archive has 3 entries, more than the limit of 2')
    const broken = await file('broken.odt', odt('<text:p>unclosed'))
    const error = await ingestFailure(odtParser.parse(inputFor(broken, ODT)))
    expect(error.permanent).toBe(true)
    expect(error.message).toMatch(/^the ODT file is damaged or truncated: /)
    const whole = odt(POLICY)
    const truncated = await file('half.odt', whole.subarray(0, Math.floor(whole.length / 2)))
    expect((await ingestFailure(odtParser.parse(inputFor(truncated, ODT)))).message).toMatch(
      /^the ODT file is damaged or truncated: /,
    )
  })

  it('does not expand a billion-laughs entity bomb in content.xml', async () => {
    const entities = ['<!ENTITY lol0 "lol">']
    for (let i = 1; i <= 9; i++) entities.push(`<!ENTITY lol${i} "${`&lol${i - 1};`.repeat(10)}">`)
    const path = await file(
      'laughs.odt',
      zipOf([
        { name: 'mimetype', content: ODT, store: true },
        {
          name: 'content.xml',
          content: `<?xml version="1.0"?><!DOCTYPE lolz [${entities.join('')}]><office:document-content ${NS}><office:body><office:text><text:p>Before &lol9; after</text:p></office:text></office:body></office:document-content>`,
        },
      ]),
    )
    const result = await withTimeout(
      parsesOrRejectsCleanly(() => odtParser.parse(inputFor(path, ODT))),
      10_000,
      'laughs',
    )
    // Either refused as malformed or read with the reference unexpanded — never 10^9 "lol"s.
    if (!(result instanceof Error)) expect(allText(result).length).toBeLessThan(1000)
    else expect(result.message).toMatch(/^the ODT file is damaged or truncated: /)
  })

  it('is the registered parser for ODT', async () => {
    expect(await loadParserFor(ODT)).toBe(odtParser)
  })

  it('parses every real ODT of the corpus or rejects it with an IngestError, without hanging', async () => {
    const corpus = robustnessDir()
    if (!corpus) return
    const parser = createOdtParser(fakeOcr('image text'))
    const files = filesWithExtensions(corpus, ['odt'])
    expect(files.length).toBeGreaterThan(3)
    let parsed = 0
    for (const path of files) {
      const result = await withTimeout(
        parsesOrRejectsCleanly(() => parser.parse(inputFor(path, ODT))),
        20_000,
        path,
      )
      if (result instanceof Error) continue
      expectWellFormed(result)
      parsed++
    }
    expect(parsed).toBeGreaterThanOrEqual(files.length - 1)
  }, 60_000)
})
