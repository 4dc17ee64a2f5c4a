import { entityColumn, resultOf } from '../column-traits.js'
import { isNumeric } from '../columns.js'
import type { Grounding } from '../grounding/grounding.js'
import { declined, type Recognition } from '../recognition.js'
import { intentOf } from './intent-of.js'

/** "Which city has a Groceries Index closest to 80?" */
export function recogniseClosest(g: Grounding): Recognition | null {
  const { closest } = g.cues
  if (!closest) return null
  const { subjects } = g
  const order =
    subjects.find((m) => isNumeric(m.column) && m.start > closest.index - 5)?.column ??
    subjects.find((m) => isNumeric(m.column))?.column
  const target =
    g.whichNoun?.column ?? (g.who ? entityColumn(g.table) : null) ?? subjects.find((m) => !isNumeric(m.column))?.column
  if (!order || !target) return declined('the question asks for the closest value but the columns could not be mapped')
  return intentOf(g, { kind: 'closest', target, order, value: closest.value }, resultOf(target, false))
}
