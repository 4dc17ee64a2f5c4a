import { entityColumn, resultOf } from '../column-traits.js'
import type { Grounding } from '../grounding/grounding.js'
import { PLURAL_VERBS } from '../lexicon/question-forms.js'
import { declined, type Recognition } from '../recognition.js'
import { intentOf } from './intent-of.js'

/** "List the cities", "the first 5 amounts", "Which customer ordered on 2024-03-02?" */
export function recogniseList(g: Grounding): Recognition | null {
  const { cues, filters, whichIndex, who, tokens } = g
  const target = (who ? entityColumn(g.table) : null) ?? g.firstSubject?.column ?? null
  if (!target) return declined('no column of the table could be matched to the question')
  if (cues.distinct && (cues.list || whichIndex >= 0)) {
    return intentOf(g, { kind: 'distinct', column: target, limit: cues.limit }, resultOf(target, true))
  }
  if (cues.position) {
    return intentOf(
      g,
      { kind: 'rows', target, order: null, direction: cues.position, limit: g.limit, distinct: false },
      resultOf(target, g.wantsList),
    )
  }
  if (cues.list || (whichIndex >= 0 && tokens.some((t) => PLURAL_VERBS.has(t.text)))) {
    if (filters.length === 0 && !cues.distinct) {
      return intentOf(g, { kind: 'distinct', column: target }, resultOf(target, true))
    }
    return intentOf(
      g,
      { kind: 'rows', target, order: null, direction: 'asc', limit: cues.limit, distinct: false },
      resultOf(target, true),
    )
  }
  // "Which customer ordered on 2024-03-02?": the first row the conditions keep
  if (filters.length > 0 && (whichIndex >= 0 || who)) {
    return intentOf(
      g,
      { kind: 'rows', target, order: null, direction: 'asc', limit: 1, distinct: false },
      resultOf(target, false),
    )
  }
  return null
}
