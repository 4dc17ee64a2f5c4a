import { entityColumn, resultOf } from '../column-traits.js'
import type { Grounding } from '../grounding/grounding.js'
import { declined, type Recognition } from '../recognition.js'
import { intentOf } from './intent-of.js'

/** "What is the most common city?", "Who appears most often?": the most (or least) frequent values of a column. */
export function recogniseMostFrequent(g: Grounding): Recognition | null {
  const { mostFrequent, subjects, limit } = g
  if (!mostFrequent) return null
  const column =
    subjects.find((m) => m.start > mostFrequent.index)?.column ??
    [...subjects].reverse().find((m) => m.end < mostFrequent.index)?.column ??
    (g.who ? entityColumn(g.table) : null)
  if (!column) return declined('the question asks for the most frequent value but names no column')
  if (g.count >= 0 && g.cues.list) {
    // "the number of stores for the two most frequent store names": the counts themselves
    return intentOf(
      g,
      {
        kind: 'group',
        group: column,
        fn: 'count',
        measure: null,
        direction: mostFrequent.direction,
        limit,
        returnMetric: true,
      },
      'list[number]',
    )
  }
  return intentOf(g, { kind: 'mode', column, direction: mostFrequent.direction, limit }, resultOf(column, g.wantsList))
}
