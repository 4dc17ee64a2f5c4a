import type { ColumnSchema, ResultType, TableSchema, TestKind } from '../types.js'
import type { VerdictOptions } from './cues/slot-options.js'
import type { OutlierMethod } from './cues/types.js'
import type { Comparison } from './lexicon/comparisons.js'
import type { Statistic } from './lexicon/statistics.js'
import type { Direction } from './lexicon/superlatives.js'

/** One condition on the rows (values are kept as data and escaped when the SQL is built). */
export type Filter =
  | { readonly kind: 'compare'; readonly column: ColumnSchema; readonly op: Comparison; readonly value: number }
  | { readonly kind: 'between'; readonly column: ColumnSchema; readonly low: number; readonly high: number }
  | { readonly kind: 'equals'; readonly column: ColumnSchema; readonly value: string; readonly negated: boolean }
  | { readonly kind: 'item'; readonly column: ColumnSchema; readonly value: string; readonly negated: boolean }
  | { readonly kind: 'contains'; readonly column: ColumnSchema; readonly value: string }
  | { readonly kind: 'prefix'; readonly column: ColumnSchema; readonly value: string }
  | {
      readonly kind: 'date'
      readonly column: ColumnSchema
      readonly op: Comparison | 'between'
      readonly value: string
      readonly high?: string
    }
  | { readonly kind: 'present'; readonly column: ColumnSchema; readonly present: boolean }

export type ScalarFunction =
  | 'count'
  | 'count_distinct'
  | 'count_values'
  | 'avg'
  | 'sum'
  | 'median'
  | 'min'
  | 'max'
  | 'std'
  | 'range'

/** One value a statistics question asks for, under the name the answer gives it. */
export interface StatisticItem {
  readonly slot: string
  readonly stat: Statistic
  /** The column it is computed over; two for a correlation, covariance or regression (the explained one first). */
  readonly columns: readonly ColumnSchema[]
  /** The percentile, for `percentile`. */
  readonly percentile: number | null
  /** A verdict's two answers, the answer format's own words. */
  readonly verdict?: VerdictOptions
}

/** How a statistics question wants its values computed (docs/data-analysis.md, "Statistics"). */
export interface StatisticsMethod {
  /** Standard deviation, variance and covariance over the population (n) rather than the sample (n − 1). */
  readonly population: boolean
  /** Skewness and kurtosis from the biased moments (SciPy's default) rather than pandas' adjusted ones. */
  readonly biasedMoments: boolean
  readonly correlation: 'pearson' | 'spearman'
  readonly outliers: OutlierMethod | null
  /** Decimals every computed value (not a count) is rounded to; null keeps them all. */
  readonly decimals: number | null
  /** The test whose p-value, statistic or verdict is asked for (docs/data-analysis.md, "Tests"). */
  readonly test?: StatisticsTest
  /** "after removing the outliers of X": the values computed over the rows whose X is not an outlier by this rule. */
  readonly withoutOutliers?: { readonly column: ColumnSchema; readonly rule: OutlierMethod }
}

/** A test the planner computes, with the significance level a verdict uses (said, or the default). */
export interface StatisticsTest {
  readonly kind: TestKind
  readonly alpha: number
  readonly alphaSaid: boolean
  /** A test between groups restricted to the values the question names ("between male and female"), in its order. */
  readonly groups?: readonly string[]
}

/** What is computed, before any yes/no wrapping. */
export type Shape =
  /** Each value of a column with its number of rows, most frequent first ("value counts"). */
  | { readonly kind: 'frequencies'; readonly column: ColumnSchema; readonly limit: number }
  /** Named statistics over the filtered rows, one value each (docs/data-analysis.md, "Statistics"). */
  | {
      readonly kind: 'statistics'
      readonly items: readonly StatisticItem[]
      readonly method: StatisticsMethod
      /** "for each class": one row per value of this column; null: one row for all. */
      readonly group: ColumnSchema | null
    }
  /** One aggregate over the filtered rows; `column` null for count(*). */
  | { readonly kind: 'scalar'; readonly fn: ScalarFunction; readonly column: ColumnSchema | null }
  /** The most (desc) or least (asc) frequent values of a column; list items counted one by one. */
  | { readonly kind: 'mode'; readonly column: ColumnSchema; readonly direction: Direction; readonly limit: number }
  /** Groups ranked by an aggregate; `returnMetric` returns the aggregate instead of the group. */
  | {
      readonly kind: 'group'
      readonly group: ColumnSchema
      readonly fn: ScalarFunction
      readonly measure: ColumnSchema | null
      readonly direction: Direction
      readonly limit: number
      readonly returnMetric: boolean
    }
  /** Rows ranked by a column (null: file order), returning `target` of the first `limit` rows. */
  | {
      readonly kind: 'rows'
      readonly target: ColumnSchema
      readonly order: ColumnSchema | null
      readonly direction: Direction
      readonly limit: number | null
      readonly distinct: boolean
      /** Rows skipped first ("second-highest"). */
      readonly offset?: number
    }
  /** The different values of a column, in order of first appearance. */
  | { readonly kind: 'distinct'; readonly column: ColumnSchema; readonly limit?: number | null }
  /** Percentage of the rows that meet `condition` (among the rows the intent's filters keep). */
  | { readonly kind: 'share'; readonly condition: readonly Filter[] }
  /**
   * The values of `group` whose number of rows meets `op value` ("customers with at least 2
   * orders"): listed in file order, or counted (`counted`).
   */
  | {
      readonly kind: 'groupsByRows'
      readonly group: ColumnSchema
      readonly op: Comparison
      readonly value: number
      readonly counted: boolean
    }
  /** The value closest to a number ("Groceries Index closest to 80"), returning `target`. */
  | { readonly kind: 'closest'; readonly target: ColumnSchema; readonly order: ColumnSchema; readonly value: number }

/** How a yes/no question reads the computation. */
export type Check =
  | { readonly kind: 'exists'; readonly negated: boolean }
  | { readonly kind: 'compare'; readonly op: Comparison; readonly value: number }
  /** Every row of the population (the filters) satisfies `condition`. */
  | { readonly kind: 'all'; readonly condition: readonly Filter[] }
  /** The values of a column are all different. */
  | { readonly kind: 'unique'; readonly column: ColumnSchema | null }
  /** The row ranked first by `order` (among the filters' rows) satisfies `condition`: "Is the oldest person a woman?" */
  | {
      readonly kind: 'top'
      readonly order: ColumnSchema
      readonly direction: Direction
      readonly condition: readonly Filter[]
    }
  /** More rows satisfy `filters` than `other` (op `>`), or fewer (`<`). */
  | { readonly kind: 'more'; readonly op: Comparison; readonly other: readonly Filter[] }

export interface Intent {
  readonly table: TableSchema
  readonly filters: readonly Filter[]
  readonly shape: Shape
  readonly check: Check | null
  readonly resultType: ResultType
}
