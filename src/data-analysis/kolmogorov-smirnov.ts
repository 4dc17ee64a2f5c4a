import { normalUpperTail } from './distributions.js'
import type { TestOutcome } from './hypothesis-tests.js'

/**
 * The Kolmogorov-Smirnov test of normality, as a question asks for it without saying against
 * which normal law: SciPy's `kstest(x, 'norm')` compares the values with the standard normal law
 * as they are, analysts' code often standardises them first (by the sample or the population
 * standard deviation). The readings give different p-values, so only the verdict is given, and
 * only when every reading reaches it clearly: each p-value below a fifth of the level, or above
 * five times it. Otherwise null: the verdict is left empty rather than guessed.
 */

/** How far from the level every reading's p-value must be, as a factor. */
const CLEAR_FACTOR = 5

/** The largest distance between the values' empirical distribution and the normal law N(mean, sd). */
function ksDistance(sorted: readonly number[], mean: number, sd: number): number {
  const n = sorted.length
  let d = 0
  for (const [i, value] of sorted.entries()) {
    const cdf = 1 - normalUpperTail((value - mean) / sd)
    d = Math.max(d, (i + 1) / n - cdf, cdf - i / n)
  }
  return d
}

/** The p-value of a distance d over n values: Kolmogorov's limiting law with Stephens' correction for n. */
export function ksPValue(d: number, n: number): number {
  const sqrtN = Math.sqrt(n)
  const lambda = (sqrtN + 0.12 + 0.11 / sqrtN) * d
  if (lambda < 0.2) return 1
  let sum = 0
  for (let k = 1; k <= 100; k++) {
    const term = 2 * (k % 2 === 1 ? 1 : -1) * Math.exp(-2 * k * k * lambda * lambda)
    sum += term
    if (Math.abs(term) < 1e-12) break
  }
  return Math.min(1, Math.max(0, sum))
}

/**
 * The test over the values (in any order), at the level alpha: a p-value standing for every
 * reading (the largest when all reject, the smallest when none does) and the statistic of the
 * values as they are; null when the readings disagree or one is near the level, or with fewer
 * than 3 values or values all equal.
 */
export function kolmogorovSmirnovNormality(values: readonly number[], alpha: number): TestOutcome | null {
  const n = values.length
  if (n < 3) return null
  const sorted = [...values].sort((a, b) => a - b)
  const mean = sorted.reduce((sum, v) => sum + v, 0) / n
  const squares = sorted.reduce((sum, v) => sum + (v - mean) ** 2, 0)
  if (squares === 0) return null
  const readings = [
    [0, 1],
    [mean, Math.sqrt(squares / (n - 1))],
    [mean, Math.sqrt(squares / n)],
  ] as const
  const ps = readings.map(([m, sd]) => ksPValue(ksDistance(sorted, m, sd), n))
  const rejected = ps.every((p) => p < alpha / CLEAR_FACTOR)
  const kept = ps.every((p) => p > alpha * CLEAR_FACTOR)
  if (!rejected && !kept) return null
  return { statistic: ksDistance(sorted, 0, 1), p: rejected ? Math.max(...ps) : Math.min(...ps) }
}
