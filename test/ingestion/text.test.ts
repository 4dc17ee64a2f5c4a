import { extname } from 'node:path'
import iconv from 'iconv-lite'
import { describe, expect, it } from 'vitest'
import type { Block, ParagraphBlock } from '../../src/ingestion/model.js'
import { ParagraphSplitter, textParser } from '../../src/ingestion/parsers/text.js'
import { decodeXmlText, type XmlEvent, XmlScanner } from '../../src/ingestion/parsers/xml-scan.js'
import { filesWithExtensions, inputFor, realFilePass, robustnessDir, tempFiles } from './text-formats-support.js'

const file = tempFiles()

async function parseText(name: string, content: string | Buffer, mimeType = 'text/plain') {
  const doc = await textParser.parse(inputFor(await file(name, content), mimeType))
  expect(doc.pageCount).toBe(1)
  expect(doc.documentType).toBe('text')
  return doc
}

const texts = (blocks: readonly Block[]): string[] => blocks.map((block) => (block as ParagraphBlock).text)

describe('text parser', () => {
  it('splits plain text into paragraphs on blank lines (CRLF, whitespace-only lines, form feeds)', async () => {
    const doc = await parseText('notes.txt', 'First line\r\nstill first  \r\n\r\nSecond\n \t\nThird\fFourth\n\n\n')
    expect(doc.blocks).toEqual([
      { kind: 'paragraph', text: 'First line\nstill first' },
      { kind: 'paragraph', text: 'Second' },
      { kind: 'paragraph', text: 'Third' },
      { kind: 'paragraph', text: 'Fourth' },
    ])
  })

  it('decodes windows-1252 and UTF-16LE (BOM) text', async () => {
    const latin = await parseText('latin.txt', iconv.encode('Crème brûlée: 5 €\n\nüber alles', 'windows-1252'))
    expect(texts(latin.blocks)).toEqual(['Crème brûlée: 5 €', 'über alles'])
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), iconv.encode('Größe\r\n\r\nzweiter Absatz', 'utf-16le')])
    expect(texts((await parseText('utf16.txt', utf16)).blocks)).toEqual(['Größe', 'zweiter Absatz'])
  })

  it('reads JSON and YAML as text', async () => {
    const json = await parseText('data.json', '{"sku": "GRD-8842", "price": 12.5}\n', 'application/json')
    expect(texts(json.blocks)).toEqual(['{"sku": "GRD-8842", "price": 12.5}'])
    const yaml = await parseText('conf.yaml', 'name: lantern\nport: 8080\n\n# second\nmode: fast\n', 'application/yaml')
    expect(texts(yaml.blocks)).toEqual(['name: lantern\nport: 8080', '# second\nmode: fast'])
  })

  it('returns no blocks for an empty or blank file', async () => {
    expect((await parseText('empty.txt', '')).blocks).toEqual([])
    expect((await parseText('blank.txt', ' \n\t\n ')).blocks).toEqual([])
  })

  it('splits an endless paragraph at line boundaries', async () => {
    const line = 'a log line with some words in it\n'
    const doc = await parseText('log.txt', line.repeat(3000))
    expect(doc.blocks.length).toBeGreaterThan(3)
    for (const text of texts(doc.blocks)) {
      expect(text.length).toBeLessThanOrEqual(20_000)
      expect(text.startsWith('a log line')).toBe(true)
    }
    expect(texts(doc.blocks).join('\n')).toBe(line.repeat(3000).trim())
  })

  it('splits paragraphs the same however the text is chunked', () => {
    const source = 'one\r\ntwo\r\n\r\nthree\r\n\r\nfour'
    const whole = new ParagraphSplitter()
    whole.write(source)
    const byChar = new ParagraphSplitter()
    for (const ch of source) byChar.write(ch)
    expect(texts(byChar.end())).toEqual(texts(whole.end()))
    expect(texts(new ParagraphSplitter().end())).toEqual([])
  })

  it('keeps the text content of XML: records as paragraphs, mixed content as lines', async () => {
    const xml = `<?xml version="1.0" encoding="UTF-8"?>
<!-- a comment -->
<factbook>
  <country code="fr"><name>France</name><capital>Paris</capital></country>
  <country code="ca"><name>Canada</name><capital>Ottawa &amp; more</capital></country>
  <note>A <b>bold</b> claim &#233;t&#xE9; &unknown; <![CDATA[<raw> & text]]></note>
</factbook>`
    const doc = await parseText('factbook.xml', xml, 'application/xml')
    expect(texts(doc.blocks)).toEqual([
      'France\nParis',
      'Canada\nOttawa & more',
      'A bold claim été &unknown; <raw> & text',
    ])
  })

  it('does not expand entities: a billion-laughs file stays tiny, external entities are never read', async () => {
    const levels = ['<!ENTITY lol0 "lol">']
    for (let i = 1; i < 10; i++) levels.push(`<!ENTITY lol${i} "${`&lol${i - 1};`.repeat(10)}">`)
    const bomb = `<?xml version="1.0"?>\n<!DOCTYPE lolz [\n ${levels.join('\n ')}\n]>\n<lolz>&lol9;</lolz>\n`
    const doc = await parseText('bomb.xml', bomb, 'application/xml')
    expect(texts(doc.blocks)).toEqual(['&lol9;'])

    const xxe = `<?xml version="1.0"?>\n<!DOCTYPE r [<!ENTITY xxe SYSTEM "file:///etc/passwd"> <!ENTITY x "a>b">]>\n<r><v>&xxe;</v></r>`
    const read = await parseText('xxe.xml', xxe, 'text/xml')
    expect(texts(read.blocks)).toEqual(['&xxe;'])
    expect(JSON.stringify(read)).not.toContain('root:')
  })

  it('honours the encoding an XML declaration names when the bytes are not UTF-8', async () => {
    const xml = '<?xml version="1.0" encoding="ISO-8859-2"?><r><v>Łódź</v></r>'
    const doc = await parseText('pl.xml', iconv.encode(xml, 'iso-8859-2'), 'application/xml')
    expect(texts(doc.blocks)).toEqual(['Łódź'])
  })

  const dir = robustnessDir()
  it.skipIf(!dir)(
    'parses every txt/xml/json/rst/org in the robustness corpus or rejects it with an IngestError',
    async () => {
      const files = filesWithExtensions(dir as string, ['txt', 'xml', 'json', 'rst', 'org'])
      expect(files.length).toBeGreaterThan(10)
      const mimeOf = (path: string): string =>
        ({ '.xml': 'application/xml', '.json': 'application/json' })[extname(path)] ?? 'text/plain'
      const { parsed, rejected } = await realFilePass(textParser, files, mimeOf)
      expect(rejected).toEqual([])
      expect(parsed).toBe(files.length)
    },
  )
})

describe('XmlScanner', () => {
  const scan = (chunks: readonly string[]): XmlEvent[] => {
    const scanner = new XmlScanner()
    const events = chunks.flatMap((chunk) => scanner.write(chunk))
    return [...events, ...scanner.end()]
  }
  const merge = (events: readonly XmlEvent[]): XmlEvent[] =>
    events.reduce<XmlEvent[]>((out, event) => {
      const last = out.at(-1)
      if (event.type === 'text' && last?.type === 'text')
        out[out.length - 1] = { type: 'text', text: last.text + event.text }
      else out.push(event)
      return out
    }, [])

  const SOURCE =
    '<?xml version="1.0"?><!DOCTYPE d [<!ENTITY e "x>y">]><d a="1 > 0" b=\'q\'>t&amp;u<!-- c -> --><e/><![CDATA[a]]b]]></d>'

  it('emits opens with attributes, closes, decoded text and CDATA', () => {
    expect(merge(scan([SOURCE]))).toEqual([
      { type: 'open', name: 'd', attributes: { a: '1 > 0', b: 'q' } },
      { type: 'text', text: 't&u' },
      { type: 'open', name: 'e', attributes: {} },
      { type: 'close', name: 'e' },
      { type: 'text', text: 'a]]b' },
      { type: 'close', name: 'd' },
    ])
  })

  it('gives the same events however the input is cut', () => {
    expect(merge(scan([...SOURCE]))).toEqual(merge(scan([SOURCE])))
  })

  it('decodes only predefined entities and valid character references', () => {
    expect(decodeXmlText('&lt;&gt;&amp;&quot;&apos; &#65;&#x42; &#0; &#xD800; &nbsp; &custom;')).toBe(
      `<>&"' AB &#0; &#xD800; &nbsp; &custom;`,
    )
  })
})
