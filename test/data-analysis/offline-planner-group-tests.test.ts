import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { completeTest } from '../../src/data-analysis/derived-test.js'
import { chiSquareUpperTail, fUpperTail } from '../../src/data-analysis/distributions.js'
import { chiSquareIndependence, oneWayAnova, tTest } from '../../src/data-analysis/group-tests.js'
import type { QueryResult } from '../../src/data-analysis/sandbox.js'
import type { QueryPlan } from '../../src/data-analysis/types.js'
import { type PlannerWorld, plannerWorld } from './offline-planner-support.js'

// Tests between groups (docs/data-analysis.md, "Tests"): planned by the offline planner, their
// per-group inputs computed by a real DuckDB, finished by completeTest. Expected values computed by
// hand with SciPy 1.17.1 on the orders table (offline-planner-support.ts) and written as literals:
// ttest_ind(amount[Paris], amount[Lyon]) → t −0.1467027757014255, p 0.8875023043595781;
// the same with equal_var=False → t −0.13357645904254664, p 0.9005785675206905;
// f_oneway(amount by city, cities in order) → F 4.298290895611647, p 0.04400124964104448;
// ttest_ind(amount[express 0], amount[express 1]) → t −3.307367047592333, p 0.007914424984877176;
// chi2_contingency(status × express) → 2.1964285714285716, p 0.3334660273891693.

let w: PlannerWorld
beforeAll(async () => {
  w = await plannerWorld()
})
afterAll(() => w.close())

async function answer(question: string): Promise<{ plan: QueryPlan; row: Record<string, unknown> }> {
  const outcome = await w.ask(question)
  if (outcome.kind !== 'plan') throw new Error(`declined: ${outcome.reason}`)
  const reader = await w.connection.runAndReadAll(outcome.plan.sql)
  const queried: QueryResult = { columns: reader.columnNames(), rows: reader.getRowsJS(), truncated: false }
  const result = outcome.plan.test ? completeTest(queried, outcome.plan.test) : queried
  return { plan: outcome.plan, row: Object.fromEntries(result.columns.map((name, i) => [name, result.rows[0]?.[i]])) }
}

describe('tests between groups: the arithmetic, against SciPy', () => {
  it('gives the t, F and chi-square statistics and p-values SciPy gives', () => {
    const a = [1, 2, 3, 4, 5, 6.5]
    const b = [2, 4, 6, 8, 9.5]
    const c = [5, 5.5, 7, 8, 1]
    const summary = (xs: number[]) => {
      const mean = xs.reduce((s, x) => s + x, 0) / xs.length
      return [xs.length, mean, xs.reduce((s, x) => s + (x - mean) ** 2, 0) / (xs.length - 1)] as const
    }
    const student = tTest([summary(a), summary(b)], false)
    expect(student?.statistic).toBeCloseTo(-1.5281903584851637, 12)
    expect(student?.p).toBeCloseTo(0.16081532130745627, 12)
    expect(tTest([summary(a), summary(b)], true)?.p).toBeCloseTo(0.18637641988913342, 12)
    const anova = oneWayAnova([summary(a), summary(b), summary(c)])
    expect(anova?.statistic).toBeCloseTo(1.2320599022004886, 12)
    expect(anova?.p).toBeCloseTo(0.3236070343602632, 12)
    // 2×2 with Yates' correction; 3×2 without.
    const yates = chiSquareIndependence([
      ['m', 'y', 10],
      ['m', 'n', 20],
      ['f', 'y', 25],
      ['f', 'n', 5],
    ])
    expect(yates?.statistic).toBeCloseTo(13.44, 12)
    expect((yates?.p as number) / 0.0002463156216738152).toBeCloseTo(1, 9)
    const wider = chiSquareIndependence([
      ['m', 'y', 10],
      ['m', 'n', 20],
      ['f', 'y', 25],
      ['f', 'n', 5],
      ['x', 'y', 3],
      ['x', 'n', 9],
    ])
    expect(wider?.statistic).toBeCloseTo(19.5046439628483, 12)
    expect((wider?.p as number) / 5.8159461633684075e-5).toBeCloseTo(1, 9)
    // scipy.stats.chi2.sf(3.2, 4), f.sf(2.5, 3, 17)
    expect(chiSquareUpperTail(3.2, 4)).toBeCloseTo(0.5249309467861041, 12)
    expect(fUpperTail(2.5, 3, 17)).toBeCloseTo(0.09428280507894789, 12)
    expect(tTest([[1, 5, 0], summary(b)], false)).toBeNull()
  })
})

describe('tests between groups, planned and run', () => {
  it('a t-test between two named values, in their order, with its verdict', async () => {
    const { plan, row } = await answer(
      'Is there a significant difference in amount between Paris and Lyon? Perform an independent two-sample t-test with a significance level of 0.05.\n@p_value[p] @t_statistic[t] @result[r] where "r" is either "significant" or "not significant".',
    )
    expect(row.t_statistic).toBeCloseTo(-0.1467027757014255, 10)
    expect(row.p_value).toBeCloseTo(0.8875023043595781, 10)
    expect(row.result).toBe('not significant')
    expect(plan.explanation).toContain('"amount" between the groups of "city" ("Paris", "Lyon")')
    const welch = await answer(
      "Is there a significant difference in amount between Paris and Lyon? Use Welch's t-test.",
    )
    expect(welch.row.p_value).toBeCloseTo(0.9005785675206905, 10)
  })

  it('a t-test over a flag, an ANOVA over every value of a column, a chi-square over two categorical columns', async () => {
    const flag = await answer(
      'Is there a significant difference in amount between express and non-express orders? Use a t-test.',
    )
    expect(flag.row.test_statistic).toBeCloseTo(-3.307367047592333, 10)
    expect(flag.row.verdict).toBe('significant')
    const anova = await answer(
      'Is there a significant difference in the mean amount across the different cities? Perform a one-way ANOVA. @f_statistic[f] @p_value[p]',
    )
    expect(anova.row.f_statistic).toBeCloseTo(4.298290895611647, 10)
    expect(anova.row.p_value).toBeCloseTo(0.04400124964104448, 10)
    const chi = await answer(
      'Is the status associated with the express flag? Perform a chi-square test of independence. @chi2[c] @p_value[p] @association[a] where "a" is "associated" or "not associated".',
    )
    expect(chi.row.chi2).toBeCloseTo(2.1964285714285716, 10)
    expect(chi.row.p_value).toBeCloseTo(0.3334660273891693, 10)
    expect(chi.row.association).toBe('not associated')
  })

  it('declines a t-test over more than two groups, a paired or two-way design, unclear roles', async () => {
    const reason = async (question: string) => {
      const outcome = await w.ask(question)
      return outcome.kind === 'declined' ? outcome.reason : `planned: ${outcome.plan.sql}`
    }
    expect(await reason('Is there a difference in amount across cities? Use a t-test.')).toMatch(/two groups/)
    expect(await reason('Is amount different between Paris and Lyon? Use a paired t-test.')).toMatch(/t test/)
    expect(await reason('Does amount differ by city and status? Use a two-way ANOVA.')).toMatch(/anova/)
    expect(await reason('Do amount and qty differ across cities? Perform a one-way ANOVA.')).toMatch(/one numeric/)
  })
})
