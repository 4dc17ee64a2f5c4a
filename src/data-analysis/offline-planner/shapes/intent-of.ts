import type { ColumnSchema, ResultType } from '../../types.js'
import { isNumeric } from '../columns.js'
import type { Grounding } from '../grounding/grounding.js'
import type { Check, Shape } from '../intent.js'
import { LABEL_HEADER } from '../lexicon/headers.js'
import type { Recognition } from '../recognition.js'

/** A shape's answer column: when the question asks for a name, a numeric code's label column instead. */
function labelOf(g: Grounding, column: ColumnSchema): ColumnSchema {
  if (!g.wantsName || !isNumeric(column)) return column
  // the label has as many different values as the code, and as many empty ones
  const labels = g.table.columns.filter(
    (c) => c.type === 'text' && c.distinctCount === column.distinctCount && c.nullCount === column.nullCount,
  )
  return labels.find((c) => LABEL_HEADER.test(c.name)) ?? labels[0] ?? column
}

function labelled(g: Grounding, shape: Shape): Shape {
  switch (shape.kind) {
    case 'mode':
      return { ...shape, column: labelOf(g, shape.column) }
    case 'group':
      return shape.returnMetric ? shape : { ...shape, group: labelOf(g, shape.group) }
    case 'rows':
      return shape.target === shape.order ? shape : { ...shape, target: labelOf(g, shape.target) }
    case 'distinct':
      return { ...shape, column: labelOf(g, shape.column) }
    default:
      return shape
  }
}

/** The intent of a shape over the grounding's filters, its answer relabelled when a name is asked for. */
export function intentOf(g: Grounding, shape: Shape, resultType: ResultType, check: Check | null = null): Recognition {
  const final = labelled(g, shape)
  const relabelled = final !== shape && JSON.stringify(final) !== JSON.stringify(shape)
  const type: ResultType = relabelled ? (resultType.startsWith('list') ? 'list[category]' : 'category') : resultType
  return { kind: 'intent', intent: { table: g.table, filters: [...g.filters], shape: final, check, resultType: type } }
}
