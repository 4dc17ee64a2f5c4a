import type { ColumnSchema } from '../../types.js'
import type { ColumnMention } from '../columns.js'
import type { Comparator } from '../cues/types.js'
import type { Filter } from '../intent.js'
import { type Declined, isDeclined } from '../recognition.js'
import type { ConditionContext, Conditions } from './condition-context.js'
import { addDateConditions } from './date-conditions.js'
import { addFlagConditions } from './flag-conditions.js'
import {
  addComparisonConditions,
  addOrdinalConditions,
  addRangeConditions,
  addStrayNumberConditions,
  numericMentionFor,
} from './number-conditions.js'
import { addSearchedTextConditions, addValueConditions } from './value-conditions.js'

export interface ReadConditions {
  readonly filters: readonly Filter[]
  readonly valueFilters: readonly Filter[]
  readonly consumed: ReadonlySet<ColumnMention>
  readonly checkComparator: Comparator | null
  readonly checkMeasure: ColumnSchema | null
  readonly countComparator: Comparator | null
  readonly rowsPerGroup: Comparator | null
}

/** Every condition the question sets on the rows, in a fixed order, or why one could not be tied to a column. */
export function readConditions(context: ConditionContext): ReadConditions | Declined {
  const conditions: Conditions = { filters: [], valueFilters: [], consumed: new Set() }
  addValueConditions(context, conditions)
  const searched = addSearchedTextConditions(context, conditions)
  if (searched) return searched
  const comparisons = addComparisonConditions(context, conditions)
  if (isDeclined(comparisons)) return comparisons
  const refused =
    addRangeConditions(context, conditions) ??
    addDateConditions(context, conditions) ??
    addStrayNumberConditions(context, conditions)
  if (refused) return refused
  addOrdinalConditions(context, conditions)
  addFlagConditions(context, conditions)
  const { checkComparator, countComparator, rowsPerGroup } = comparisons
  // the compared column of a yes/no check stays a subject: it is the measure of the computation
  const checkMeasure = checkComparator
    ? (numericMentionFor(context, conditions.consumed, checkComparator)?.column ?? null)
    : null
  return { ...conditions, checkComparator, checkMeasure, countComparator, rowsPerGroup }
}
