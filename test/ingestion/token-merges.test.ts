import { describe, expect, it } from 'vitest'
import { countTokens, countTokensUncached } from '../../src/ingestion/chunking/tokens.js'
import { seededRandom } from '../support/random.js'

/*
 * countTokens merges the bytes of a piece it has not seen yet by itself (looking up only the pairs
 * a merge changes): on words it has never met it must count what js-tiktoken encodes.
 */

// Runs from each: repeated letters make merges of equal rank (the leftmost must win).
const ALPHABETS = [
  'abcdefghijklmnopqrstuvwxyz',
  'aab',
  'ABCXYZ',
  'éèêëçñøåßæœ',
  'жзийклмнопрст',
  'αβγδεζηθ',
  '東京タワー日本語',
  '0123456789',
  '.,;:!?-$%()',
  '😀🎉👍',
  'ﬁﬂ½²³',
]

describe('token counts of unseen pieces', () => {
  it('count what js-tiktoken encodes for long and repetitive words', () => {
    const next = seededRandom(0xb9e)
    for (let i = 0; i < 3_000; i++) {
      const alphabet = Array.from(ALPHABETS[next(ALPHABETS.length)] as string)
      let word = ''
      for (let j = 1 + next(next(2) ? 8 : 40); j > 0; j--) word += alphabet[next(alphabet.length)]
      for (const text of [word, ` ${word}`, word.repeat(1 + next(4))]) {
        expect(countTokens(text), text).toBe(countTokensUncached(text))
      }
    }
  })

  it.each([
    'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa',
    '..........................',
    'abababababababababab',
    '0000000',
    '🎉🎉🎉🎉',
  ])('%j', (text) => {
    expect(countTokens(text)).toBe(countTokensUncached(text))
  })
})
