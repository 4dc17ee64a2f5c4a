import type { AnswerInput } from '../types.js'

/**
 * How much of the question the sources hold at all: the share of its terms' weight in the whole
 * knowledge base (retrieval's idf: the words of an instruction every filing uses weigh little)
 * found in some source; words no chunk of the knowledge base has are left out. Without retrieval's
 * weights, every term weighs the same.
 */
export function presence(input: AnswerInput, questionTerms: readonly string[], has: (term: string) => boolean): number {
  const query = input.query
  let found = 0
  let total = 0
  if (query && query.weights.length === query.terms.length && query.terms.length > 0) {
    query.terms.forEach((term, index) => {
      const weight = query.weights[index] ?? 0
      // A word no chunk of the knowledge base has (an instruction's, `fy2023` written as `fiscal
      // 2023`) can be in no source: it says nothing of these sources in particular.
      if (query.frequencies[index] === 0) return
      total += weight
      if (has(term)) found += weight
    })
  } else {
    for (const term of questionTerms) {
      total += 1
      if (has(term)) found += 1
    }
  }
  return total > 0 ? found / total : 0
}
