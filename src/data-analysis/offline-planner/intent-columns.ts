import type { ColumnSchema } from '../types.js'
import type { Check, Filter, Intent, Shape } from './intent.js'

/**
 * The table columns an Intent reads: those of its filters, its shape and its yes/no check (the
 * words-to-columns mapping an answer shows, and the column-mapping benchmark). The switches end
 * in a `never` check so that a new kind of shape or check fails to compile here.
 */

function unreachable(value: never): never {
  throw new Error(`unknown kind: ${JSON.stringify(value)}`)
}

const present = (...columns: ReadonlyArray<ColumnSchema | null>): ColumnSchema[] =>
  columns.filter((column): column is ColumnSchema => column !== null)

/** Every Filter kind has a column: one without would fail to compile here. */
function filterColumns(filters: readonly Filter[]): ColumnSchema[] {
  return filters.map((filter) => filter.column)
}

export function shapeColumns(shape: Shape): ColumnSchema[] {
  switch (shape.kind) {
    case 'scalar':
      return present(shape.column)
    case 'mode':
    case 'distinct':
      return [shape.column]
    case 'group':
      return present(shape.group, shape.measure)
    case 'rows':
      return present(shape.target, shape.order)
    case 'share':
      return filterColumns(shape.condition)
    case 'closest':
      return [shape.target, shape.order]
    case 'groupsByRows':
      return [shape.group]
    case 'frequencies':
      return [shape.column]
    case 'statistics':
      return [...(shape.group ? [shape.group] : []), ...shape.items.flatMap((item) => item.columns)]
    default:
      return unreachable(shape)
  }
}

export function checkColumns(check: Check | null): ColumnSchema[] {
  if (check === null) return []
  switch (check.kind) {
    case 'exists':
    case 'compare':
      return []
    case 'all':
      return filterColumns(check.condition)
    case 'unique':
      return present(check.column)
    case 'more':
      return filterColumns(check.other)
    case 'top':
      return [check.order, ...filterColumns(check.condition)]
    default:
      return unreachable(check)
  }
}

/** The names of the columns the intent reads, in order of first use, without repeats. */
export function intentColumns(intent: Intent): string[] {
  const columns = [...filterColumns(intent.filters), ...shapeColumns(intent.shape), ...checkColumns(intent.check)]
  return [...new Set(columns.map((column) => column.name))]
}
