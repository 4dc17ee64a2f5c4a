import {
  COMPARATOR_HEADS,
  DIMENSION_ADJECTIVES,
  type Direction,
  FRENCH_ADJECTIVES,
  FRENCH_SUPERLATIVE_ARTICLES,
  FRENCH_SUPERLATIVE_HEADS,
  MODE_NOUNS,
  MODE_WORDS,
  SUPERLATIVES,
} from '../lexicon/superlatives.js'
import { ordinalValue, type Token } from '../tokenise.js'
import { span } from './phrases.js'
import type { Reading, Superlative } from './types.js'

/** One superlative and how many tokens it takes (1 or 2). */
interface SuperlativeMatch {
  readonly superlative: Superlative
  readonly length: number
}

const opposite = (direction: Direction): Direction => (direction === 'desc' ? 'asc' : 'desc')

/** "le plus grand", "la moins chère", "le plus fréquent", "le plus de points" at `i` (the `plus`/`moins`). */
function frenchSuperlativeAt(tokens: readonly Token[], i: number): SuperlativeMatch | null {
  const head = FRENCH_SUPERLATIVE_HEADS[tokens[i]?.text ?? '']
  if (!head || !FRENCH_SUPERLATIVE_ARTICLES.has(tokens[i - 1]?.text ?? '')) return null
  const next = tokens[i + 1]?.text ?? ''
  const adjective = FRENCH_ADJECTIVES[next]
  if (MODE_WORDS.has(next)) return { superlative: { index: i, direction: head, mode: true, hints: [] }, length: 2 }
  if (adjective) {
    // "le moins petit" is the largest
    const direction: Direction = adjective === 'asc' ? opposite(head) : head
    const hints = DIMENSION_ADJECTIVES[next]?.words ?? []
    return { superlative: { index: i, direction, mode: false, hints }, length: 2 }
  }
  // "le plus de points": the most of a measure
  if (next === 'de' || next === 'd') {
    return { superlative: { index: i, direction: head, mode: false, hints: [] }, length: 2 }
  }
  return null
}

function superlativeAt(tokens: readonly Token[], i: number): SuperlativeMatch | null {
  const word = tokens[i]?.text ?? ''
  const next = tokens[i + 1]?.text ?? ''
  if ((word === 'less' || word === 'more') && next === 'likely') {
    return { superlative: { index: i, direction: word === 'more' ? 'desc' : 'asc', mode: false, hints: [] }, length: 2 }
  }
  const dimension = DIMENSION_ADJECTIVES[word]
  const direction = SUPERLATIVES[word]
  if ((word === 'most' || word === 'least') && MODE_WORDS.has(next)) {
    return { superlative: { index: i, direction: word === 'most' ? 'desc' : 'asc', mode: true, hints: [] }, length: 2 }
  }
  const french = frenchSuperlativeAt(tokens, i)
  if (french) return french
  if (word === 'mode' || (MODE_NOUNS.includes(word) && !direction)) {
    return { superlative: { index: i, direction: 'desc', mode: true, hints: [] }, length: 1 }
  }
  // not before a number ("most 5 …") nor before "than" (a comparison)
  if (direction && !(word === 'most' && /^\d/.test(next)) && next !== 'than') {
    // "most expensive", "least expensive": the dimension adjective carries the meaning
    const nextDimension = DIMENSION_ADJECTIVES[next]
    const mostOrLeast = word === 'most' || word === 'least'
    const hints = dimension?.words ?? (mostOrLeast ? (nextDimension?.words ?? []) : [])
    const dir = word === 'least' && nextDimension ? opposite(nextDimension.direction) : direction
    return {
      superlative: { index: i, direction: dir, mode: false, hints },
      length: mostOrLeast && nextDimension ? 2 : 1,
    }
  }
  if (dimension && !next.startsWith('than') && word.endsWith('est')) {
    return { superlative: { index: i, direction: dimension.direction, mode: false, hints: dimension.words }, length: 1 }
  }
  return null
}

/** Every superlative outside quotes ("highest", "most common", "le plus grand"), not "at least". */
export function readSuperlatives(tokens: readonly Token[], quoted: ReadonlySet<number>): Reading<Superlative[]> {
  const superlatives: Superlative[] = []
  const used: number[] = []
  for (let i = 0; i < tokens.length; i++) {
    if (quoted.has(i) || COMPARATOR_HEADS.has(tokens[i - 1]?.text ?? '')) continue
    const match = superlativeAt(tokens, i)
    if (!match) continue
    superlatives.push(match.superlative)
    used.push(...span(i, i + match.length - 1))
    i += match.length - 1
  }
  return { found: superlatives, used }
}

/** "second-highest", "3rd largest": the rows to skip before the extreme one. */
export function readOffset(tokens: readonly Token[], superlatives: readonly Superlative[]): Reading<number> {
  let offset = 0
  const used: number[] = []
  for (const superlative of superlatives) {
    const ordinal = ordinalValue(tokens[superlative.index - 1]?.text ?? '')
    if (ordinal !== null && ordinal > 1) {
      offset = ordinal - 1
      used.push(superlative.index - 1)
    }
  }
  return { found: offset, used }
}
