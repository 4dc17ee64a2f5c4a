import iconv from 'iconv-lite'
import { describe, expect, it } from 'vitest'
import { detectMimeType } from '../../src/ingestion/detection/file-types.js'
import {
  decodeFileStream,
  decodeText,
  detectFileEncoding,
  ENCODING_SAMPLE_BYTES,
  readTextFile,
  sniffTextEncoding,
} from '../../src/ingestion/detection/text-decoding.js'
import { tempFiles } from './text-formats-support.js'

const file = tempFiles()
const BOM_LE = Buffer.from([0xff, 0xfe])
const BOM_BE = Buffer.from([0xfe, 0xff])
const FRENCH = 'Le café coûte 3 € — « très bon », dit Jürgen.'
const RUSSIAN =
  'Однажды в студёную зимнюю пору я из лесу вышел; был сильный мороз. Гляжу, поднимается медленно в гору лошадка, везущая хворосту воз.'

describe('decodeText', () => {
  it('honours byte-order marks and strips them', () => {
    expect(decodeText(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(FRENCH)]))).toBe(FRENCH)
    expect(decodeText(Buffer.concat([BOM_LE, iconv.encode(FRENCH, 'utf-16le')]))).toBe(FRENCH)
    expect(decodeText(Buffer.concat([BOM_BE, iconv.encode(FRENCH, 'utf-16be')]))).toBe(FRENCH)
  })

  it('recognises UTF-16 without a BOM from its zero bytes', () => {
    expect(sniffTextEncoding(iconv.encode('Hello, world: plain text.', 'utf-16le'))).toBe('utf-16le')
    expect(sniffTextEncoding(iconv.encode('Hello, world: plain text.', 'utf-16be'))).toBe('utf-16be')
    expect(decodeText(iconv.encode(FRENCH, 'utf-16le'))).toBe(FRENCH)
  })

  it('reads valid UTF-8 as UTF-8, even when a charset is declared', () => {
    expect(decodeText(Buffer.from(FRENCH))).toBe(FRENCH)
    expect(decodeText(Buffer.from(FRENCH), { declaredCharset: 'iso-8859-1' })).toBe(FRENCH)
  })

  it('falls back to windows-1252 for Latin text that is not UTF-8', () => {
    const bytes = iconv.encode(FRENCH, 'windows-1252')
    expect(sniffTextEncoding(bytes)).toBe('windows-1252')
    expect(decodeText(bytes)).toBe(FRENCH)
    expect(decodeText(iconv.encode('Größe', 'latin1'))).toBe('Größe')
  })

  it('uses a declared charset for non-UTF-8 bytes, but not a false "utf-8" declaration', () => {
    const polish = iconv.encode('Łódź i Kraków, zażółć gęślą jaźń', 'iso-8859-2')
    expect(decodeText(polish, { declaredCharset: 'ISO-8859-2' })).toBe('Łódź i Kraków, zażółć gęślą jaźń')
    expect(decodeText(iconv.encode(FRENCH, 'windows-1252'), { declaredCharset: 'utf-8' })).toBe(FRENCH)
  })

  it('detects confident legacy charsets (Cyrillic) with jschardet', () => {
    expect(decodeText(iconv.encode(RUSSIAN, 'windows-1251'))).toBe(RUSSIAN)
    expect(decodeText(iconv.encode(RUSSIAN, 'cp866'))).toBe(RUSSIAN)
  })

  it('never throws on bad bytes, and says binary is not text', () => {
    const broken = Buffer.concat([Buffer.from('ok '), Buffer.from([0xc3, 0x28, 0xff, 0x00, 0x01]), Buffer.from(' end')])
    expect(() => decodeText(broken)).not.toThrow()
    expect(decodeText(broken)).toContain('ok ')
    expect(sniffTextEncoding(Buffer.from([0, 1, 2, 3, 254, 255, 0, 7]))).toBeNull()
    const noisy = Buffer.from(Array.from({ length: 4096 }, (_, i) => ((i * 37) % 255) + 1))
    expect(sniffTextEncoding(noisy)).toBeNull()
    expect(sniffTextEncoding(Buffer.alloc(0))).toBe('utf-8')
  })

  it('keeps UTF-8 with a few damaged bytes as UTF-8', () => {
    const damaged = Buffer.concat([Buffer.from('Größe, naïve, café, 5 €. '), Buffer.from([0xe9]), Buffer.from(' Ende')])
    expect(sniffTextEncoding(damaged)).toBe('utf-8')
    expect(decodeText(damaged)).toBe('Größe, naïve, café, 5 €. \ufffd Ende')
  })

  it('accepts a multi-byte character cut at the end of a sample', () => {
    const bytes = Buffer.from('café')
    expect(sniffTextEncoding(bytes.subarray(0, bytes.length - 1), { truncated: true })).toBe('utf-8')
  })
})

describe('file decoding', () => {
  it('streams across chunk boundaries without breaking multi-byte characters', async () => {
    const text = `${'a'.repeat(ENCODING_SAMPLE_BYTES - 1)}é€${'ü'.repeat(50_000)}`
    const utf8 = await file('boundary-utf8.txt', text)
    expect(await readTextFile(utf8)).toBe(text)
    const utf16 = await file('boundary-utf16.txt', Buffer.concat([BOM_LE, iconv.encode(text, 'utf-16le')]))
    const pieces: string[] = []
    for await (const piece of decodeFileStream(utf16, await detectFileEncoding(utf16))) pieces.push(piece)
    expect(pieces.length).toBeGreaterThan(1)
    expect(pieces.join('')).toBe(text)
  })

  it('looks at the end of a file whose start is plain ASCII', async () => {
    const text = `${'plain ascii line\n'.repeat(8000)}un café à Besançon\n`
    const path = await file('late-latin1.txt', iconv.encode(text, 'windows-1252'))
    expect(await detectFileEncoding(path)).toBe('windows-1252')
    expect(await readTextFile(path)).toBe(text)
  })
})

describe('upload sniffing (detectMimeType)', () => {
  const sniff = async (name: string, bytes: Buffer | string) => {
    const path = await file(`sniff-${name || 'noname'}`, bytes)
    return detectMimeType(path, name, Buffer.byteLength(bytes))
  }
  const EMAIL =
    'From: Ann <ann@example.com>\r\nTo: bob@example.com\r\nSubject: Hi\r\nDate: Fri, 15 Mar 2024 10:00:00 +0000\r\n\r\nBody\r\n'

  it('recognises non-UTF-8 text as text', async () => {
    expect(await sniff('notes', iconv.encode(FRENCH, 'windows-1252'))).toBe('text/plain')
    expect(await sniff('prices.csv', iconv.encode('a;b\n1,5;é\n', 'latin1'))).toBe('text/csv')
    expect(await sniff('utf16.txt', iconv.encode('UTF-16 text without a byte-order mark', 'utf-16le'))).toBe(
      'text/plain',
    )
    // file-type takes FF FE for an MPEG audio frame.
    expect(await sniff('bom16.md', Buffer.concat([BOM_LE, iconv.encode('# Title\n\ntext', 'utf-16le')]))).toBe(
      'text/markdown',
    )
    expect(await sniff('blob.bin', Buffer.from([0, 1, 2, 3, 254, 255, 0, 7]))).toBe('application/octet-stream')
  })

  it('recognises RFC 822 messages by their headers when the name does not say another format', async () => {
    expect(await sniff('message', EMAIL)).toBe('message/rfc822')
    expect(await sniff('saved.txt', EMAIL)).toBe('message/rfc822')
    expect(await sniff('mail.eml', EMAIL)).toBe('message/rfc822')
    expect(await sniff('utf16-mail', Buffer.concat([BOM_LE, iconv.encode(EMAIL, 'utf-16le')]))).toBe('message/rfc822')
    expect(await sniff('notes.md', EMAIL)).toBe('text/markdown')
    expect(await sniff('memo', 'Subject: one header only\n\nthen text\n')).toBe('text/plain')
    expect(await sniff('prose', 'From: the start, this is prose.\nIt continues here.\n')).toBe('text/plain')
  })

  it('keeps XHTML named .html as HTML', async () => {
    expect(await sniff('page.html', '<?xml version="1.0"?>\n<html><body><p>x</p></body></html>')).toBe('text/html')
  })
})

/** A real 2×1 24-bit BMP: `BM`, its size, reserved zeros, pixel offset 54, a 40-byte DIB header. */
function bmp(): Buffer {
  const bytes = Buffer.alloc(62)
  bytes.write('BM', 0, 'latin1')
  bytes.writeUInt32LE(62, 2)
  bytes.writeUInt32LE(54, 10)
  bytes.writeUInt32LE(40, 14)
  bytes.writeInt32LE(2, 18)
  bytes.writeInt32LE(1, 22)
  bytes.writeUInt16LE(1, 26)
  bytes.writeUInt16LE(24, 28)
  bytes.writeUInt32LE(8, 34)
  return bytes
}

/** An ISO base media file's first box: size, `ftyp`, brand `qt  `, version, compatible brand. */
function quickTime(): Buffer {
  const box = Buffer.alloc(20)
  box.writeUInt32BE(20, 0)
  box.write('ftypqt  ', 4, 'latin1')
  box.write('qt  ', 16, 'latin1')
  return Buffer.concat([box, Buffer.from([0, 0, 0, 8]), Buffer.from('free', 'latin1')])
}

/** An ID3v2.4 tag (header with its size in 7-bit bytes, 10 bytes of padding), then two MPEG audio frames. */
function id3(): Buffer {
  const frame = Buffer.concat([Buffer.from([0xff, 0xfb, 0x90, 0x64]), Buffer.alloc(413)])
  return Buffer.concat([
    Buffer.from('ID3', 'latin1'),
    Buffer.from([4, 0, 0, 0, 0, 0, 10]),
    Buffer.alloc(10),
    frame,
    frame,
  ])
}

describe('upload sniffing: text is text', () => {
  const sniff = async (name: string, bytes: Buffer | string, declared?: string) => {
    const path = await file(`text-${name || 'noname'}-${Math.random()}`, bytes)
    return detectMimeType(path, name, Buffer.byteLength(bytes), declared)
  }
  const ABSTRACT =
    'BM25 and its variants remain strong baselines for ranking abstracts; we compare them with dense retrievers ' +
    'on five collections and find the gap small when documents are short.'

  it('reads text that opens with a weak signature as text, by name or by declared type', async () => {
    expect(await sniff('abstract.txt', ABSTRACT)).toBe('text/plain')
    expect(await sniff('abstract', ABSTRACT, 'text/plain')).toBe('text/plain')
    expect(await sniff('abstract.dat', ABSTRACT, 'text/plain; charset=utf-8')).toBe('text/plain')
    const moov = 'moovement of the data: a note on ISO boxes and what readers take for a QuickTime file.'
    expect(await sniff('note.txt', `1234${moov}`)).toBe('text/plain')
    expect(await sniff('tags.md', "ID3 tags hold a song's title and artist.")).toBe('text/markdown')
    expect(await sniff('readme.txt', 'MZ is the signature of DOS executables, after Mark Zbikowski.')).toBe(
      'text/plain',
    )
    expect(await sniff('riff.txt', 'RIFF is a container format: chunks with a four-byte id and a size.')).toBe(
      'text/plain',
    )
  })

  it('reads such text as text even with no telling name: the weak signature lacks its header fields', async () => {
    expect(await sniff('abstract', ABSTRACT)).toBe('text/plain')
    expect(await sniff('note', `1234moov${'e'.repeat(40)} and more words of a note`)).toBe('text/plain')
    expect(await sniff('tags', "ID3 tags hold a song's title and artist.")).toBe('text/plain')
  })

  it('still knows the real formats behind those signatures', async () => {
    expect(await sniff('image', bmp())).toBe('image/bmp')
    expect(await sniff('picture.txt', bmp())).toBe('image/bmp')
    expect(await sniff('clip', quickTime())).toBe('video/quicktime')
    expect(await sniff('song', id3())).toBe('audio/mpeg')
    expect(await sniff('document.txt', Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj\n', 'latin1'))).toBe(
      'application/pdf',
    )
  })

  it('reads the plain-text kinds as text: source code, logs, reStructuredText, Org, NDJSON, YAML', async () => {
    expect(await sniff('main.py', 'import sys\n\nprint(sys.argv)\n')).toBe('text/plain')
    expect(await sniff('App.java', 'public class App { }\n')).toBe('text/plain')
    expect(await sniff('service.log', '2026-11-27 10:00:01 INFO started\n')).toBe('text/plain')
    expect(await sniff('guide.rst', 'Guide\n=====\n\nText.\n')).toBe('text/plain')
    expect(await sniff('notes.org', '* Heading\nText.\n')).toBe('text/plain')
    expect(await sniff('events.ndjson', '{"a":1}\n{"a":2}\n')).toBe('application/x-ndjson')
    expect(await sniff('config.yaml', 'key: value\n')).toBe('application/yaml')
    expect(await sniff('data.json', '{"BM": 25}')).toBe('application/json')
    expect(await sniff('script', '#!/bin/sh\necho hi\n', 'application/x-sh')).toBe('text/plain')
  })

  it('reads text in UTF-8, UTF-16 and UTF-32 with or without a BOM, and in Latin-1', async () => {
    const text = `${FRENCH} ${ABSTRACT}`
    const encodings: Array<[string, Buffer]> = [
      ['utf-8', Buffer.from(text)],
      ['utf-8 bom', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text)])],
      ['utf-16le', iconv.encode(text, 'utf-16le')],
      ['utf-16be', iconv.encode(text, 'utf-16be')],
      ['utf-16le bom', Buffer.concat([BOM_LE, iconv.encode(text, 'utf-16le')])],
      ['utf-16be bom', Buffer.concat([BOM_BE, iconv.encode(text, 'utf-16be')])],
      ['utf-32le', iconv.encode(text, 'utf-32le', { addBOM: false })],
      ['utf-32be', iconv.encode(text, 'utf-32be', { addBOM: false })],
      [
        'utf-32le bom',
        Buffer.concat([Buffer.from([0xff, 0xfe, 0, 0]), iconv.encode(text, 'utf-32le', { addBOM: false })]),
      ],
      [
        'utf-32be bom',
        Buffer.concat([Buffer.from([0, 0, 0xfe, 0xff]), iconv.encode(text, 'utf-32be', { addBOM: false })]),
      ],
      ['latin-1', iconv.encode(text.replace('€', 'EUR').replace('—', '-'), 'latin1')],
    ]
    for (const [label, bytes] of encodings) {
      expect(await sniff('paper.txt', bytes), label).toBe('text/plain')
      expect(await sniff('paper', bytes), `${label}, no name`).toBe('text/plain')
      expect(decodeText(bytes), label).toContain('dense retrievers')
    }
  })
})
