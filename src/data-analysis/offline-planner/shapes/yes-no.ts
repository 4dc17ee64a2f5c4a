import type { ColumnSchema } from '../../types.js'
import { percentAdjusted } from '../column-traits.js'
import { columnsNamed, isNumeric } from '../columns.js'
import type { Comparator, Superlative } from '../cues/types.js'
import type { Grounding } from '../grounding/grounding.js'
import { orderColumn } from '../grounding/ranking.js'
import type { Filter, ScalarFunction } from '../intent.js'
import { COMPARATIVE_WORDS, FEWER_WORDS, THAN_WORDS } from '../lexicon/comparisons.js'
import { FILLERS } from '../lexicon/vague-words.js'
import { declined, type Recognition } from '../recognition.js'
import { intentOf } from './intent-of.js'

/** "Are all the IDs unique?" */
function allDifferent(g: Grounding): Recognition | null {
  if (!g.cues.all || !g.cues.distinct) return null
  return intentOf(g, { kind: 'scalar', fn: 'count', column: null }, 'boolean', {
    kind: 'unique',
    column: g.firstSubject?.column ?? null,
  })
}

/**
 * "Do all orders from Paris have an amount above 100?": the last condition is checked on the rows
 * the others keep; "Do all rows have a city?": the one column named, last, must be filled.
 */
function everyRow(g: Grounding): Recognition | null {
  const { cues, filters, firstSubject, tokens } = g
  if (!cues.all || g.checkComparator) return null
  const condition = filters.length > 0 ? [filters[filters.length - 1] as Filter] : []
  if (condition.length === 0) {
    const lastWord = [...tokens].reverse().findIndex((t) => !FILLERS.has(t.text))
    const closing = firstSubject && g.subjects.length === 1 && firstSubject.end === tokens.length - 1 - lastWord
    if (!firstSubject || !closing || cues.superlatives.length > 0) {
      return declined('the question does not say which condition every row should meet')
    }
    condition.push({ kind: 'present', column: firstSubject.column, present: true })
  }
  const population = filters.slice(0, Math.max(0, filters.length - 1))
  return {
    kind: 'intent',
    intent: {
      table: g.table,
      filters: population,
      shape: { kind: 'scalar', fn: 'count', column: null },
      check: { kind: 'all', condition },
      resultType: 'boolean',
    },
  }
}

/** "Are there more orders from Paris than from Lyon?": the rows of one value against the other's. */
function moreThan(g: Grounding): Recognition | null {
  const { tokens, valueFilters, filters } = g
  const thanIndex = tokens.findIndex((t) => THAN_WORDS.has(t.text))
  if (valueFilters.length !== 2 || thanIndex < 0 || g.checkComparator || g.countComparator) return null
  const comparative = tokens.slice(0, thanIndex).find((t) => COMPARATIVE_WORDS.has(t.text))
  if (!comparative) return null
  const op = FEWER_WORDS.has(comparative.text) ? '<' : '>'
  const [first, second] = valueFilters as [Filter, Filter]
  const rest = filters.filter((f) => f !== first && f !== second)
  return {
    kind: 'intent',
    intent: {
      table: g.table,
      filters: [...rest, first],
      shape: { kind: 'scalar', fn: 'count', column: null },
      check: { kind: 'more', op, other: [...rest, second] },
      resultType: 'boolean',
    },
  }
}

/** Whether the row ranked first (by `order`, among the rows `filters` keep) meets `condition`. */
function topRowCheck(
  g: Grounding,
  filters: readonly Filter[],
  order: ColumnSchema,
  direction: Superlative['direction'],
  condition: Filter,
): Recognition {
  return {
    kind: 'intent',
    intent: {
      table: g.table,
      filters,
      shape: { kind: 'scalar', fn: 'count', column: null },
      check: { kind: 'top', order, direction, condition: [condition] },
      resultType: 'boolean',
    },
  }
}

/**
 * "Is the song with the lowest popularity longer than 300000 ms?": the superlative ranks by
 * another column than the one compared, so the number is checked on the row it ranks first. A
 * dimension adjective ("the youngest player") whose column the table lacks ranks by nothing the
 * planner can read: the extreme of the compared column would answer another question.
 */
function comparedTopRow(
  g: Grounding,
  superlative: Superlative,
  comparator: Comparator,
  measure: ColumnSchema | null,
): Recognition | null {
  if (!measure || superlative.mode) return null
  const order = orderColumn(g, new Set([measure]))
  if (order) {
    const condition: Filter = {
      kind: 'compare',
      column: measure,
      op: comparator.op,
      value: percentAdjusted(measure, comparator),
    }
    return topRowCheck(g, g.filters, order, superlative.direction, condition)
  }
  const { hints } = superlative
  if (hints.length > 0 && !columnsNamed([g.table], hints).some((m) => m.column === measure)) {
    return declined(`the question ranks by "${g.tokens[superlative.index]?.text}", and no column holds what it ranks`)
  }
  return null
}

/** "Is the average amount above 100?", "Is the highest score negative?": the computation named before the number. */
function comparedComputation(g: Grounding): Recognition | null {
  const { checkComparator, count, cues, firstSubject, simpleAggregate, superlative } = g
  if (!checkComparator) return null
  const measure = g.checkMeasure ?? orderColumn(g) ?? g.subjects.find((m) => isNumeric(m.column))?.column ?? null
  let fn: ScalarFunction | null = null
  if (count >= 0 && count < checkComparator.start) fn = cues.distinct && firstSubject ? 'count_distinct' : 'count'
  else if (simpleAggregate && simpleAggregate.index < checkComparator.start) fn = simpleAggregate.fn
  else if (superlative) {
    const top = comparedTopRow(g, superlative, checkComparator, measure)
    if (top) return top
    fn = superlative.direction === 'desc' ? 'max' : 'min'
  }
  if (!fn) return declined('the question compares a number but does not say which computation it is compared with')
  const column = fn === 'count' ? null : fn === 'count_distinct' ? (firstSubject?.column ?? null) : measure
  if (fn !== 'count' && !column)
    return declined('the question compares a computation but names no column it could be computed on')
  const value = column ? percentAdjusted(column, checkComparator) : checkComparator.value
  return intentOf(g, { kind: 'scalar', fn, column }, 'boolean', { kind: 'compare', op: checkComparator.op, value })
}

/** "Are there more than 3 different brands?", "Are there more than 10 orders?" */
function comparedCount(g: Grounding): Recognition | null {
  const { countComparator, cues } = g
  if (!countComparator) return null
  const distinctColumn = cues.distinct
    ? (g.subjects.find((m) => !isNumeric(m.column) || m.column.distinctCount < 50)?.column ?? null)
    : null
  if (cues.distinct && !distinctColumn)
    return declined('the question counts different values but names no column to count them in')
  return intentOf(
    g,
    { kind: 'scalar', fn: distinctColumn ? 'count_distinct' : 'count', column: distinctColumn },
    'boolean',
    { kind: 'compare', op: countComparator.op, value: countComparator.value },
  )
}

/**
 * "Is the person with the highest net worth self-made?", "Does the heaviest lift come from a
 * woman?": the row the superlative ranks first, checked against the last condition; conditions
 * said before it choose the rows ranked. Checking whether any row meets the condition would
 * answer "is anyone self-made?".
 */
function topRow(g: Grounding): Recognition | null {
  const { superlative, filters } = g
  if (!superlative || superlative.mode || filters.length === 0 || g.cues.negated) return null
  const condition = filters[filters.length - 1] as Filter
  const order = orderColumn(g, new Set([condition.column]))
  if (!order) return null
  return topRowCheck(g, filters.slice(0, -1), order, superlative.direction, condition)
}

/** "Is there an order from Paris?", "Are there no late orders?" */
function exists(g: Grounding): Recognition {
  if (g.filters.length === 0) {
    return declined('the question asks whether something exists but names no value or condition that could be checked')
  }
  return intentOf(g, { kind: 'scalar', fn: 'count', column: null }, 'boolean', {
    kind: 'exists',
    negated: g.cues.negated,
  })
}

/** Yes/no questions, tried from the most specific form to plain existence. */
export function recogniseYesNo(g: Grounding): Recognition | null {
  if (!g.cues.boolean) return null
  return (
    allDifferent(g) ??
    everyRow(g) ??
    moreThan(g) ??
    comparedComputation(g) ??
    comparedCount(g) ??
    topRow(g) ??
    exists(g)
  )
}
