import type { ColumnSchema, TableSchema } from '../../types.js'
import type { ColumnMention } from '../columns.js'
import type { AggregateCue, Comparator, Cues, Superlative } from '../cues/types.js'
import type { Filter } from '../intent.js'
import type { Token } from '../tokenise.js'
import type { ValueMention } from '../values.js'

/**
 * The question mapped onto one table: the conditions its words set on the rows, and the columns
 * and cues left to say what is computed. Every shape recogniser reads this and nothing else.
 */
export interface Grounding {
  readonly cues: Cues
  readonly tokens: readonly Token[]
  readonly table: TableSchema
  /** The table's columns the question names, in question order. */
  readonly mentions: readonly ColumnMention[]
  /** The table's cell values the question names, in question order. */
  readonly valueMentions: readonly ValueMention[]
  /** Conditions on the rows, in the order their words were read. */
  readonly filters: readonly Filter[]
  /** The filters naming a value ("in Paris", 'Hacendado', "code 1522"): "more X than Y" compares two. */
  readonly valueFilters: readonly Filter[]
  /** The column mentions no condition took: what the question asks about. */
  readonly subjects: readonly ColumnMention[]
  readonly firstSubject: ColumnMention | null
  /** Where the count phrase is, -1 when there is none or it is part of a column's name ("Number of Stores"). */
  readonly count: number
  /** The aggregate words that are not part of a column's name. */
  readonly aggregates: readonly AggregateCue[]
  readonly average: AggregateCue | null
  /** The aggregate computed alone (a sum with a superlative ranks groups instead). */
  readonly simpleAggregate: AggregateCue | null
  /** The superlative that ranks ("highest"), preferring it to "top"; most-frequent ones apart. */
  readonly superlative: Superlative | null
  readonly mostFrequent: Superlative | null
  /** A yes/no question comparing a computation ("is the average above 5?"), and the column it measures. */
  readonly checkComparator: Comparator | null
  readonly checkMeasure: ColumnSchema | null
  /** A yes/no question comparing a count ("are there more than 3 …?"). */
  readonly countComparator: Comparator | null
  /** "customers with at least 2 orders": how many rows each group must have. */
  readonly rowsPerGroup: Comparator | null
  /** Where "which"/"what"/"quel" opens the question (first four words), or -1. */
  readonly whichIndex: number
  /** The column right after "which": what the answer names. */
  readonly whichNoun: ColumnMention | null
  /** Where "by"/"per" is, or -1. */
  readonly byIndex: number
  /** "by country": the column grouped by. */
  readonly byMention: ColumnMention | null
  /** "by total lifts": the numeric column ranked by. */
  readonly byMeasure: ColumnSchema | null
  /** "who …": the answer is the table's entity column when no other column is named. */
  readonly who: boolean
  /** How many items are asked for, 1 when the question does not say. */
  readonly limit: number
  readonly wantsList: boolean
  /** "the name of the month": a numeric code is answered by its label column. */
  readonly wantsName: boolean
}
