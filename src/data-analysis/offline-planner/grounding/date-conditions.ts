import type { ColumnSchema } from '../../types.js'
import type { ColumnMention } from '../columns.js'
import type { Filter } from '../intent.js'
import { type Declined, declined } from '../recognition.js'
import type { ConditionContext, Conditions } from './condition-context.js'

const isDate = (column: ColumnSchema) => column.type === 'date' || column.type === 'timestamp'

/** The date column a date at token `near` is about: the nearest one named, else the table's only one. */
export function dateColumnNear(
  context: ConditionContext,
  consumed: ReadonlySet<ColumnMention>,
  near: number,
): ColumnSchema | null {
  const named = context.mentions.filter((m) => isDate(m.column) && !consumed.has(m))
  named.sort((a, b) => Math.abs(a.start - near) - Math.abs(b.start - near))
  if (named[0]) return named[0].column
  const all = context.table.columns.filter(isDate)
  return all.length === 1 ? (all[0] ?? null) : null
}

/** "in 2024": the whole year. */
export function yearCondition(column: ColumnSchema, year: number): Filter {
  return { kind: 'date', column, op: 'between', value: `${year}-01-01`, high: `${year}-12-31` }
}

/** "after 2024-01-31", "between 2024-02-01 and 2024-03-31" on the date column they are about. */
export function addDateConditions(context: ConditionContext, conditions: Conditions): Declined | null {
  for (const date of context.cues.dates) {
    const column = dateColumnNear(context, conditions.consumed, date.index)
    if (!column) return declined(`the date ${date.value} could not be tied to one date column`)
    conditions.filters.push({
      kind: 'date',
      column,
      op: date.op,
      value: date.value,
      ...(date.high ? { high: date.high } : {}),
    })
    for (const m of context.mentions) if (m.column === column) conditions.consumed.add(m)
  }
  return null
}
