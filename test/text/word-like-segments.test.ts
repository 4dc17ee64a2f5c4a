import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { SUPPORTED_LANGUAGES } from '../../src/text/languages.js'
import { followsRootWordRules, forEachWordLike, isPlainText, wordSegments } from '../../src/text/segments.js'
import { seededRandom } from '../support/random.js'

/*
 * forEachWordLike must give exactly the word-like segments of wordSegments (what term analysis
 * used before, so indexes keep their terms): the reference here is always Intl.Segmenter.
 */

const wordSegmenter = (locale: string | undefined) => new Intl.Segmenter(locale, { granularity: 'word' })
const en = wordSegmenter('en')

type Segments = { segment: string; index: number }[]
const fast = (segmenter: Intl.Segmenter, text: string): Segments => {
  const segments: Segments = []
  forEachWordLike(segmenter, text, (segment, index) => segments.push({ segment, index }))
  return segments
}
const reference = (segmenter: Intl.Segmenter, text: string): Segments =>
  [...wordSegments(segmenter, text)].filter((s) => s.isWordLike).map(({ segment, index }) => ({ segment, index }))

// Weighted toward what joins or splits words; the last line is outside the hand-made alphabet.
const ALPHABET = [
  ...'aaabbxyzZQ',
  ...'00112345789',
  ..."..,,;;::''’’‘__--//",
  ...'  \t\n\r',
  ...'éÉçßøŁžжЖλΣµªº¸ˆ˂',
  ...'·\u00a0\u202f\u2024\u2044\u2027\u037e\u0387"#%€©+()',
  '\u00ad',
  '\u0301',
  '\u200d',
  '\u200b',
  '中',
  'ア',
  'א',
  'ก',
  '😀',
  '가',
  '\u0660',
]
const OUTSIDE = 11

function randomText(next: (n: number) => number, length: number, outsideChance: number): string {
  let text = ''
  for (let i = 0; i < length; i++) {
    const inside = next(1000) >= outsideChance
    text += inside ? ALPHABET[next(ALPHABET.length - OUTSIDE)] : ALPHABET[ALPHABET.length - OUTSIDE + next(OUTSIDE)]
  }
  return text
}

const LOCALES: (string | undefined)[] = [...SUPPORTED_LANGUAGES, 'nb', 'en-GB', undefined]

describe('word-like segments without Intl.Segmenter', () => {
  it.each([
    ["don't stop", ["don't", 'stop']],
    ['l’homme d‘x', ['l’homme', 'd‘x']],
    ['e.g. U.S.A. 601.10 1,000 1;2 3.4.5', ['e.g', 'U.S.A', '601.10', '1,000', '1;2', '3.4.5']],
    // ICU keeps the colon as MidLetter: it joins letters, never digits.
    ['a:b 12:30 a·b 1·2', ['a:b', '12', '30', 'a·b', '1', '2']],
    ['a.1 1.a a1.2 C192 x,y', ['a', '1', '1', 'a', 'a1.2', 'C192', 'x', 'y']],
    ['a..b 1,,2 a. .a', ['a', 'b', '1', '2', 'a', 'a']],
    // A lone _ is not word-like; __ and any _ joined to a letter or digit are.
    ['_ __ a_b _1 x__ _._', ['__', 'a_b', '_1', 'x__']],
    ['Straße naïve Ærø ЖЖ λόγος µm', ['Straße', 'naïve', 'Ærø', 'ЖЖ', 'λόγος', 'µm']],
    ['4,5 € — 10\u00a0000 – “quoted”', ['4,5', '10', '000', 'quoted']],
  ])('%j', (text, words) => {
    expect(fast(en, text).map((s) => s.segment)).toEqual(words)
    expect(fast(en, text)).toEqual(reference(en, text))
  })

  it.each(LOCALES)('uses the hand-made rules for locale %s', (locale) => {
    expect(followsRootWordRules(wordSegmenter(locale))).toBe(true)
  })

  it('keeps Intl.Segmenter for a locale with its own word rules, and for other granularities', () => {
    const posix = wordSegmenter('en-US-u-va-posix')
    expect(followsRootWordRules(posix)).toBe(false)
    expect(fast(posix, 'e.g. a:b').map((s) => s.segment)).toEqual(['e', 'g', 'a', 'b'])
    expect(followsRootWordRules(wordSegmenter('ja'))).toBe(false)
    expect(followsRootWordRules(new Intl.Segmenter('en', { granularity: 'sentence' }))).toBe(false)
  })

  it('treats every character it segments by hand as Intl.Segmenter does, next to each word-break class', () => {
    // One of each class forEachWordLike tells apart, plus space and line break.
    const neighbours = ['a', '1', ':', ',', '.', "'", '_', ' ', '#', '\n']
    let plain = 0
    for (let code = 0; code <= 0xffff; code++) {
      const char = String.fromCharCode(code)
      if (!isPlainText(char)) continue
      plain++
      const contexts: string[] = []
      for (const x of neighbours) {
        for (const y of neighbours) contexts.push(x + char + y, x + y + char, char + x + y)
      }
      // Line breaks always end a word, so the contexts can share one text.
      const text = contexts.join('\n')
      const got = fast(en, text)
      const expected = reference(en, text)
      if (JSON.stringify(got) !== JSON.stringify(expected)) expect({ code, got }).toEqual({ code, got: expected })
    }
    expect(plain).toBeGreaterThan(1500)
  })

  it.each(LOCALES)('gives the same words as Intl.Segmenter on random short texts, locale %s', (locale) => {
    const segmenter = wordSegmenter(locale)
    const next = seededRandom(0x5eed)
    for (let i = 0; i < 4000; i++) {
      const text = randomText(next, 1 + next(30), 15)
      const got = fast(segmenter, text)
      const expected = reference(segmenter, text)
      if (JSON.stringify(got) !== JSON.stringify(expected)) expect({ text, got }).toEqual({ text, got: expected })
    }
  })

  it('gives the same words on long texts mixing slices by hand and slices by Intl.Segmenter', () => {
    const next = seededRandom(29)
    for (let i = 0; i < 20; i++) {
      // Long enough for several slices; rare outside characters send only some slices to ICU.
      const text = randomText(next, 20_000 + next(20_000), 1)
      expect(fast(en, text)).toEqual(reference(en, text))
    }
  })

  const dataDirectory = ['/work/shared/data', resolve(process.cwd(), '../shared/data')]
    .map((directory) => join(directory, 'parser-robustness'))
    .find((directory) => existsSync(directory))
  it.skipIf(dataDirectory === undefined)('gives the same words on the text files of parser-robustness', () => {
    const files: string[] = []
    const walk = (directory: string) => {
      for (const name of readdirSync(directory)) {
        const path = join(directory, name)
        if (statSync(path).isDirectory()) walk(path)
        else if (/\.(txt|md|csv|html|xml|eml)$/.test(name)) files.push(path)
      }
    }
    walk(dataDirectory as string)
    expect(files.length).toBeGreaterThan(0)
    for (const file of files) {
      const text = readFileSync(file, 'utf8').slice(0, 100_000)
      expect(fast(en, text), file).toEqual(reference(en, text))
    }
  })
  if (dataDirectory === undefined) console.info('parser-robustness data not found: the real-text check is skipped')
})
