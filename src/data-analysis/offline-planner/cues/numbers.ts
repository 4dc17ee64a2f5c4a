import { CLOSEST_LINKS, CLOSEST_WORDS } from '../lexicon/comparisons.js'
import { DISTINCT_WORDS } from '../lexicon/computations.js'
import { LIMIT_BEFORE, LIMIT_NOUN_BEFORE, ONE_WORDS, POSITION_WORDS, ROW_WORDS } from '../lexicon/limits.js'
import { DIMENSION_ADJECTIVES, type Direction, SUPERLATIVES } from '../lexicon/superlatives.js'
import type { Token } from '../tokenise.js'
import { betweenAt, comparatorBefore, ordinalRangeAt, signComparatorAt } from './comparators.js'
import { span } from './phrases.js'
import type { Comparator, NumberCue, RangeCue, Reading, Superlative } from './types.js'

/** What the numbers of a question say: conditions, a range, a limit, file order, or nothing known. */
export interface NumberCues {
  readonly comparators: readonly Comparator[]
  readonly between: readonly RangeCue[]
  readonly closest: NumberCue | null
  readonly limit: number | null
  readonly position: Direction | null
  readonly strayNumbers: readonly NumberCue[]
}

/** What is known of the question when its numbers are read. */
export interface NumberContext {
  readonly quoted: ReadonlySet<number>
  /** Tokens earlier cues took: their numbers are not read again. */
  readonly used: ReadonlySet<number>
  readonly superlatives: readonly Superlative[]
  readonly list: boolean
  readonly boolean: boolean
}

/** A number that may be how many items are asked for ("top 5", "the 3 highest", "list the 10 …"). */
function isLimitCandidate(tokens: readonly Token[], i: number, value: number, context: NumberContext): boolean {
  const previous = tokens[i - 1]?.text ?? ''
  const next = tokens[i + 1]?.text ?? ''
  return (
    Number.isInteger(value) &&
    value > 0 &&
    value <= 1000 &&
    (LIMIT_BEFORE.has(previous) ||
      SUPERLATIVES[next] !== undefined ||
      DIMENSION_ADJECTIVES[next]?.words !== undefined ||
      SUPERLATIVES[previous] !== undefined ||
      (DISTINCT_WORDS.has(next) && context.list) ||
      (context.list && LIMIT_NOUN_BEFORE.has(previous)) ||
      (context.superlatives.length > 0 && LIMIT_NOUN_BEFORE.has(previous) && !context.boolean))
  )
}

/**
 * One pass over the tokens, as each number's meaning depends on the ones before it: a limit read
 * first ("first 5") makes the same number later ("the 5 books") part of it, not a condition.
 */
export function readNumbers(tokens: readonly Token[], context: NumberContext): Reading<NumberCues> {
  const comparators: Comparator[] = []
  const between: RangeCue[] = []
  let closest: NumberCue | null = null
  let limit: number | null = null
  let position: Direction | null = null
  const strayNumbers: NumberCue[] = []
  const used = new Set(context.used)
  const taken: number[] = []
  const take = (indexes: readonly number[]) => {
    for (const index of indexes) used.add(index)
    taken.push(...indexes)
  }
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]
    if (!token) continue
    const sign = signComparatorAt(tokens, i)
    if (sign) {
      comparators.push(sign)
      take([i])
      continue
    }
    // "first 5 rows", "the last row", "the 3 first": file order
    const positionWord = POSITION_WORDS[token.text]
    if (positionWord && !context.superlatives.some((s) => s.index === i)) {
      const after = tokens[i + 1]
      const afterNumber = after?.number ?? null
      if (afterNumber !== null && Number.isInteger(afterNumber) && afterNumber > 0) {
        position = positionWord
        limit = afterNumber
        take([i, i + 1])
        i++
        continue
      }
      const before = tokens[i - 1]?.number ?? null
      if (before !== null || ROW_WORDS.has(after?.text ?? '')) {
        position = positionWord
        if (before === null) limit = limit ?? 1
        take([i])
        continue
      }
    }
    const ordinalRange = ordinalRangeAt(tokens, i)
    if (ordinalRange) {
      between.push(ordinalRange)
      take(span(i, i + 2))
      i += 2
      continue
    }
    if (token.number === null || context.quoted.has(i)) continue
    if (used.has(i)) continue
    const value = token.number
    if (limit !== null && value === limit) {
      take([i])
      continue
    }
    const range = betweenAt(tokens, i, value)
    if (range) {
      between.push(range)
      take(span(i - 1, i + 2))
      i += 2
      continue
    }
    if (CLOSEST_LINKS.has(tokens[i - 1]?.text ?? '') && CLOSEST_WORDS.has(tokens[i - 2]?.text ?? '')) {
      closest = { value, index: i - 2 }
      take([i, i - 1, i - 2])
      continue
    }
    const comparator = comparatorBefore(tokens, i)
    const limitCandidate = isLimitCandidate(tokens, i, value, context)
    // "a rating of 5" compares, but "the names of the 5 oldest" asks for 5 of them
    const ofLimit = limitCandidate && (comparator?.words.join(' ') === 'of' || comparator?.words.join(' ') === 'de')
    if (comparator && !ofLimit) {
      comparators.push({
        op: comparator.op,
        value,
        percent: token.percent,
        start: comparator.start,
        numberIndex: i,
        hints: DIMENSION_ADJECTIVES[comparator.words[0] ?? '']?.words ?? [],
      })
      take(span(comparator.start, i))
      continue
    }
    if (limitCandidate && limit === null) {
      limit = value
      take([i])
      continue
    }
    strayNumbers.push({ value, index: i })
  }
  return { found: { comparators, between, closest, limit, position, strayNumbers }, used: taken }
}

/** "the top one highest": "one" is a number only there (it is an ordinary word elsewhere). */
export function readTopOne(tokens: readonly Token[], used: ReadonlySet<number>): Reading<number | null> {
  let limit: number | null = null
  const taken: number[] = []
  for (let i = 0; i < tokens.length; i++) {
    if (!ONE_WORDS.has(tokens[i]?.text ?? '') || used.has(i)) continue
    if (SUPERLATIVES[tokens[i + 1]?.text ?? ''] !== undefined && tokens[i - 1]?.text === 'top') {
      limit = 1
      taken.push(i)
    }
  }
  return { found: limit, used: taken }
}
