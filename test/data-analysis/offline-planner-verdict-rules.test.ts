import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { completeTest } from '../../src/data-analysis/derived-test.js'
import { readVerdicts } from '../../src/data-analysis/offline-planner/cues/slot-options.js'
import { readVerdictRules } from '../../src/data-analysis/offline-planner/cues/verdict-rules.js'
import type { QueryResult } from '../../src/data-analysis/sandbox.js'
import { coversEveryValue, verdictAnswer } from '../../src/data-analysis/verdict-cases.js'
import { type PlannerWorld, plannerWorld } from './offline-planner-support.js'

// A verdict with several answers, each given by a rule the question states on the p-value and r
// (docs/data-analysis.md, "Tests"). pearsonr(amount, qty) on the orders table, by hand with SciPy
// 1.17.1: r 0.9594413924224802, p 8.073830087336705e-07.

const RULES =
  'Consider the relationship to be linear if the p-value is less than 0.05 and the absolute value of r is greater than or equal to 0.5. Consider the relationship to be nonlinear if the p-value is less than 0.05 and the absolute value of r is less than 0.5. If the p-value is greater than or equal to 0.05, report that there is no significant correlation.'
const ANSWERS = ['linear', 'nonlinear', 'none']

describe('verdict rules read from the question', () => {
  it('reads one rule per answer, the one naming none by its negation, and the thresholds on r', () => {
    const rules = readVerdictRules(RULES, ANSWERS)
    expect(rules?.cases).toEqual([
      {
        answer: 'linear',
        when: [
          { quantity: 'p', op: '<', value: 0.05 },
          { quantity: 'abs_r', op: '>=', value: 0.5 },
        ],
      },
      {
        answer: 'nonlinear',
        when: [
          { quantity: 'p', op: '<', value: 0.05 },
          { quantity: 'abs_r', op: '<', value: 0.5 },
        ],
      },
      { answer: 'none', when: [{ quantity: 'p', op: '>=', value: 0.05 }] },
    ])
    // The two thresholds on |r| are the rules' numbers, not conditions on the rows; the answers' words no cues.
    expect(rules?.taken.map(([start, end]) => RULES.slice(start, end))).toEqual(['0.5', 'linear', '0.5', 'nonlinear'])
    const bySign = readVerdictRules(
      'Consider the relationship to be positive if the r value is greater than or equal to 0.5. Consider it negative if the r value is less than or equal to -0.5. Otherwise, report that there is no significant correlation.',
      ['positive', 'negative', 'none'],
    )
    expect(bySign && verdictAnswer(bySign.cases, { p: 0.5, r: -0.7 })).toBe('negative')
    expect(bySign && verdictAnswer(bySign.cases, { p: 0.5, r: 0.2 })).toBe('none')
  })

  it("reads a slot's answers from its own sentence of the format, not a neighbour's", () => {
    const { options } = readVerdicts(
      '@r[r] @kind[type] where "r" is a number between -1 and 1, rounded to two decimal places. "type" is a string that can be "positive", "negative", or "none".',
      'Consider it positive if r is at least 0.5. Consider it negative if r is at most -0.5. Otherwise, report none.',
    )
    expect([...options.keys()]).toEqual(['kind'])
  })

  it('reads several rules in one sentence, a number before its value, and a range as two conditions', () => {
    const strength = readVerdictRules(
      'Consider correlations to be weak if |r| < 0.3, moderate if 0.3 <= |r| < 0.5, and strong if |r| >= 0.5.',
      ['weak', 'moderate', 'strong'],
    )
    expect(strength?.cases.map((c) => c.answer)).toEqual(['weak', 'moderate', 'strong'])
    expect(strength?.cases[1]?.when).toEqual([
      { quantity: 'abs_r', op: '>=', value: 0.3 },
      { quantity: 'abs_r', op: '<', value: 0.5 },
    ])
    expect(strength && verdictAnswer(strength.cases, { p: 0.01, r: -0.42 })).toBe('moderate')
    expect(strength && verdictAnswer(strength.cases, { p: 0.01, r: 0.5 })).toBe('strong')
  })

  it('reads nothing when a value gets no answer or two, an answer has no rule, or a rule is not read', () => {
    // p 0.01 with |r| 0.2 is neither.
    expect(
      readVerdictRules(
        'Consider the correlation significant if the p-value is less than 0.05 and the absolute value of r is at least 0.5. Consider it non-significant if the p-value is at least 0.05.',
        ['significant', 'non-significant'],
      ),
    ).toBeNull()
    // "based on the sign and magnitude": no threshold said.
    expect(
      readVerdictRules(
        'If the p-value is less than 0.05, report the relationship as either "Positive Correlation", "Negative Correlation" or "No Correlation", based on the sign and magnitude of the correlation coefficient. If the p-value is greater than or equal to 0.05, report "No Significant Correlation".',
        ['Positive Correlation', 'Negative Correlation', 'No Correlation', 'No Significant Correlation'],
      ),
    ).toBeNull()
    expect(readVerdictRules('Consider it linear if the p-value is less than 0.05.', ANSWERS)).toBeNull()
    expect(
      readVerdictRules('Consider it linear if r is above 0.5 or below -0.5. Otherwise none.', ['linear', 'none']),
    ).toBeNull()
    expect(
      coversEveryValue([
        { answer: 'a', when: [{ quantity: 'r', op: '>', value: 0 }] },
        { answer: 'b', when: [{ quantity: 'abs_r', op: '>', value: 0.5 }] },
        { answer: 'c', when: [] },
      ]),
    ).toBe(false)
  })
})

describe('ruled verdicts answered', () => {
  let w: PlannerWorld
  beforeAll(async () => {
    w = await plannerWorld()
  })
  afterAll(() => w.close())

  async function answer(question: string): Promise<Record<string, unknown>> {
    const outcome = await w.ask(question)
    if (outcome.kind !== 'plan') throw new Error(`declined: ${outcome.reason}`)
    const reader = await w.connection.runAndReadAll(outcome.plan.sql)
    const queried: QueryResult = { columns: reader.columnNames(), rows: reader.getRowsJS(), truncated: false }
    const result = outcome.plan.test ? completeTest(queried, outcome.plan.test) : queried
    expect(outcome.plan.explanation).toContain("the question's rules")
    return Object.fromEntries(result.columns.map((name, i) => [name, result.rows[0]?.[i]]))
  }

  const FORMAT =
    '@r[r_value] @p_value[p_value] @relationship_type[relationship_type] where "relationship_type" is a string that can either be "linear", "nonlinear", or "none" based on the conditions specified in the constraints.'

  it('gives the answer whose rule the correlation and its p-value meet', async () => {
    const row = await answer(
      `Calculate the Pearson correlation between amount and qty and assess its significance with a two-tailed test (alpha 0.05). ${RULES}\n${FORMAT}`,
    )
    expect(row.r).toBeCloseTo(0.9594413924224802, 9)
    expect(row.relationship_type).toBe('linear')
    const stricter = await answer(
      `Calculate the Pearson correlation between amount and qty and assess its significance with a two-tailed test (alpha 0.05). ${RULES.replaceAll('0.5.', '0.97.').replace('equal to 0.5', 'equal to 0.97')}\n${FORMAT}`,
    )
    expect(stricter.relationship_type).toBe('nonlinear')
  })

  it('reads a rule on the sign of r, its answer words ("negative") no comparison of the rows', async () => {
    const row = await answer(
      'Calculate the Pearson correlation between amount and qty. Consider the relationship to be positive if the r value is greater than or equal to 0.5. Consider the relationship to be negative if the r value is less than or equal to -0.5. Otherwise, report that there is no significant correlation.\n@correlation_coefficient[r] @relationship_type[type] where "r" is a number between -1 and 1. "type" is a string that can be "positive", "negative", or "none".',
    )
    expect(row.relationship_type).toBe('positive')
  })

  it('declines rules that leave a value without an answer', async () => {
    const outcome = await w.ask(
      `Calculate the Pearson correlation between amount and qty and its p-value. Consider the relationship to be linear if the p-value is less than 0.05 and the absolute value of r is at least 0.5. If the p-value is at least 0.05, report none.\n${FORMAT}`,
    )
    expect(outcome.kind).toBe('declined')
  })
})
