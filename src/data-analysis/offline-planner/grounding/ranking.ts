import type { ColumnSchema } from '../../types.js'
import { isIdLike, numericOf } from '../column-traits.js'
import { columnsNamed } from '../columns.js'
import type { Superlative } from '../cues/types.js'
import type { Grounding } from './grounding.js'

/**
 * The column a superlative ranks by: the "by" measure, else the column its dimension adjective
 * names, else a numeric column named right after it, else one named before it, else a vague
 * dimension's column ("cheapest" → a price or an index).
 */
export function orderFor(g: Grounding, sup: Superlative, excluded: ReadonlySet<ColumnSchema>): ColumnSchema | null {
  if (g.byMeasure && !excluded.has(g.byMeasure)) return g.byMeasure
  const pool = g.subjects.filter((m) => !excluded.has(m.column))
  const hinted = () =>
    columnsNamed([g.table], sup.hints).find((m) => !excluded.has(m.column) && !isIdLike(m.column)) ?? null
  // a dimension adjective ("heaviest", "youngest") names its column, unless it is as vague as "cheapest"
  if (sup.hints.length > 0 && !sup.hints.includes('index')) {
    const named = pool.find(
      (m) => numericOf(m) && columnsNamed([g.table], sup.hints).some((h) => h.column === numericOf(m)),
    )
    if (named) return numericOf(named)
    const column = hinted()
    if (column) return column.column
  }
  for (const m of pool) {
    if (m.start > sup.index && m.start - sup.index <= 6 && numericOf(m)) return numericOf(m)
  }
  for (const m of [...pool].reverse()) {
    if (m.end < sup.index && numericOf(m)) return numericOf(m)
  }
  return sup.hints.length > 0 ? (hinted()?.column ?? null) : null
}

/** The column the question's superlative ranks by, if it has one. */
export function orderColumn(g: Grounding, excluded: ReadonlySet<ColumnSchema> = new Set()): ColumnSchema | null {
  return g.superlative ? orderFor(g, g.superlative, excluded) : null
}
