import { describe, expect, it } from 'vitest'
import { fold, tokenise } from '../../src/data-analysis/offline-planner/tokenise.js'

// The planner folds with the shared text folding (src/text/folding.ts), so that a question, a
// header and a cell fold alike whatever their Unicode form.

describe('the offline planner tokeniser', () => {
  it('folds as the shared analyser does, typographic quotes made plain', () => {
    expect(fold('Straße')).toBe('strasse')
    expect(fold('ﬁnal Café')).toBe('final cafe')
    expect(fold('l’âge')).toBe("l'age")
    expect(fold('“Paris”')).toBe('"paris"')
  })

  it('still tells capitalised words apart when NFKC splits a character into several words', () => {
    const tokens = tokenise('Is ½ of the books by Sapiens?')
    expect(tokens.map((t) => t.text)).toEqual(['is', '1', '2', 'of', 'the', 'books', 'by', 'sapiens'])
    expect(tokens.filter((t) => t.capitalized).map((t) => t.text)).toEqual(['sapiens'])
  })
})
