import type { Grounding } from '../grounding/grounding.js'
import { declined, type Recognition } from '../recognition.js'

/** "What percentage of orders are from Paris?": the question's conditions measured over all rows. */
export function recogniseShare(g: Grounding): Recognition | null {
  if (!g.cues.share) return null
  if (g.filters.length === 0) return declined('the question asks for a percentage but names no condition to measure')
  return {
    kind: 'intent',
    intent: {
      table: g.table,
      filters: [],
      shape: { kind: 'share', condition: [...g.filters] },
      check: null,
      resultType: 'number',
    },
  }
}
