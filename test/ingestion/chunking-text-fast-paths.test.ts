import { describe, expect, it } from 'vitest'
import { measure } from '../../src/ingestion/chunking/text.js'
import { countTokens } from '../../src/ingestion/chunking/tokens.js'
import { cleanText, oneLine } from '../../src/lib/whitespace.js'
import { seededRandom } from '../support/random.js'

/*
 * cleanText and oneLine skip their regexes on text that is tidy already, measure finds long runs
 * without one and stops counting past its budget: they must give exactly what the reference
 * implementations below give on any text (measure: the count when it fits, else infinity).
 */

const referenceCleanText = (text: string): string =>
  text
    .replace(/\r\n?/g, '\n')
    .replace(/[^\S\n]+/g, ' ')
    .replace(/ ?\n ?/g, '\n')
    .replace(/\n\s*\n+/g, '\n')
    .trim()
const referenceOneLine = (text: string): string => text.replace(/\s+/g, ' ').trim()
/** What measure gave before (an exact count past maxTokens too), and what it gives now. */
const countedMeasure = (text: string, maxTokens: number): number =>
  text.length > maxTokens * 8 || /\S{101}/.test(text) ? Number.POSITIVE_INFINITY : countTokens(text)
const referenceMeasure = (text: string, maxTokens: number): number => {
  const tokens = countedMeasure(text, maxTokens)
  return tokens <= maxTokens ? tokens : Number.POSITIVE_INFINITY
}

function expectSame(text: string): void {
  const got = [cleanText(text), oneLine(text)]
  const expected = [referenceCleanText(text), referenceOneLine(text)]
  if (got[0] !== expected[0] || got[1] !== expected[1]) expect({ text, got }).toEqual({ text, got: expected })
}

// Every kind of whitespace (\s), often, among letters and a lone surrogate.
const ALPHABET = [
  ...'abc.',
  ...'     \n\n\r\t\v\f\u00a0\u1680\u2000\u200a\u2028\u2029\u202f\u205f\u3000\ufeff',
  '\u200b',
  '\ud800',
]

describe('chunk text fast paths', () => {
  it.each([
    'tidy text\nover two lines',
    ' leading',
    'trailing\n',
    'two  spaces',
    'space \nbefore a line break',
    'blank\n\nline',
    'tab\there',
    'crlf\r\nline',
    'no\u00a0break',
    '',
    ' ',
  ])('%j', (text) => expectSame(text))

  it('treats every code unit as the regexes do, alone and next to spaces and line feeds', () => {
    for (let code = 0; code <= 0xffff; code++) {
      const char = String.fromCharCode(code)
      for (const text of [
        char,
        `a${char}b`,
        `a ${char}b`,
        `a${char} b`,
        `a\n${char}b`,
        `a${char}\nb`,
        `${char}a`,
        `a${char}`,
      ]) {
        expectSame(text)
      }
      const run = `${'x'.repeat(50)}${char}${'x'.repeat(50)}`
      if (measure(run, 400) !== referenceMeasure(run, 400)) expect({ code }).toEqual({ code, measure: 'differs' })
    }
  })

  it('cleans random texts as the regexes do', () => {
    const next = seededRandom(0x7e47)
    for (let i = 0; i < 50_000; i++) {
      let text = ''
      for (let j = 1 + next(12); j > 0; j--) text += ALPHABET[next(ALPHABET.length)]
      expectSame(text)
    }
  })

  it('measures a run without spaces as the regex finds it', () => {
    for (const length of [99, 100, 101, 102]) {
      for (const space of [' ', '\n', '\u00a0', '\u3000', '\u200b']) {
        const texts = [
          'x'.repeat(length),
          `a${space}${'x'.repeat(length)}${space}b`,
          `${'x'.repeat(length / 2)}${space}${'y'.repeat(length)}`,
        ]
        for (const text of texts) expect(measure(text, 400), JSON.stringify(text)).toBe(referenceMeasure(text, 400))
      }
    }
    expect(measure('word '.repeat(100), 40)).toBe(Number.POSITIVE_INFINITY)
  })

  it('counts a text that fits its budget exactly, and stops counting one that does not', () => {
    const next = seededRandom(0x3ea5)
    const words = ['Net', 'sales', 'rose', '3.5%', 'to', '$32,765', 'million', '—', 'naïve', '東京', '😀', "it's", '\n']
    for (let i = 0; i < 5_000; i++) {
      const text = Array.from({ length: 1 + next(60) }, () => words[next(words.length)]).join(next(4) ? ' ' : '  ')
      const tokens = countTokens(text)
      for (const maxTokens of [tokens - 1, tokens, tokens + 1, 1 + next(100)]) {
        expect(measure(text, maxTokens), `${text} ${maxTokens}`).toBe(referenceMeasure(text, maxTokens))
      }
    }
  })
})
