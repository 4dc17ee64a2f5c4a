import { findPhrase } from '../cues/phrases.js'
import type { Grounding } from '../grounding/grounding.js'
import { VALUE_COUNT_PHRASES } from '../lexicon/statistics.js'
import { declined, type Recognition } from '../recognition.js'
import { intentOf } from './intent-of.js'

/** Values listed when the question does not say how many. */
const DEFAULT_VALUES = 100

/**
 * "The value counts of Embarked", "the frequency table of region": each value of one column with
 * its number of rows, the most frequent first (ties by value), as a table of `value` and `count`.
 */
export function recogniseValueCounts(g: Grounding): Recognition | null {
  const at = findPhrase(g.tokens, VALUE_COUNT_PHRASES)
  if (at < 0) return null
  const columns = [...new Set(g.subjects.map((m) => m.column))]
  if (columns.length !== 1 || !columns[0]) {
    return declined(
      columns.length === 0
        ? 'the question asks for value counts but names no column'
        : `the question asks for value counts of one column and names ${columns.length}`,
    )
  }
  return intentOf(g, { kind: 'frequencies', column: columns[0], limit: g.cues.limit ?? DEFAULT_VALUES }, 'table')
}
