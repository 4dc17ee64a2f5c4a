import { describe, expect, it } from 'vitest'
import { sentenceSegments, wordSegments } from '../../src/text/segments.js'

const words = new Intl.Segmenter('en', { granularity: 'word' })
const sentences = new Intl.Segmenter(undefined, { granularity: 'sentence' })

function whole(segmenter: Intl.Segmenter, text: string): string[] {
  return [...segmenter.segment(text)].map((s) => `${s.index}|${s.segment}|${s.isWordLike === true}`)
}
function sliced(segments: Iterable<{ index: number; segment: string; isWordLike: boolean }>): string[] {
  return [...segments].map((s) => `${s.index}|${s.segment}|${s.isWordLike}`)
}

const TEXTS: Record<string, string> = {
  'a table as text': Array.from({ length: 900 }, (_, i) => `Jessica Wilson,${i},59 kg,Bench Press,4.5%,1,000`).join(
    '\n',
  ),
  'prose on one line': 'The lift was done. Then it went on, e.g. Tom said. U.S. Army report, l’homme 4,5 €. '.repeat(
    400,
  ),
  'prose with paragraphs': 'Über straße café naïve. Weiter geht es?\n'.repeat(800),
  'Japanese without spaces': '「日本語です。」と言った。日本語のテキストです。'.repeat(900),
}

describe('segmenting long texts in slices', () => {
  it.each(Object.entries(TEXTS))('gives the same words as one pass over %s', (_, text) => {
    expect(text.length).toBeGreaterThan(10_000)
    expect(sliced(wordSegments(words, text))).toEqual(whole(words, text))
  })

  it.each(Object.entries(TEXTS))('gives the same sentences as one pass over %s', (_, text) => {
    expect(sliced(sentenceSegments(sentences, text))).toEqual(whole(sentences, text))
  })

  it('keeps offsets into the whole text and handles empty and short texts', () => {
    expect([...wordSegments(words, '')]).toEqual([])
    const text = `${'x '.repeat(3000)}end`
    const last = [...wordSegments(words, text)].at(-1)
    expect(last).toEqual({ segment: 'end', index: text.length - 3, isWordLike: true })
  })
})
