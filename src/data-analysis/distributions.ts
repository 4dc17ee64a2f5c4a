/**
 * The few distribution functions a test's p-value needs and DuckDB does not have (docs/decisions.md,
 * "Test p-values computed after the query"): the standard normal's tail and quantile, and Student's t
 * two-sided tail, the chi-square and F tails (tests between groups). Textbook routines (Numerical Recipes' series and Lentz continued fractions,
 * Acklam's quantile refined by one Halley step), accurate to about 1e-14 where a p-value is read;
 * test/data-analysis/distributions.test.ts checks them against SciPy.
 */

const EPSILON = 1e-15
const TINY = 1e-300
const MAX_ITERATIONS = 500

/** ln Γ(x) for x > 0 (Lanczos, g = 7, nine coefficients: about 15 significant digits). */
export function logGamma(x: number): number {
  if (x < 0.5) return Math.log(Math.PI / Math.abs(Math.sin(Math.PI * x))) - logGamma(1 - x)
  const c = [
    0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059,
    12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7,
  ]
  const z = x - 1
  let sum = c[0] as number
  for (let i = 1; i < c.length; i++) sum += (c[i] as number) / (z + i)
  const t = z + 7.5
  return 0.5 * Math.log(2 * Math.PI) + (z + 0.5) * Math.log(t) - t + Math.log(sum)
}

/** The regularised lower incomplete gamma P(a, x): its series below a + 1, else 1 − its continued fraction. */
function gammaP(a: number, x: number): number {
  if (x <= 0) return 0
  const prefix = Math.exp(a * Math.log(x) - x - logGamma(a))
  if (x < a + 1) {
    let term = 1 / a
    let sum = term
    for (let n = 1; n < MAX_ITERATIONS && Math.abs(term) > Math.abs(sum) * EPSILON; n++) {
      term *= x / (a + n)
      sum += term
    }
    return sum * prefix
  }
  return 1 - gammaQFraction(a, x) * prefix
}

/** Lentz's continued fraction of the upper incomplete gamma, without its prefix. */
function gammaQFraction(a: number, x: number): number {
  let b = x + 1 - a
  let c = 1 / TINY
  let d = 1 / b
  let h = d
  for (let i = 1; i < MAX_ITERATIONS; i++) {
    const an = -i * (i - a)
    b += 2
    d = an * d + b
    if (Math.abs(d) < TINY) d = TINY
    c = b + an / c
    if (Math.abs(c) < TINY) c = TINY
    d = 1 / d
    const delta = d * c
    h *= delta
    if (Math.abs(delta - 1) < EPSILON) break
  }
  return h
}

/** erfc(x) for x ≥ 0, without the cancellation of 1 − erf(x) far in the tail. */
function erfc(x: number): number {
  const a = 0.5
  const z = x * x
  if (z < a + 1) return 1 - gammaP(a, z)
  return gammaQFraction(a, z) * Math.exp(a * Math.log(z) - z - logGamma(a))
}

/** P(Z > z) for a standard normal Z. */
export function normalUpperTail(z: number): number {
  if (Number.isNaN(z)) return Number.NaN
  return z >= 0 ? 0.5 * erfc(z / Math.SQRT2) : 1 - 0.5 * erfc(-z / Math.SQRT2)
}

/** Φ⁻¹(p): Acklam's rational approximation (relative error 1.15e-9), refined by one Halley step. */
export function normalQuantile(p: number): number {
  if (p <= 0) return Number.NEGATIVE_INFINITY
  if (p >= 1) return Number.POSITIVE_INFINITY
  const a = [
    -39.69683028665376, 220.9460984245205, -275.9285104469687, 138.357751867269, -30.66479806614716, 2.506628277459239,
  ]
  const b = [-54.47609879822406, 161.5858368580409, -155.6989798598866, 66.80131188771972, -13.28068155288572]
  const c = [
    -0.007784894002430293, -0.3223964580411365, -2.400758277161838, -2.549732539343734, 4.374664141464968,
    2.938163982698783,
  ]
  const d = [0.007784695709041462, 0.3224671290700398, 2.445134137142996, 3.754408661907416]
  const [a0, a1, a2, a3, a4, a5] = a as [number, number, number, number, number, number]
  const [b0, b1, b2, b3, b4] = b as [number, number, number, number, number]
  const [c0, c1, c2, c3, c4, c5] = c as [number, number, number, number, number, number]
  const [d0, d1, d2, d3] = d as [number, number, number, number]
  const low = 0.02425
  let x: number
  if (p < low || p > 1 - low) {
    const q = Math.sqrt(-2 * Math.log(p < low ? p : 1 - p))
    const tail =
      (((((c0 * q + c1) * q + c2) * q + c3) * q + c4) * q + c5) / ((((d0 * q + d1) * q + d2) * q + d3) * q + 1)
    x = p < low ? tail : -tail
  } else {
    const q = p - 0.5
    const r = q * q
    x =
      ((((((a0 * r + a1) * r + a2) * r + a3) * r + a4) * r + a5) * q) /
      (((((b0 * r + b1) * r + b2) * r + b3) * r + b4) * r + 1)
  }
  // One Halley step on Φ(x) − p brings the error to the double's own.
  const error = 1 - normalUpperTail(x) - p
  const u = error * Math.sqrt(2 * Math.PI) * Math.exp((x * x) / 2)
  return x - u / (1 + (x * u) / 2)
}

/** The regularised incomplete beta I_x(a, b), by its continued fraction on the side where it converges fast. */
export function incompleteBeta(x: number, a: number, b: number): number {
  if (x <= 0) return 0
  if (x >= 1) return 1
  const front = Math.exp(logGamma(a + b) - logGamma(a) - logGamma(b) + a * Math.log(x) + b * Math.log(1 - x))
  if (x < (a + 1) / (a + b + 2)) return (front * betaFraction(x, a, b)) / a
  return 1 - (front * betaFraction(1 - x, b, a)) / b
}

/** Lentz's evaluation of the incomplete beta's continued fraction. */
function betaFraction(x: number, a: number, b: number): number {
  let c = 1
  let d = 1 - ((a + b) * x) / (a + 1)
  if (Math.abs(d) < TINY) d = TINY
  d = 1 / d
  let h = d
  for (let m = 1; m < MAX_ITERATIONS; m++) {
    const m2 = 2 * m
    const even = (m * (b - m) * x) / ((a + m2 - 1) * (a + m2))
    d = 1 + even * d
    if (Math.abs(d) < TINY) d = TINY
    c = 1 + even / c
    if (Math.abs(c) < TINY) c = TINY
    d = 1 / d
    h *= d * c
    const odd = (-(a + m) * (a + b + m) * x) / ((a + m2) * (a + m2 + 1))
    d = 1 + odd * d
    if (Math.abs(d) < TINY) d = TINY
    c = 1 + odd / c
    if (Math.abs(c) < TINY) c = TINY
    d = 1 / d
    const delta = d * c
    h *= delta
    if (Math.abs(delta - 1) < EPSILON) break
  }
  return h
}

/** P(|T| > |t|) for Student's t with `df` degrees of freedom: I_{df/(df+t²)}(df/2, 1/2). */
export function studentTwoSidedP(t: number, df: number): number {
  if (Number.isNaN(t) || !(df > 0)) return Number.NaN
  if (!Number.isFinite(t)) return 0
  return incompleteBeta(df / (df + t * t), df / 2, 0.5)
}

/** P(X > x) for the chi-square distribution with `df` degrees of freedom: Q(df/2, x/2), from its continued fraction in the tail (no 1 − P cancellation). */
export function chiSquareUpperTail(x: number, df: number): number {
  if (Number.isNaN(x) || !(df > 0)) return Number.NaN
  if (x <= 0) return 1
  const [a, half] = [df / 2, x / 2]
  if (half < a + 1) return 1 - gammaP(a, half)
  return gammaQFraction(a, half) * Math.exp(a * Math.log(half) - half - logGamma(a))
}

/** P(F > f) for Fisher's F with (d1, d2) degrees of freedom: I_{d2/(d2+d1·f)}(d2/2, d1/2). */
export function fUpperTail(f: number, d1: number, d2: number): number {
  if (Number.isNaN(f) || !(d1 > 0) || !(d2 > 0)) return Number.NaN
  if (f <= 0) return 1
  if (!Number.isFinite(f)) return 0
  return incompleteBeta(d2 / (d2 + d1 * f), d2 / 2, d1 / 2)
}
