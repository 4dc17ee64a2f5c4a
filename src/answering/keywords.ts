import { analyzeTokens } from '../text/analysis.js'

/** Most keywords reported for one question. */
export const MAX_KEYWORDS = 12

/**
 * The significant terms of a question as the user wrote them (surface forms, lower-cased): the
 * words that survive analysis in `language` (stop words removed), one per analysed term, in
 * question order. These are exactly the words retrieval searches for.
 */
export function extractKeywords(question: string, language: string): string[] {
  const seen = new Set<string>()
  const keywords: string[] = []
  for (const token of analyzeTokens(question, language)) {
    if (seen.has(token.term)) continue
    seen.add(token.term)
    keywords.push(token.surface.toLowerCase())
    if (keywords.length === MAX_KEYWORDS) break
  }
  return keywords
}
