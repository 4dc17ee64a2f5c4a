import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { join, resolve } from 'node:path'
import cl100k from 'js-tiktoken/ranks/cl100k_base'
import { describe, expect, it } from 'vitest'
import { handMadePieceEnd, pieces } from '../../src/ingestion/chunking/pre-tokenizer.js'
import { countTokens, countTokensUncached } from '../../src/ingestion/chunking/tokens.js'
import { seededRandom } from '../support/random.js'

/*
 * pieces() must split every text exactly as cl100k_base's regex does (token counts, and so every
 * chunk, depend on it): the reference here is always the regex.
 */

const PIECES = new RegExp(cl100k.pat_str, 'gu')
const reference = (text: string): string[] => text.match(PIECES) ?? []

function expectSamePieces(text: string): void {
  const got = pieces(text)
  const expected = reference(text)
  // One expect per text would be slow over hundreds of thousands of texts.
  if (got.length !== expected.length || got.some((piece, i) => piece !== expected[i])) {
    expect({ text, got }).toEqual({ text, got: expected })
  }
}

// Weighted toward what starts, joins or ends pieces; the last ones are surrogates (astral letters,
// numbers and symbols, lone halves), which the regex handles.
const ALPHABET = [
  ...'aaabbxyzZQsStTdDmMrReEvVlL',
  ...'0011234789',
  ..."'''''..,,;;::--$%()“”—",
  ...'    \t\n\n\r\r',
  ...'éÉßжЖλΣ東京ﬁ½²٣\u00a0\u2028\u3000\u200b\u00ad\u0301\u000b\u001c',
  '😀',
  '𝐀',
  '𝟏',
  '\ud800',
  '\udc00',
]
const SURROGATES = 5

function randomText(next: (n: number) => number, length: number, surrogateChance: number): string {
  let text = ''
  for (let i = 0; i < length; i++) {
    const surrogate = next(1000) < surrogateChance
    text += surrogate
      ? ALPHABET[ALPHABET.length - SURROGATES + next(SURROGATES)]
      : ALPHABET[next(ALPHABET.length - SURROGATES)]
  }
  return text
}

describe('cl100k pre-tokenizer by hand', () => {
  it.each([
    ["it's", ['it', "'s"]],
    ["O'Neill'S 'RE 'll 'x 'r", ['O', "'Neill", "'S", " '", 'RE', " '", 'll', " '", 'x', " '", 'r']],
    [
      'Net sales rose 3.5% to $32,765',
      ['Net', ' sales', ' rose', ' ', '3', '.', '5', '%', ' to', ' $', '32', ',', '765'],
    ],
    ['1234567', ['123', '456', '7']],
    ['a  b   c \n d\n\n\ne  ', ['a', ' ', ' b', '  ', ' c', ' \n', ' d', '\n\n\n', 'e', '  ']],
    ['end.\r\nNext ...\n\nx', ['end', '.\r\n', 'Next', ' ...\n\n', 'x']],
    ['\tword (paren) —dash', ['\tword', ' (', 'paren', ')', ' —', 'dash']],
    ['x😀y 𝐀𝐀 1𝟏 \ud800b', ['x', '😀y', ' 𝐀𝐀', ' ', '1𝟏', ' \ud800', 'b']],
  ])('%j', (text, expected) => {
    expect(pieces(text)).toEqual(expected)
    expect(pieces(text)).toEqual(reference(text))
  })

  it('splits by hand where there is no surrogate', () => {
    const text = "Net sales rose 3.5% to $32,765 — naïve café 東京タワー it's\n\n"
    for (let start = 0; start < text.length; ) {
      const end = handMadePieceEnd(text, start)
      expect(end).toBeGreaterThan(start)
      start = end
    }
    expect(handMadePieceEnd('😀', 0)).toBe(-1)
  })

  it('treats every BMP character as the regex does, next to each kind of character', () => {
    const neighbours = ['a', '1', ' ', '\n', '\r', '.', "'", '\u00a0', '😀']
    for (let code = 0; code <= 0xffff; code++) {
      if (code >= 0xd800 && code <= 0xdfff) continue
      const char = String.fromCharCode(code)
      const contexts: string[] = [char, char + char + char, ` ${char} ${char}  ${char}\n`]
      for (const x of neighbours) {
        for (const y of neighbours) contexts.push(x + char + y)
      }
      expectSamePieces(contexts.join(''))
    }
  })

  it('finds the contractions as the regex does, after any two ASCII characters', () => {
    for (let first = 0x20; first < 0x7f; first++) {
      for (let second = 0x20; second < 0x7f; second++) {
        const text = `'${String.fromCharCode(first, second)}`
        expectSamePieces(text)
        expectSamePieces(`x${text}x`)
      }
    }
  })

  it('splits every short text over a small alphabet as the regex does', () => {
    const symbols = ['a', 'S', 'e', 'l', '1', "'", ' ', '\n', '\r', '\t', '.', '\u00a0', '😀', '\ud800']
    let texts = ['']
    for (let length = 1; length <= 5; length++) {
      texts = texts.flatMap((text) => symbols.map((symbol) => text + symbol))
      for (const text of texts) expectSamePieces(text)
    }
  })

  it('splits random texts as the regex does, and counts their tokens as js-tiktoken does', () => {
    const next = seededRandom(0xc1100)
    for (let i = 0; i < 20_000; i++) {
      const text = randomText(next, 1 + next(40), next(2) ? 0 : 30)
      expectSamePieces(text)
      if (i % 10 === 0) expect(countTokens(text), text).toBe(countTokensUncached(text))
    }
    for (let i = 0; i < 10; i++) {
      const text = randomText(next, 20_000, 1)
      expectSamePieces(text)
      expect(countTokens(text)).toBe(countTokensUncached(text))
    }
  })

  const dataDirectory = ['/work/shared/data', resolve(process.cwd(), '../shared/data')]
    .map((directory) => join(directory, 'parser-robustness'))
    .find((directory) => existsSync(directory))
  it.skipIf(dataDirectory === undefined)('splits the text files of parser-robustness as the regex does', () => {
    const files: string[] = []
    const walk = (directory: string) => {
      for (const name of readdirSync(directory)) {
        const path = join(directory, name)
        if (statSync(path).isDirectory()) walk(path)
        else if (/\.(txt|md|csv|html|xml|eml|rst|org|json)$/.test(name)) files.push(path)
      }
    }
    walk(dataDirectory as string)
    expect(files.length).toBeGreaterThan(0)
    for (const file of files) expectSamePieces(readFileSync(file, 'utf8').slice(0, 200_000))
  })
  if (dataDirectory === undefined) console.info('parser-robustness data not found: the real-text check is skipped')
})
