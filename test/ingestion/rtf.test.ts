import { describe, expect, it } from 'vitest'
import { loadParserFor } from '../../src/ingestion/parsers/registry.js'
import { createRtfParser, rtfParser } from '../../src/ingestion/parsers/rtf.js'
import { allText, fakeOcr, withTimeout } from './ocr-support.js'
import {
  expectWellFormed,
  filesWithExtensions,
  inputFor,
  parsesOrRejectsCleanly,
  robustnessDir,
  tempFiles,
} from './text-formats-support.js'

const RTF = 'application/rtf'
const file = tempFiles()

describe('RTF parser', () => {
  it('reads paragraphs with formatting and escaped characters', async () => {
    const rtf = String.raw`{\rtf1\ansi\deff0{\fonttbl{\f0 Times;}}
{\pard Quarterly {\b summary} for the board\par}
{\pard Caf\'e9 prices rose by 3\'25.\par}
}`
    const doc = await rtfParser.parse(inputFor(await file('memo.rtf', rtf), RTF))
    expect(doc.pageCount).toBe(1)
    expect(doc.documentType).toBe('text')
    expect(doc.blocks).toEqual([
      { kind: 'paragraph', text: 'Quarterly summary for the board' },
      { kind: 'paragraph', text: 'Café prices rose by 3%.' },
    ])
  })

  it('never throws anything but an IngestError on malformed RTF', async () => {
    for (const [name, content] of [
      ['unclosed.rtf', String.raw`{\rtf1\ansi {\b never closed`],
      ['deep.rtf', `{\\rtf1 ${'{'.repeat(5000)}deep${'}'.repeat(5000)}}`],
      ['binary.rtf', Buffer.from([0x7b, 0x5c, 0x72, 0x74, 0x66, 0x31, 0x00, 0xff, 0xfe, 0x00, 0x7d])],
    ] as const) {
      const parsed = await withTimeout(
        parsesOrRejectsCleanly(async () => rtfParser.parse(inputFor(await file(name, content), RTF))),
        10_000,
        name,
      )
      if (!(parsed instanceof Error)) expectWellFormed(parsed)
    }
  })

  it('is the registered parser for RTF', async () => {
    expect(await loadParserFor(RTF)).toBe(rtfParser)
    expect(await loadParserFor('text/rtf')).toBe(rtfParser)
  })

  it('parses every real RTF of the corpus or rejects it with an IngestError, without hanging', async () => {
    const corpus = robustnessDir()
    if (!corpus) return
    const parser = createRtfParser(fakeOcr())
    const files = filesWithExtensions(corpus, ['rtf'])
    expect(files.length).toBeGreaterThan(5)
    let withText = 0
    for (const path of files) {
      const result = await withTimeout(
        parsesOrRejectsCleanly(() => parser.parse(inputFor(path, RTF))),
        20_000,
        path,
      )
      expect(result, path).not.toBeInstanceOf(Error)
      if (result instanceof Error) continue
      expectWellFormed(result)
      if (allText(result).length > 0) withText++
    }
    expect(withText).toBe(files.length)
  }, 60_000)
})
