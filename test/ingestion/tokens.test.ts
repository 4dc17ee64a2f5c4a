import { describe, expect, it } from 'vitest'
import { countTokens, countTokensUncached } from '../../src/ingestion/chunking/tokens.js'

describe('countTokens', () => {
  it('counts exactly what js-tiktoken encodes, cached or not', () => {
    const texts = [
      '',
      'Net sales increased 3.5% to $32,765 million in fiscal 2018, compared with 2017.',
      "it's O'Neill's U.S.A. 1,234,567.89 — naïve café 東京タワー 🎉🎉",
      '<|endoftext|> special markers <|fim_prefix|> count as text',
      `a\r\n\r\n   b\t\tc${' '.repeat(40)}d`,
      'x'.repeat(300),
      'Ünïcödé ﬁnance ﬂows ½ ²³ ﬀ Ǆ',
    ]
    let seed = 7
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31
      return seed / 2 ** 31
    }
    for (let i = 0; i < 200; i++) {
      let text = ''
      for (let j = 0; j < 30; j++) text += String.fromCodePoint(Math.floor(random() * (random() < 0.6 ? 0x80 : 0x3100)))
      texts.push(text)
    }
    for (const text of texts) {
      // Twice: the second count comes from the cache.
      expect(countTokens(text)).toBe(countTokensUncached(text))
      expect(countTokens(text)).toBe(countTokensUncached(text))
    }
  })
})
