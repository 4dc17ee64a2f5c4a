import type { Token } from '../tokenise.js'

export function phraseAt(tokens: readonly Token[], index: number, phrase: readonly string[]): boolean {
  return phrase.every((word, offset) => tokens[index + offset]?.text === word)
}

/** The first token where one of the phrases starts, between `from` and `to`, or -1. */
export function findPhrase(tokens: readonly Token[], phrases: readonly string[], from = 0, to = tokens.length): number {
  for (let i = from; i < to; i++) {
    for (const phrase of phrases) if (phraseAt(tokens, i, phrase.split(' '))) return i
  }
  return -1
}

/** The token indexes from `start` to `end`, both included. */
export function span(start: number, end: number): number[] {
  const indexes: number[] = []
  for (let i = start; i <= end; i++) indexes.push(i)
  return indexes
}
