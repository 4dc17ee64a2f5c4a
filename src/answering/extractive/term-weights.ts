import type { AnalysedQuery } from '../../retrieval/types.js'

/**
 * How much each question term tells an answer apart, for the terms some source that may answer
 * has (`has`): its idf over the whole knowledge base, as retrieval weighed it. Among the few dozen
 * passages read, a word of the question's instruction ("answer the following question to the best
 * of your abilities") is as rare as the thing asked and would weigh as much; over the knowledge
 * base it is common, and weighs little. A term retrieval did not weigh (no query: only the bot's
 * default documents were read) falls back to its rarity among the passages read (`localIdf`).
 */
export function termWeights(
  terms: readonly string[],
  query: AnalysedQuery | undefined,
  has: (term: string) => boolean,
  localIdf: (term: string) => number,
): Map<string, number> {
  const global = new Map<string, number>()
  if (query && query.weights.length === query.terms.length) {
    for (const [index, term] of query.terms.entries()) global.set(term, query.weights[index] ?? 0)
  }
  const weight = new Map<string, number>()
  for (const term of terms) {
    if (has(term)) weight.set(term, global.get(term) ?? localIdf(term))
  }
  return weight
}
