import { normalQuantile, normalUpperTail, studentTwoSidedP } from './distributions.js'

/**
 * The tests a data question asks for by name, computed as SciPy computes them (docs/data-analysis.md,
 * "Tests"): the significance of a correlation, Shapiro-Wilk's W and D'Agostino-Pearson's K². Their
 * inputs (a correlation and its row count, the sorted values, the moments) come from DuckDB; only
 * the distributions it lacks are computed here.
 */

/** A correlation r's t over n rows: r·√((n−2)/(1−r²)). */
function correlationT(r: number, n: number): number {
  return r * Math.sqrt((n - 2) / (1 - r * r))
}

/** Two-sided p-value of a Pearson or Spearman correlation r over n rows: its t, Student's t with n−2 df (SciPy's pearsonr, spearmanr). */
export function correlationPValue(r: number, n: number): number {
  if (!(n > 2) || Number.isNaN(r)) return Number.NaN
  if (Math.abs(r) >= 1) return 0
  return studentTwoSidedP(correlationT(r, n), n - 2)
}

/** A correlation's significance test: its t and two-sided p-value; null when there is none (n ≤ 2). */
export function correlationTest(r: number, n: number): TestOutcome | null {
  const p = correlationPValue(r, n)
  return Number.isNaN(p) ? null : { statistic: correlationT(r, n), p }
}

/** `c[0] + c[1]·x + c[2]·x² + …`, as swilk's poly(). */
function poly(c: readonly number[], x: number): number {
  let value = 0
  for (let i = c.length - 1; i >= 0; i--) value = value * x + (c[i] as number)
  return value
}

// Royston (1995), algorithm AS R94, as in SciPy's swilk.c.
const C1 = [0, 0.221157, -0.147981, -2.07119, 4.434685, -2.706056]
const C2 = [0, 0.042981, -0.293762, -1.752461, 5.682633, -3.582633]
const C3 = [0.544, -0.39978, 0.025054, -6.714e-4]
const C4 = [1.3822, -0.77857, 0.062767, -0.0020322]
const C5 = [-1.5861, -0.31082, -0.083751, 0.0038915]
const C6 = [-0.4803, -0.082676, 0.0030302]
const G = [-2.273, 0.459]

/** Shapiro-Wilk's coefficients a_1…a_⌊n/2⌋ (positive, for the largest minus the smallest values). */
function shapiroCoefficients(n: number): number[] {
  const half = Math.floor(n / 2)
  if (n === 3) return [Math.SQRT1_2]
  const m = Array.from({ length: half }, (_, i) => normalQuantile((i + 1 - 0.375) / (n + 0.25)))
  const summ2 = 2 * m.reduce((sum, v) => sum + v * v, 0)
  const ssumm2 = Math.sqrt(summ2)
  const rsn = 1 / Math.sqrt(n)
  const [m0, m1] = [m[0] as number, m[1] as number]
  const a1 = poly(C1, rsn) - m0 / ssumm2
  const a = new Array<number>(half).fill(0)
  a[0] = a1
  let first: number
  let fac: number
  if (n > 5) {
    const a2 = -m1 / ssumm2 + poly(C2, rsn)
    fac = Math.sqrt((summ2 - 2 * m0 * m0 - 2 * m1 * m1) / (1 - 2 * a1 * a1 - 2 * a2 * a2))
    a[1] = a2
    first = 2
  } else {
    fac = Math.sqrt((summ2 - 2 * m0 * m0) / (1 - 2 * a1 * a1))
    first = 1
  }
  for (let i = first; i < half; i++) a[i] = -(m[i] as number) / fac
  return a
}

export interface TestOutcome {
  /** The test's statistic: W, K², or the correlation's t. */
  readonly statistic: number
  readonly p: number
}

/**
 * Shapiro-Wilk over the values (any order; n ≥ 3), W the squared correlation between the sorted
 * values and the coefficients, its p-value from Royston's normalising transformation: the W and
 * p SciPy's shapiro reports. Null when all values are equal (no test).
 */
export function shapiroWilk(values: readonly number[]): TestOutcome | null {
  const x = [...values].sort((p, q) => p - q)
  const n = x.length
  if (n < 3) return null
  const range = (x[n - 1] as number) - (x[0] as number)
  if (!(range > 0)) return null
  const a = shapiroCoefficients(n)
  const mean = x.reduce((sum, v) => sum + v, 0) / n
  let numerator = 0
  for (let i = 0; i < a.length; i++) numerator += (a[i] as number) * ((x[n - 1 - i] as number) - (x[i] as number))
  const squares = x.reduce((sum, v) => sum + (v - mean) ** 2, 0)
  const w = Math.min(1, (numerator * numerator) / squares)
  return { statistic: w, p: shapiroPValue(w, n) }
}

function shapiroPValue(w: number, n: number): number {
  if (n === 3) {
    // Exact for three values.
    const p = (6 / Math.PI) * (Math.asin(Math.sqrt(w)) - Math.PI / 3)
    return Math.max(0, p)
  }
  let y = Math.log(1 - w)
  let m: number
  let s: number
  if (n <= 11) {
    const gamma = poly(G, n)
    if (y >= gamma) return 1e-99
    y = -Math.log(gamma - y)
    m = poly(C3, n)
    s = Math.exp(poly(C4, n))
  } else {
    const ln = Math.log(n)
    m = poly(C5, ln)
    s = Math.exp(poly(C6, ln))
  }
  return normalUpperTail((y - m) / s)
}

/**
 * D'Agostino and Pearson's K² (SciPy's normaltest): the skewness test's and the kurtosis test's
 * z-scores squared and summed, p = P(χ²₂ > K²) = exp(−K²/2). `skewness` is the biased g₁,
 * `kurtosis` the biased b₂ (not the excess); the skewness test needs n ≥ 8, null below.
 */
export function dagostinoPearson(n: number, skewness: number, kurtosis: number): TestOutcome | null {
  if (!(n >= 8) || !Number.isFinite(skewness) || !Number.isFinite(kurtosis)) return null
  const zs = skewnessZ(n, skewness)
  const zk = kurtosisZ(n, kurtosis)
  const k2 = zs * zs + zk * zk
  return { statistic: k2, p: Math.exp(-k2 / 2) }
}

/** SciPy's skewtest z-score. */
function skewnessZ(n: number, g1: number): number {
  let y = g1 * Math.sqrt(((n + 1) * (n + 3)) / (6 * (n - 2)))
  const beta2 = (3 * (n * n + 27 * n - 70) * (n + 1) * (n + 3)) / ((n - 2) * (n + 5) * (n + 7) * (n + 9))
  const w2 = -1 + Math.sqrt(2 * (beta2 - 1))
  const delta = 1 / Math.sqrt(0.5 * Math.log(w2))
  const alpha = Math.sqrt(2 / (w2 - 1))
  if (y === 0) y = 1
  return delta * Math.log(y / alpha + Math.sqrt((y / alpha) ** 2 + 1))
}

/** SciPy's kurtosistest z-score (Anscombe and Glynn). */
function kurtosisZ(n: number, b2: number): number {
  const expected = (3 * (n - 1)) / (n + 1)
  const variance = (24 * n * (n - 2) * (n - 3)) / ((n + 1) * (n + 1) * (n + 3) * (n + 5))
  const x = (b2 - expected) / Math.sqrt(variance)
  const sqrtBeta1 =
    ((6 * (n * n - 5 * n + 2)) / ((n + 7) * (n + 9))) * Math.sqrt((6 * (n + 3) * (n + 5)) / (n * (n - 2) * (n - 3)))
  const a = 6 + (8 / sqrtBeta1) * (2 / sqrtBeta1 + Math.sqrt(1 + 4 / (sqrtBeta1 * sqrtBeta1)))
  const term1 = 1 - 2 / (9 * a)
  const denominator = 1 + x * Math.sqrt(2 / (a - 4))
  const term2 = Math.sign(denominator) * Math.cbrt((1 - 2 / a) / Math.abs(denominator))
  return (term1 - term2) / Math.sqrt(2 / (9 * a))
}
