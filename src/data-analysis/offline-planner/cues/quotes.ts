import { quotedStrings, type Token, words } from '../tokenise.js'
import { phraseAt } from './phrases.js'
import type { QuotedSpan } from './types.js'

/** Where each quoted string of the question sits among its tokens. */
export function locateQuotes(question: string, tokens: readonly Token[]): QuotedSpan[] {
  const found: QuotedSpan[] = []
  for (const quoted of quotedStrings(question)) {
    const phrase = words(quoted)
    if (phrase.length === 0) continue
    for (let i = 0; i < tokens.length; i++) {
      if (phraseAt(tokens, i, phrase)) {
        found.push({ text: quoted, start: i, end: i + phrase.length - 1 })
        break
      }
    }
  }
  return found
}

/** The token indexes inside quotes: never read as cues. */
export function quotedIndexes(quoted: readonly QuotedSpan[]): Set<number> {
  const indexes = new Set<number>()
  for (const quote of quoted) for (let i = quote.start; i <= quote.end; i++) indexes.add(i)
  return indexes
}
