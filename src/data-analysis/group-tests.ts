import { chiSquareUpperTail, fUpperTail, studentTwoSidedP } from './distributions.js'
import type { TestOutcome } from './hypothesis-tests.js'

/**
 * Tests between groups, finished from what DuckDB computed per group (docs/data-analysis.md,
 * "Tests"): each group's count, mean and sample variance (`count`, `avg`, `var_samp`) for the
 * t-tests and the one-way ANOVA, the contingency table's counts for the chi-square test. The
 * statistics and p-values are SciPy's: `ttest_ind` (Student, or Welch with `equal_var=False`),
 * `f_oneway`, `chi2_contingency` (Yates' correction at one degree of freedom, its default).
 * Null when the test cannot be computed (a group of one value, no spread, a single category).
 */

/** One group's count, mean and sample variance. */
export type GroupSummary = readonly [n: number, mean: number, variance: number]

/** The two groups' t statistic (first minus second) and two-sided p-value. */
export function tTest(groups: readonly GroupSummary[], welch: boolean): TestOutcome | null {
  const [a, b] = groups
  if (groups.length !== 2 || !a || !b) return null
  const [n1, m1, v1] = a
  const [n2, m2, v2] = b
  if (n1 < 2 || n2 < 2) return null
  let t: number
  let df: number
  if (welch) {
    const [s1, s2] = [v1 / n1, v2 / n2]
    t = (m1 - m2) / Math.sqrt(s1 + s2)
    df = (s1 + s2) ** 2 / (s1 ** 2 / (n1 - 1) + s2 ** 2 / (n2 - 1))
  } else {
    df = n1 + n2 - 2
    const pooled = ((n1 - 1) * v1 + (n2 - 1) * v2) / df
    t = (m1 - m2) / Math.sqrt(pooled * (1 / n1 + 1 / n2))
  }
  if (!Number.isFinite(t)) return null
  return { statistic: t, p: studentTwoSidedP(t, df) }
}

/** One-way ANOVA's F over two groups or more, and its p-value. */
export function oneWayAnova(groups: readonly GroupSummary[]): TestOutcome | null {
  const k = groups.length
  const total = groups.reduce((sum, [n]) => sum + n, 0)
  if (k < 2 || total <= k) return null
  const grand = groups.reduce((sum, [n, mean]) => sum + n * mean, 0) / total
  const between = groups.reduce((sum, [n, mean]) => sum + n * (mean - grand) ** 2, 0)
  const within = groups.reduce((sum, [n, , variance]) => sum + (n > 1 ? (n - 1) * variance : 0), 0)
  const f = between / (k - 1) / (within / (total - k))
  if (!Number.isFinite(f)) return null
  return { statistic: f, p: fUpperTail(f, k - 1, total - k) }
}

/** One cell of a contingency table: the two columns' values and how many rows have both. */
export type ContingencyCell = readonly [row: string, column: string, count: number]

/** The chi-square test of independence over a contingency table given by its non-empty cells. */
export function chiSquareIndependence(cells: readonly ContingencyCell[]): TestOutcome | null {
  const rows = [...new Set(cells.map(([row]) => row))]
  const columns = [...new Set(cells.map(([, column]) => column))]
  if (rows.length < 2 || columns.length < 2) return null
  const count = (row: string, column: string) => cells.find(([r, c]) => r === row && c === column)?.[2] ?? 0
  const rowTotal = (row: string) => columns.reduce((sum, column) => sum + count(row, column), 0)
  const columnTotal = (column: string) => rows.reduce((sum, row) => sum + count(row, column), 0)
  const total = rows.reduce((sum, row) => sum + rowTotal(row), 0)
  const df = (rows.length - 1) * (columns.length - 1)
  let statistic = 0
  for (const row of rows) {
    for (const column of columns) {
      const expected = (rowTotal(row) * columnTotal(column)) / total
      const observed = count(row, column)
      // Yates: at one degree of freedom each count moves towards its expected value by at most 0.5.
      const gap = df === 1 ? Math.max(Math.abs(observed - expected) - 0.5, 0) : Math.abs(observed - expected)
      statistic += gap ** 2 / expected
    }
  }
  if (!Number.isFinite(statistic)) return null
  return { statistic, p: chiSquareUpperTail(statistic, df) }
}
