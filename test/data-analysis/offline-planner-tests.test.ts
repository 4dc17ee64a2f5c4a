import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { completeTest } from '../../src/data-analysis/derived-test.js'
import { readSlotOptions, verdictOf } from '../../src/data-analysis/offline-planner/cues/slot-options.js'
import type { QueryResult } from '../../src/data-analysis/sandbox.js'
import type { QueryPlan } from '../../src/data-analysis/types.js'
import { type PlannerWorld, plannerWorld } from './offline-planner-support.js'

// Tests asked by name, planned by the offline planner, their inputs computed by a real DuckDB and
// finished by completeTest, as the service does. Expected p-values and verdicts were computed by
// hand with SciPy 1.17.1 on the orders table's columns (amount, qty) and written here as literals:
// shapiro(qty) → W 0.8612626195165334, p 0.05070109093613987; shapiro(amount) → p 0.3306649106343541;
// normaltest(amount) → p 0.23628946448746385; pearsonr(amount, qty) → r 0.9594413924224802,
// p 8.073830087336705e-07.

let w: PlannerWorld
beforeAll(async () => {
  w = await plannerWorld()
})
afterAll(() => w.close())

/** Plans, runs, completes the test, and returns the first row by column name. */
async function answer(question: string): Promise<{ plan: QueryPlan; row: Record<string, unknown> }> {
  const outcome = await w.ask(question)
  if (outcome.kind !== 'plan') throw new Error(`declined: ${outcome.reason}`)
  const reader = await w.connection.runAndReadAll(outcome.plan.sql)
  const queried: QueryResult = { columns: reader.columnNames(), rows: reader.getRowsJS(), truncated: false }
  const result = outcome.plan.test ? completeTest(queried, outcome.plan.test) : queried
  const row = Object.fromEntries(result.columns.map((name, i) => [name, result.rows[0]?.[i]]))
  return { plan: outcome.plan, row }
}

async function declineReason(question: string): Promise<string> {
  const outcome = await w.ask(question)
  if (outcome.kind !== 'declined') throw new Error(`planned: ${outcome.plan.sql}`)
  return outcome.reason
}

const VERDICT = '@is_normal[is_normal] where "is_normal" is a string that is either "Normal" or "Not Normal".'

describe('verdict answers read from an answer format', () => {
  it('reads two answers, one the other negated, or true and false, and nothing else', () => {
    expect(verdictOf('Normal', 'Non-normal')).toEqual({ affirmative: 'Normal', negative: 'Non-normal' })
    expect(verdictOf('Not a normal distribution', 'Normal distribution')).toEqual({
      affirmative: 'Normal distribution',
      negative: 'Not a normal distribution',
    })
    expect(verdictOf('False', 'True')).toEqual({ affirmative: 'True', negative: 'False' })
    expect(verdictOf('linear', 'nonlinear')).toBeNull()
    expect(verdictOf('Positive', 'Negative')).toBeNull()
    const options = readSlotOptions(
      '@p_value[p_value] @result[result] where "p_value" is a number; where "result" is either "correlated" or "not correlated". @normal[True] if so, else @normal[False]. @kind[kind] where "kind" is "linear", "nonlinear" or "none".',
    )
    expect([...options.keys()]).toEqual(['result', 'normal'])
    expect(options.get('result')).toEqual({ affirmative: 'correlated', negative: 'not correlated' })
  })
})

describe('tests: p-values and verdicts computed after the query', () => {
  it('gives a Shapiro-Wilk p-value and verdict at the level the question states', async () => {
    const at05 = await answer(
      `Does qty follow a normal distribution? Use the Shapiro-Wilk test with a significance level (alpha) of 0.05.\n@p_value[p_value] ${VERDICT}`,
    )
    expect(at05.plan.resultType).toBe('values')
    expect(at05.row.p_value).toBeCloseTo(0.05070109093613987, 8)
    expect(at05.row.is_normal).toBe('Normal')
    expect(Object.keys(at05.row)).toEqual(['p_value', 'is_normal'])
    expect(at05.plan.explanation).toContain(
      '"Not Normal" if the p-value of the Shapiro-Wilk test of "qty" is below 0.05',
    )
    const at10 = await answer(
      `Check whether qty is normally distributed with the Shapiro-Wilk test. If the p-value is less than 0.1, it is not normal.\n${VERDICT}`,
    )
    expect(at10.plan.resultType).toBe('category')
    expect(at10.row.is_normal).toBe('Not Normal')
  })

  it('gives the W statistic and rounds as asked', async () => {
    const { row } = await answer(
      'Use the Shapiro-Wilk test on qty. @shapiro_w[w] @p_value[p] where each is rounded to four decimal places.',
    )
    expect(row).toEqual({ shapiro_w: 0.8613, p_value: 0.0507 })
  })

  it("gives D'Agostino-Pearson's p-value and a true/false verdict", async () => {
    const { row } = await answer(
      "Use scipy's normaltest on the amount column, alpha 0.05. @p_value[p] @normal_distribution[True] if normal, else @normal_distribution[False].",
    )
    expect(row.p_value).toBeCloseTo(0.23628946448746385, 8)
    expect(row.normal_distribution).toBe('True')
  })

  it("gives a correlation's p-value and significance verdict over its two columns", async () => {
    const { plan, row } = await answer(
      'Is there a correlation between amount and qty? Calculate the Pearson correlation coefficient and assess its significance with a two-tailed test at a significance level of 0.05.\n@r[r] @p_value[p] @correlation[c] where "c" is either "correlated" or "not correlated".',
    )
    expect(row.r).toBeCloseTo(0.9594413924224802, 9)
    expect((row.p_value as number) / 8.073830087336705e-7).toBeCloseTo(1, 6)
    expect(row.correlation).toBe('correlated')
    expect(plan.explanation).toContain('two-sided test of the correlation')
  })

  it('gives a Kolmogorov-Smirnov verdict only, and leaves it empty when the normal laws it may mean disagree', async () => {
    // qty's values are small positive counts: far from the standard normal law, not from their own.
    const { plan, row } = await answer(
      `Use a Kolmogorov-Smirnov test with a significance level of 0.05 to check if qty is normal. ${VERDICT}`,
    )
    expect(plan.explanation).toContain('Kolmogorov-Smirnov normality test')
    expect(row).toEqual({ is_normal: null })
    expect(
      await declineReason('Perform a Kolmogorov-Smirnov test of normality on qty. @p_value[p] @ks_stat[statistic]'),
    ).toMatch(/only its verdict/)
  })

  it('declines a normality test it does not compute or that is not named, a verdict of another rule, two levels', async () => {
    expect(await declineReason(`Is qty normally distributed? ${VERDICT}`)).toMatch(/without naming the test/)
    expect(await declineReason(`Use an Anderson-Darling test to check if qty is normal. ${VERDICT}`)).toMatch(
      /does not compute/,
    )
    expect(
      await declineReason(
        'Is the correlation between amount and qty significant by a Mann-Whitney U test? @p_value[p]',
      ),
    ).toMatch(/"mann whitney"/)
    expect(await declineReason('Is the log-transformed amount normal by the Shapiro-Wilk test? @p_value[p]')).toMatch(
      /does not compute/,
    )
    expect(
      await declineReason(
        'What is the Pearson correlation between amount and qty and its p-value? @r[r] @kind[kind] where "kind" is "linear", "nonlinear" or "none".',
      ),
    ).toMatch(/"kind"/)
    expect(
      await declineReason(
        `Use the Shapiro-Wilk test on qty at a significance level of 0.05, then again with alpha 0.01. ${VERDICT}`,
      ),
    ).toMatch(/two significance levels/)
  })
})

describe('completeTest', () => {
  it('fills the outputs, drops the inputs, and leaves a test with too few values empty', () => {
    const test = { kind: 'shapiro', outputs: [{ slot: 'p', value: 'p' }], alpha: 0.05, decimals: null } as const
    const done = completeTest(
      { columns: ['p', '__test_n', '__test_values'], rows: [[null, 2, [1, 2]]], truncated: false },
      test,
    )
    expect(done).toEqual({ columns: ['p'], rows: [[null]], truncated: false })
  })
})
