import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { nameParenthesisedColumns } from '../../src/data-analysis/offline-planner/parenthesised-columns.js'
import { type PlannerWorld, plannerWorld } from './offline-planner-support.js'

// A column named in parentheses after the words that describe it: the description is the
// column's, and its words ("maximum") are not the question's cues.

let w: PlannerWorld
beforeAll(async () => {
  w = await plannerWorld()
})
afterAll(() => w.close())

describe('a column named in parentheses after its description', () => {
  it('reads the description as the column, not as a superlative', async () => {
    const { plan, values } = await w.run(
      'What is the mean value of the maximum price (amount) recorded in the dataset?',
    )
    expect(plan.sql).toContain('avg("amount")')
    expect(values[0]).toBeCloseTo(107.43666666666667, 9)
    const quantity = await w.run('What is the average of the highest quantity (qty)?')
    expect(quantity.values[0]).toBeCloseTo(43 / 12, 9)
  })

  it('replaces only a short plain description before an exact header', () => {
    const tables = [w.orders]
    expect(nameParenthesisedColumns("the average for each shipping town ('city')", tables)).toBe(
      'the average for each "city"',
    )
    // A relative clause says more than a name; an unknown name in parentheses is no column.
    expect(nameParenthesisedColumns('the orders that were late (status)', tables)).toBe(
      'the orders that were late (status)',
    )
    expect(nameParenthesisedColumns('the correlation coefficient (r)', tables)).toBe('the correlation coefficient (r)')
  })
})
