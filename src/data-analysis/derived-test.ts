import { type ContingencyCell, chiSquareIndependence, type GroupSummary, oneWayAnova, tTest } from './group-tests.js'
import { correlationTest, dagostinoPearson, shapiroWilk, type TestOutcome } from './hypothesis-tests.js'
import { kolmogorovSmirnovNormality } from './kolmogorov-smirnov.js'
import type { QueryResult } from './sandbox.js'
import { type DerivedTest, nullIsAffirmative, TEST_INPUTS, type TestOutput } from './types.js'
import { verdictAnswer } from './verdict-cases.js'

/**
 * Finishes a plan's test once its query has run (docs/data-analysis.md, "Tests"): reads the
 * inputs DuckDB computed from the first row, fills the output slots, drops the input columns. A
 * test that cannot be computed (too few rows, all values equal) leaves its slots empty (null)
 * rather than guess a verdict.
 */
export function completeTest(result: QueryResult, test: DerivedTest): QueryResult {
  const row = result.rows[0]
  if (!row) return result
  const input = (name: string): unknown => row[result.columns.indexOf(name)]
  const outcome = outcomeOf(test, input)
  const inputs = new Set<string>(Object.values(TEST_INPUTS))
  const keep = result.columns.map((_, i) => i).filter((i) => !inputs.has(result.columns[i] as string))
  const filled = result.columns.map((column, i) => {
    const output = test.outputs.find((o) => o.slot === column)
    return output ? outputValue(output, outcome, test, numberOf(input(TEST_INPUTS.r))) : row[i]
  })
  return {
    columns: keep.map((i) => result.columns[i] as string),
    rows: [keep.map((i) => filled[i]), ...result.rows.slice(1).map((r) => keep.map((i) => r[i]))],
    truncated: result.truncated,
  }
}

function numberOf(value: unknown): number {
  if (typeof value === 'number') return value
  if (typeof value === 'bigint' || typeof value === 'string') return Number(value)
  return Number.NaN
}

function outcomeOf(test: DerivedTest, input: (name: string) => unknown): TestOutcome | null {
  const n = numberOf(input(TEST_INPUTS.n))
  switch (test.kind) {
    case 'correlation':
      return correlationTest(numberOf(input(TEST_INPUTS.r)), n)
    case 'shapiro': {
      const values = input(TEST_INPUTS.values)
      return Array.isArray(values) ? shapiroWilk(values.map(numberOf).filter((v) => Number.isFinite(v))) : null
    }
    case 'kolmogorov': {
      // Its verdict only, when every reading of the normal law reaches it (kolmogorov-smirnov.ts).
      const values = input(TEST_INPUTS.values)
      if (!Array.isArray(values) || test.alpha === null) return null
      return kolmogorovSmirnovNormality(
        values.map(numberOf).filter((v) => Number.isFinite(v)),
        test.alpha,
      )
    }
    case 'dagostino':
      // The query gives the biased moments (SciPy's): g₁ and b₂.
      return dagostinoPearson(n, numberOf(input(TEST_INPUTS.skewness)), numberOf(input(TEST_INPUTS.kurtosis)))
    case 'ttest':
    case 'welch':
      return tTest(groupsOf(input(TEST_INPUTS.groups)), test.kind === 'welch')
    case 'anova':
      return oneWayAnova(groupsOf(input(TEST_INPUTS.groups)))
    case 'chisquare': {
      const cells = input(TEST_INPUTS.cells)
      if (!Array.isArray(cells)) return null
      return chiSquareIndependence(
        cells.map((cell): ContingencyCell => {
          const [row, column, count] = Array.isArray(cell) ? cell : []
          return [String(row), String(column), numberOf(count)]
        }),
      )
    }
  }
}

/** The groups' `[count, mean, variance]` lists as DuckDB returned them. */
function groupsOf(value: unknown): GroupSummary[] {
  if (!Array.isArray(value)) return []
  return value.map((group): GroupSummary => {
    const [n, mean, variance] = Array.isArray(group) ? group.map(numberOf) : []
    return [n ?? Number.NaN, mean ?? Number.NaN, variance ?? Number.NaN]
  })
}

function rounded(value: number, decimals: number | null): number {
  if (decimals === null) return value
  const factor = 10 ** decimals
  return Math.round(value * factor) / factor
}

/** `r`: a correlation test's coefficient, which a ruled verdict may read ("linear" when |r| ≥ 0.5). */
function outputValue(
  output: TestOutput,
  outcome: TestOutcome | null,
  test: DerivedTest,
  r: number,
): number | string | null {
  if (!outcome || !Number.isFinite(outcome.p)) return null
  switch (output.value) {
    case 'p':
      return rounded(outcome.p, test.decimals)
    case 'statistic':
      return rounded(outcome.statistic, test.decimals)
    case 'verdict': {
      if ('cases' in output)
        return verdictAnswer(output.cases, { p: outcome.p, r: test.kind === 'correlation' ? r : Number.NaN })
      if (test.alpha === null) return null
      // A normality test's null hypothesis is the affirmative (normal); the others' is its negation.
      const rejected = outcome.p < test.alpha
      const affirmative = nullIsAffirmative(test.kind) ? !rejected : rejected
      return affirmative ? output.affirmative : output.negative
    }
  }
}
