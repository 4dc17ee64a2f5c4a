import type { TableSchema } from '../../types.js'
import type { ColumnMention } from '../columns.js'
import type { AggregateCue, Cues, QuotedSpan } from '../cues/types.js'
import type { Filter } from '../intent.js'
import type { Token } from '../tokenise.js'
import type { ValueMention } from '../values.js'

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
