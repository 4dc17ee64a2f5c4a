import type { TestKind } from '../../types.js'
import type { Comparison } from '../lexicon/comparisons.js'
import type { Statistic } from '../lexicon/statistics.js'
import type { Direction } from '../lexicon/superlatives.js'
import type { Token } from '../tokenise.js'
import type { VerdictOptions } from './slot-options.js'

/**
 * The question's cues, independent of any table: its form (yes/no, list, count), aggregate words,
 * superlatives, comparators with their numbers, and how many items it asks for.
 */

export interface Comparator {
  readonly op: Comparison
  readonly value: number
  readonly percent: boolean
  /** First token of the comparator phrase, and the token of the number (or of "negative"). */
  readonly start: number
  readonly numberIndex: number
  /** "older than", "cheaper than": the dimension the comparator names. */
  readonly hints: readonly string[]
}

export interface Superlative {
  readonly index: number
  readonly direction: Direction
  /** "most common", "least frequent": frequency, not a column's value. */
  readonly mode: boolean
  /** "oldest", "cheapest": the dimension the word names. */
  readonly hints: readonly string[]
}

export type AggregateFunction = 'avg' | 'sum' | 'median' | 'std' | 'range'

export interface AggregateCue {
  readonly fn: AggregateFunction
  readonly index: number
}

/** "between 5 and 10", "1st to 3rd", from its first to its last token. */
export interface RangeCue {
  readonly low: number
  readonly high: number
  readonly start: number
  readonly end: number
}

export interface DateCue {
  readonly op: Comparison | 'between'
  readonly value: string
  readonly high?: string
  readonly index: number
}

export interface NumberCue {
  readonly value: number
  readonly index: number
}

export interface QuotedSpan {
  readonly text: string
  readonly start: number
  readonly end: number
}

export interface Cues {
  readonly tokens: readonly Token[]
  readonly boolean: boolean
  readonly list: boolean
  /** Index of the count phrase ("how many", "combien"), or -1. */
  readonly count: number
  readonly aggregates: readonly AggregateCue[]
  readonly distinct: boolean
  readonly all: boolean
  readonly any: boolean
  readonly superlatives: readonly Superlative[]
  readonly comparators: readonly Comparator[]
  readonly between: readonly RangeCue[]
  /** "closest to 80". */
  readonly closest: NumberCue | null
  /** How many items are asked for ("top 5", "the three players"), or null. */
  readonly limit: number | null
  /** "first 5 rows" (asc) / "last five books" (desc): file order. */
  readonly position: Direction | null
  /** Token indexes the cues above consumed (never part of a column or value). */
  readonly used: ReadonlySet<number>
  /** Numbers no cue explains (a year, a code): the planner declines rather than ignore them. */
  readonly strayNumbers: readonly NumberCue[]
  readonly unsupported: string | null
  readonly nonEmpty: boolean
  readonly negated: boolean
  /** ISO dates with their comparison ("after 2024-01-31", "between … and …"). */
  readonly dates: readonly DateCue[]
  /** "what percentage of", "quelle part de": a share of the rows. */
  readonly share: boolean
  /** Rows to skip before the extreme one ("second-highest" → 1). */
  readonly offset: number
  readonly quoted: readonly QuotedSpan[]
  /** The statistics asked for and how (docs/data-analysis.md, "Statistics"). */
  readonly statistics: StatisticsCues
  /** The slots an answer format names (`@mean_fare[…]`), in order; empty when it names none. */
  readonly slots: readonly string[]
  /** Decimals the answer is rounded to, when the question says. */
  readonly decimals: number | null
  /** The verdict slots of the answer format, with their two answers (cues/slot-options.ts). */
  readonly slotOptions: ReadonlyMap<string, VerdictOptions>
  /** The test the question asks for, or null (cues/tests.ts). */
  readonly test: TestCue | null
}

/** A test asked for: `unnamed` is a normality test the planner does not compute or that the question does not name. */
export interface TestCue {
  readonly kind: TestKind | 'unnamed'
  /** The significance level a verdict uses: the one said, else the default; null when two are said. */
  readonly alpha: number | null
  readonly alphaSaid: boolean
}

/** What a cue reader found, and the tokens it took (no column or value may use them). */
export interface Reading<T> {
  readonly found: T
  readonly used: readonly number[]
}

/** One statistic the question asks for, where its words are. */
export interface StatisticCue {
  readonly stat: Statistic
  /** First and last token of its words. */
  readonly index: number
  readonly end: number
  /** The percentile asked for (`90th percentile` → 90, `third quartile` → 75); null when it says none. */
  readonly percentile: number | null
}

/** How outliers are told apart, as the question says. */
export type OutlierMethod = { readonly kind: 'iqr' } | { readonly kind: 'z'; readonly threshold: number }

export interface StatisticsCues {
  /** The statistics asked for, in question order. */
  readonly requested: readonly StatisticCue[]
  /** "population" (true) or "sample" (false) standard deviation and variance; null when not said. */
  readonly population: boolean | null
  /** Skewness and kurtosis as SciPy computes them by default (biased moments). */
  readonly biasedMoments: boolean
  readonly correlation: 'pearson' | 'spearman'
  /** "Kendall", which DuckDB does not compute: the planner declines. */
  readonly kendall: boolean
  readonly outliers: OutlierMethod | null
  /** "linear regression" asked as such: its slope, intercept and r² (unless the answer format names fewer). */
  readonly regression: StatisticCue | null
}
