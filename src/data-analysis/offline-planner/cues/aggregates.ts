import { AGGREGATE_PHRASES, DIFFERENCE_PHRASES } from '../lexicon/computations.js'
import type { Token } from '../tokenise.js'
import { findPhrase, phraseAt } from './phrases.js'
import type { AggregateCue, AggregateFunction, Superlative } from './types.js'

/** Every aggregate word of the question, outside quotes, grouped by function. */
export function readAggregates(tokens: readonly Token[], quoted: ReadonlySet<number>): AggregateCue[] {
  const aggregates: AggregateCue[] = []
  for (const [fn, phrases] of Object.entries(AGGREGATE_PHRASES) as Array<[AggregateFunction, string[]]>) {
    for (let i = 0; i < tokens.length; i++) {
      const phrase = phrases.find((p) => phraseAt(tokens, i, p.split(' ')))
      if (!phrase) continue
      // "total number of" is a count
      if (fn === 'sum' && tokens[i + 1]?.text === 'number') continue
      if (quoted.has(i)) continue
      aggregates.push({ fn, index: i })
    }
  }
  return aggregates
}

/**
 * "the difference between the highest and the lowest": a range, not two superlatives. A range
 * (asked so or by its own word) leaves no superlative to rank by.
 */
export function readRange(
  tokens: readonly Token[],
  aggregates: readonly AggregateCue[],
  superlatives: readonly Superlative[],
): { aggregates: readonly AggregateCue[]; superlatives: readonly Superlative[] } {
  const difference = findPhrase(tokens, DIFFERENCE_PHRASES)
  const bothWays = superlatives.some((s) => s.direction === 'desc') && superlatives.some((s) => s.direction === 'asc')
  const withRange: readonly AggregateCue[] =
    difference >= 0 && bothWays ? [...aggregates, { fn: 'range', index: difference }] : aggregates
  if (withRange.some((a) => a.fn === 'range')) return { aggregates: withRange, superlatives: [] }
  return { aggregates: withRange, superlatives }
}
