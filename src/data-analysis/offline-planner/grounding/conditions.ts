import type { ColumnSchema, TableSchema } from '../../types.js'
import type { ColumnMention } from '../columns.js'
import type { AggregateCue, Comparator, Cues, QuotedSpan } from '../cues/types.js'
import type { Filter } from '../intent.js'
import { type Declined, isDeclined } from '../recognition.js'
import type { Token } from '../tokenise.js'
import type { ValueMention } from '../values.js'
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

/** What the condition readers read: the question and what it names in the chosen table. */
export interface ConditionContext {
  readonly cues: Cues
  readonly tokens: readonly Token[]
  readonly table: TableSchema
  readonly mentions: readonly ColumnMention[]
  readonly values: readonly ValueMention[]
  readonly searched: readonly QuotedSpan[]
  readonly count: number
  readonly aggregates: readonly AggregateCue[]
}

/**
 * The conditions read so far and the column mentions they took, added to by each reader in turn:
 * a mention one condition took is no longer there for the next one, nor a subject.
 */
export interface Conditions {
  readonly filters: Filter[]
  readonly valueFilters: Filter[]
  readonly consumed: Set<ColumnMention>
}

export interface ReadConditions {
  readonly filters: readonly Filter[]
  readonly valueFilters: readonly Filter[]
  readonly consumed: ReadonlySet<ColumnMention>
  readonly checkComparator: Comparator | null
  readonly checkMeasure: ColumnSchema | null
  readonly countComparator: Comparator | null
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
  const { checkComparator, countComparator } = comparisons
  // the compared column of a yes/no check stays a subject: it is the measure of the computation
  const checkMeasure = checkComparator
    ? (numericMentionFor(context, conditions.consumed, checkComparator)?.column ?? null)
    : null
  return { ...conditions, checkComparator, checkMeasure, countComparator }
}
