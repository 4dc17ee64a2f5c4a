import { isIdLike, numericOf } from '../column-traits.js'
import { isNumeric } from '../columns.js'
import type { Grounding } from '../grounding/grounding.js'
import { DISTINCT_WORDS } from '../lexicon/computations.js'
import { declined, type Recognition } from '../recognition.js'
import { intentOf } from './intent-of.js'

/** "How many orders are from Paris?", "How many different cities?", "How many goals did X score?" */
export function recogniseCount(g: Grounding): Recognition | null {
  const { count, cues, subjects, firstSubject } = g
  if (count < 0 || g.superlative) return null
  // "list the number of copies left of …": a numeric column named right after is listed, not counted
  if ((cues.list || cues.position) && subjects.some((m) => m.start > count && m.start - count <= 3 && numericOf(m)))
    return null
  const after = subjects.find((m) => m.start > count && m.start - count <= 4)
  if (after && isIdLike(after.column) && !cues.distinct) {
    return intentOf(g, { kind: 'scalar', fn: 'count_distinct', column: after.column }, 'number')
  }
  if (cues.distinct) {
    const distinctAt = g.tokens.findIndex((t) => DISTINCT_WORDS.has(t.text))
    const column =
      subjects.find((m) => m.start > distinctAt && m.start - distinctAt <= 3)?.column ??
      subjects.find((m) => m.start > count && m.coverage === 1)?.column ??
      after?.column ??
      firstSubject?.column
    if (!column) return declined('the question counts different values but names no column to count them in')
    return intentOf(g, { kind: 'scalar', fn: 'count_distinct', column }, 'number')
  }
  // "the number of goals": a quantity column is summed
  if (after && isNumeric(after.column) && !isIdLike(after.column) && after.start <= count + 3) {
    return intentOf(g, { kind: 'scalar', fn: 'sum', column: after.column }, 'number')
  }
  if (cues.nonEmpty && firstSubject)
    return intentOf(g, { kind: 'scalar', fn: 'count_values', column: firstSubject.column }, 'number')
  if (g.filters.length === 0 && subjects.some((m) => m !== after)) {
    return declined('the question names a column but not a condition the counted rows should meet')
  }
  return intentOf(g, { kind: 'scalar', fn: 'count', column: null }, 'number')
}
