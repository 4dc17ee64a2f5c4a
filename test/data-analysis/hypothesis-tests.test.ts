import { describe, expect, it } from 'vitest'
import { normalQuantile, normalUpperTail, studentTwoSidedP } from '../../src/data-analysis/distributions.js'
import { correlationPValue, dagostinoPearson, shapiroWilk } from '../../src/data-analysis/hypothesis-tests.js'
import { kolmogorovSmirnovNormality, ksPValue } from '../../src/data-analysis/kolmogorov-smirnov.js'

// Every expected value below was computed by hand with SciPy 1.17.1 (python3 on the development
// machine; never used by the product or the tests) and written here as a literal:
// scipy.stats.norm.ppf / norm.sf, 2 * t.sf(|t|, df), shapiro, normaltest, pearsonr, spearmanr.

const AMOUNT = [120.5, 80, 45.25, 300, 15, 99.99, 210, 60, 175, 33, 8.5, 142]
const QTY = [3, 1, 2, 10, 1, 4, 7, 2, 5, 1, 1, 6]

/** SciPy's biased moments: g₁ and b₂ (not the excess). */
function biasedMoments(xs: readonly number[]): [number, number] {
  const n = xs.length
  const mean = xs.reduce((a, b) => a + b, 0) / n
  const m = (k: number) => xs.reduce((a, x) => a + (x - mean) ** k, 0) / n
  return [m(3) / m(2) ** 1.5, m(4) / m(2) ** 2]
}

/** Ranks from 1, tied values sharing their mean rank. */
const ranks = (xs: readonly number[]) =>
  xs.map((x) => xs.filter((y) => y < x).length + (xs.filter((y) => y === x).length + 1) / 2)

function pearson(xs: readonly number[], ys: readonly number[]): number {
  const mean = (v: readonly number[]) => v.reduce((a, b) => a + b, 0) / v.length
  const [mx, my] = [mean(xs), mean(ys)]
  const sxy = xs.reduce((a, x, i) => a + (x - mx) * ((ys[i] as number) - my), 0)
  const sxx = xs.reduce((a, x) => a + (x - mx) ** 2, 0)
  const syy = ys.reduce((a, y) => a + (y - my) ** 2, 0)
  return sxy / Math.sqrt(sxx * syy)
}

describe('distributions DuckDB lacks', () => {
  it('gives the standard normal quantile and upper tail as SciPy does', () => {
    expect(normalQuantile(0.025)).toBeCloseTo(-1.9599639845400545, 12)
    expect(normalQuantile(0.9)).toBeCloseTo(1.2815515655446004, 12)
    expect(normalUpperTail(3.5) / 0.00023262907903552502).toBeCloseTo(1, 10)
    expect(normalUpperTail(-0.3)).toBeCloseTo(0.6179114221889526, 14)
  })

  it("gives Student's t two-sided tail for small and large degrees of freedom", () => {
    expect(studentTwoSidedP(2.1, 7)).toBeCloseTo(0.07387119621292265, 12)
    expect(studentTwoSidedP(-0.4, 250)).toBeCloseTo(0.6894980759343207, 12)
    expect(studentTwoSidedP(12, 3) / 0.0012450158007893362).toBeCloseTo(1, 10)
  })
})

describe('tests computed as SciPy computes them', () => {
  it("gives a Pearson or Spearman correlation's two-sided p-value from r and n", () => {
    expect(pearson(AMOUNT, QTY)).toBeCloseTo(0.9594413924224802, 12)
    expect(correlationPValue(pearson(AMOUNT, QTY), 12) / 8.073830087336705e-7).toBeCloseTo(1, 8)
    const rho = pearson(ranks(AMOUNT), ranks(QTY))
    expect(rho).toBeCloseTo(0.9235287091052666, 12)
    expect(correlationPValue(rho, 12) / 1.809551159804561e-5).toBeCloseTo(1, 8)
    expect(correlationPValue(1, 12)).toBe(0)
    expect(correlationPValue(0.5, 2)).toBeNaN()
  })

  it("gives Shapiro-Wilk's W and p-value (Royston's approximation) for three, a few and a dozen values", () => {
    // SciPy's swilk works partly in single precision: W and p agree to about 1e-9.
    const cases: [number[], number, number][] = [
      [AMOUNT, 0.9250591690952354, 0.3306649106343541],
      [QTY, 0.8612626195165334, 0.05070109093613987],
      [[1, 2, 7], 0.870967741935484, 0.29827585215423635],
      [[1, 2, 3, 7], 0.886912377825691, 0.36899933220894193],
      [[1, 2, 3, 4, 5, 20], 0.6890610841484865, 0.004730828897576775],
    ]
    for (const [values, w, p] of cases) {
      const outcome = shapiroWilk(values)
      expect(outcome?.statistic).toBeCloseTo(w, 8)
      expect(outcome?.p).toBeCloseTo(p, 8)
    }
    expect(shapiroWilk([4, 4, 4, 4])).toBeNull()
    expect(shapiroWilk([1, 2])).toBeNull()
  })

  it("gives D'Agostino-Pearson's K² and p-value from n and the biased moments", () => {
    const [g1, b2] = biasedMoments(AMOUNT)
    const amount = dagostinoPearson(12, g1, b2)
    expect(amount?.statistic).toBeCloseTo(2.8853953622184787, 10)
    expect(amount?.p).toBeCloseTo(0.23628946448746385, 10)
    const qty = dagostinoPearson(12, ...biasedMoments(QTY))
    expect(qty?.p).toBeCloseTo(0.19183657216977917, 10)
    expect(dagostinoPearson(7, g1, b2)).toBeNull()
  })
})

// Expected values from SciPy 1.17.1: kstwo.sf(d, n) for the p-values of a distance; kstest(x, 'norm')
// and kstest(x, 'norm', args=(mean, std)) for the readings.
describe('Kolmogorov-Smirnov normality verdict', () => {
  const near = [-1.2, -0.8, -0.5, -0.3, -0.1, 0, 0.2, 0.4, 0.7, 1.1, 1.5, -1.6, 0.9, -0.2, 0.05]

  it("gives a distance's p-value within 2 % of SciPy's exact one", () => {
    expect(ksPValue(0.1, 100) / 0.2526927570063874).toBeCloseTo(1, 1)
    expect(ksPValue(0.05, 1000) / 0.013012074781090332).toBeCloseTo(1, 1)
    expect(ksPValue(0.3, 20) / 0.04306706665851623).toBeCloseTo(1, 1)
  })

  it('keeps normal values and rejects skewed ones when every reading agrees, with the statistic of the values as they are', () => {
    const kept = kolmogorovSmirnovNormality(near, 0.05)
    expect(kept?.statistic).toBeCloseTo(0.11542191114438072, 10)
    expect(kept?.p).toBeGreaterThan(0.25)
    // kstest p: 1.86e-31 against N(0, 1), 0.00406 against N(mean, sd).
    const skewed = kolmogorovSmirnovNormality(
      Array.from({ length: 30 }, (_, i) => Math.exp(i / 3)),
      0.05,
    )
    expect(skewed?.statistic).toBeCloseTo(0.9076099359870644, 10)
    expect(skewed?.p).toBeLessThan(0.01)
  })

  it('gives nothing when the readings disagree (p 0 against N(0, 1), 0.9987 against N(mean, sd)) or the values are equal', () => {
    expect(
      kolmogorovSmirnovNormality(
        near.map((v) => v * 10 + 50),
        0.05,
      ),
    ).toBeNull()
    expect(kolmogorovSmirnovNormality([3, 3, 3, 3], 0.05)).toBeNull()
  })
})
