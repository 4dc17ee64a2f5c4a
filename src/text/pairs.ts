import { type AnalyzedToken, analyzeTokens } from './analysis.js'

/**
 * A text's terms, and the pairs of terms that follow each other in it, one word or stop words apart
 * at most (`total current`, `current asset`), from one analysis. A pair is `a b`, in text order.
 */
export function termsAndPairs(text: string, language: string): { terms: Set<string>; pairs: Set<string> } {
  const tokens = analyzeTokens(text, language)
  return { terms: new Set(tokens.map((token) => token.term)), pairs: pairsOf(tokens) }
}

function pairsOf(tokens: readonly AnalyzedToken[]): Set<string> {
  const pairs = new Set<string>()
  for (let i = 0; i + 1 < tokens.length; i++) {
    const a = tokens[i] as AnalyzedToken
    // The next word's first term (a name's extra terms share its position).
    let j = i + 1
    while (j < tokens.length && (tokens[j] as AnalyzedToken).position === a.position) j++
    const b = tokens[j]
    if (b && b.position - a.position <= 2 && b.term !== a.term) pairs.add(`${a.term} ${b.term}`)
  }
  return pairs
}
