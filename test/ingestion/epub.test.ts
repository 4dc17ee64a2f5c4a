import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { Block, ParsedDocument } from '../../src/ingestion/model.js'
import { epubParser } from '../../src/ingestion/parsers/epub.js'
import { ingestFailure } from './ocr-support.js'
import { expectWellFormed, inputFor, LIMITS, robustnessDir, tempFiles, zipOf } from './text-formats-support.js'

const EPUB = 'application/epub+zip'
const dir = robustnessDir()
const file = tempFiles()
const real = (name: string): string => join(dir as string, name)
const parseEpub = (path: string, maxPages = LIMITS.maxPages): Promise<ParsedDocument> =>
  epubParser.parse(inputFor(path, EPUB, { limits: { ...LIMITS, maxPages } }))
const summary = (blocks: readonly Block[]) =>
  blocks.map((b) => `${b.page}:${b.kind === 'heading' ? `h${b.level} ` : ''}${b.kind === 'table' ? 'table' : b.text}`)

const CONTAINER = `<?xml version="1.0"?><container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles><rootfile full-path="EPUB/package.opf" media-type="application/oebps-package+xml"/></rootfiles></container>`
const xhtml = (body: string, title = 'x') =>
  `<?xml version="1.0" encoding="UTF-8"?><html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops"><head><title>${title}</title><style>p{}</style></head><body>${body}</body></html>`

/** An EPUB 3 whose spine order differs from its manifest and file order, with a nav document. */
function epub3(extra: { name: string; content: string }[] = []): Buffer {
  const opf = `<?xml version="1.0" encoding="UTF-8"?>
<package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="id">
  <metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:identifier id="id">urn:x</dc:identifier><dc:title>Lantern Field Guide</dc:title></metadata>
  <manifest>
    <item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/>
    <item id="c2" href="text/second%20part.xhtml" media-type="application/xhtml+xml"/>
    <item id="c1" href="text/first.xhtml" media-type="application/xhtml+xml"/>
    <item id="cover" href="cover.xhtml" media-type="application/xhtml+xml"/>
    <item id="pic" href="pic.svg" media-type="image/svg+xml"/>
  </manifest>
  <spine><itemref idref="cover" linear="no"/><itemref idref="c1"/><itemref idref="pic"/><itemref idref="c2"/></spine>
</package>`
  const nav = xhtml(
    '<nav epub:type="toc"><ol><li><a href="text/first.xhtml">Lighting the lamp</a></li><li><a href="text/second%20part.xhtml">Keeping it lit</a><ol><li><a href="text/second%20part.xhtml#wick">The wick</a></li></ol></li></ol></nav>',
  )
  return zipOf([
    { name: 'mimetype', content: EPUB, store: true },
    { name: 'META-INF/container.xml', content: CONTAINER },
    {
      name: 'EPUB/text/second part.xhtml',
      content: xhtml(
        '<p>Trim the wick every evening.</p><h2 id="wick">The wick</h2><p>Cotton wicks last a season.</p>',
      ),
    },
    {
      name: 'EPUB/text/first.xhtml',
      content: xhtml('<h1>Chapter One: Lighting</h1><p>Fill the lamp with oil.</p><ul><li>Open the valve</li></ul>'),
    },
    { name: 'EPUB/cover.xhtml', content: xhtml('<div><img src="cover.jpg" alt="Cover"/></div>') },
    { name: 'EPUB/pic.svg', content: '<svg xmlns="http://www.w3.org/2000/svg"><text>not read</text></svg>' },
    { name: 'EPUB/nav.xhtml', content: nav },
    { name: 'EPUB/package.opf', content: opf },
    ...extra,
  ])
}

describe('EPUB parser', () => {
  it('reads the spine in order, each content document a page, headings from the text or the nav', async () => {
    const doc = await parseEpub(await file('guide.epub', epub3()))
    expectWellFormed(doc)
    expect(doc.title).toBe('Lantern Field Guide')
    expect(doc.pageCount).toBe(2)
    expect(summary(doc.blocks)).toEqual([
      '1:h1 Chapter One: Lighting',
      '1:Fill the lamp with oil.',
      '1:Open the valve',
      // No heading of its own before its text: the table of contents' label for the whole document.
      '2:h1 Keeping it lit',
      '2:Trim the wick every evening.',
      '2:h2 The wick',
      '2:Cotton wicks last a season.',
    ])
  })

  it('ends an EPUB whose content documents are encrypted (DRM) as encrypted; font obfuscation is fine', async () => {
    const encryption = (algorithm: string, uri: string) =>
      `<?xml version="1.0"?><encryption xmlns="urn:oasis:names:tc:opendocument:xmlns:container" xmlns:enc="http://www.w3.org/2001/04/xmlenc#"><enc:EncryptedData><enc:EncryptionMethod Algorithm="${algorithm}"/><enc:CipherData><enc:CipherReference URI="${uri}"/></enc:CipherData></enc:EncryptedData></encryption>`
    const drm = epub3([
      {
        name: 'META-INF/encryption.xml',
        content: encryption('http://www.w3.org/2001/04/xmlenc#aes128-cbc', 'EPUB/text/first.xhtml'),
      },
    ])
    const error = await ingestFailure(parseEpub(await file('drm.epub', drm)))
    expect(error).toMatchObject({ message: 'the EPUB is encrypted (DRM)', permanent: true })
    const fonts = epub3([
      {
        name: 'META-INF/encryption.xml',
        content: encryption('http://www.idpf.org/2008/embedding', 'EPUB/fonts/a.otf'),
      },
    ])
    expect((await parseEpub(await file('fonts.epub', fonts))).pageCount).toBe(2)
  })

  it('fails cleanly without a package document, on a non-zip, and past the page limit', async () => {
    const empty = zipOf([{ name: 'mimetype', content: EPUB, store: true }])
    expect((await ingestFailure(parseEpub(await file('empty.epub', empty)))).message).toBe(
      'the EPUB file is damaged or truncated: no package document (META-INF/container.xml names none)',
    )
    expect((await ingestFailure(parseEpub(await file('text.epub', 'not a zip')))).message).toMatch(
      /^the EPUB file is damaged or truncated: not a readable zip archive/,
    )
    const limited = await ingestFailure(parseEpub(await file('limit.epub', epub3()), 2))
    expect(limited.message).toBe('limit exceeded: the EPUB has 3 content documents, more than the limit of 2')
  })
})

describe.skipIf(!dir)('EPUB parser: real files', () => {
  it('reads chapters in spine order (testEPUB.epub: the cover has no text, then contents, chapters 1 and 2)', async () => {
    const doc = await parseEpub(real('tika-test-documents/testEPUB.epub'))
    expectWellFormed(doc)
    expect(doc.title).toBe('An ePub for Tika')
    expect(doc.pageCount).toBe(3)
    const headings = doc.blocks.flatMap((b) => (b.kind === 'heading' ? [`${b.page}:${b.text}`] : []))
    expect(headings).toEqual([
      '1:Table of Contents',
      '2:Chapter 1',
      '3:Chapter 2',
      '3:Subchapter 2.1',
      '3:Subchapter 2.2',
    ])
    const text = summary(doc.blocks).join('\n')
    expect(text).toContain('2:This is the text for chapter One')
    expect(text).toContain('3:This is the text for chapter Two')
    expect(text).not.toMatch(/nothing to see here|nor here/)
  })

  it('reads an EPUB whose content documents are .xml files (testEPUB_xml_ext.epub)', async () => {
    const doc = await parseEpub(real('tika-test-documents/testEPUB_xml_ext.epub'))
    expect(doc.title).toBe('1984')
    const lines = summary(doc.blocks)
    expect(lines.slice(0, 2)).toEqual(['1:h1 Part 1', '2:h2 Chapter 1'])
    expect(lines[2]).toMatch(/^2:It was a bright cold day in April, and the clocks were striking thirteen\./)
    expect(lines).toHaveLength(3)
  })

  it('reads a whole book in reading order with its chapter headings (winter-sports.epub)', async () => {
    const doc = await parseEpub(real('unstructured-example-docs/winter-sports.epub'))
    expectWellFormed(doc)
    expect(doc.title).toBe('Winter Sports in Switzerland')
    expect(doc.pageCount).toBe(9)
    const chapters = doc.blocks.flatMap((b) => (b.kind === 'heading' && /^CHAPTER /.test(b.text) ? [b] : []))
    expect(chapters.map((b) => b.text.split(' ').slice(0, 2).join(' '))).toEqual(
      ['I', 'II', 'III', 'IV', 'V', 'VI', 'VII', 'VIII'].map((n) => `CHAPTER ${n}`),
    )
    const pages = chapters.map((b) => b.page as number)
    expect(pages).toEqual([...pages].sort((a, b) => a - b))
    expect(
      doc.blocks.every((b) => Number.isInteger(b.page) && (b.page as number) >= 1 && (b.page as number) <= 9),
    ).toBe(true)
    const text = summary(doc.blocks).join('\n')
    expect(text.indexOf('START OF THE PROJECT GUTENBERG EBOOK')).toBeLessThan(text.indexOf('CHAPTER I THE SUN-SEEKER'))
  })
})
