import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { TableSchema } from '../../src/data-analysis/types.js'
import { createTable, type PlannerWorld, plannerWorld } from './offline-planner-support.js'

// A text column the question says to convert to numbers: cells that are no number become empty,
// as pandas' to_numeric(errors="coerce").

let w: PlannerWorld
let games: TableSchema
beforeAll(async () => {
  w = await plannerWorld()
  games = await createTable(
    w.connection,
    't12',
    'games.csv',
    [
      ['period', 'integer'],
      ['margin', 'text'],
    ],
    [
      [1, '+5'],
      [1, 'TIE'],
      [2, '-3'],
      [2, null],
      [3, '10'],
    ],
  )
})
afterAll(() => w.close())

describe('a text column converted to numbers', () => {
  it('reads the column as numbers, a cell that is none empty', async () => {
    const { plan, values } = await w.run(
      'Since margin contains string values, first convert the margin data into integer or float. What is the mean of margin?',
      'en',
      [games],
    )
    expect(values[0]).toBeCloseTo((5 - 3 + 10) / 3, 9)
    expect(plan.evidenceTable).toBe('t12')
  })

  it('leaves the question as before when it says no conversion', async () => {
    expect((await w.ask('What is the mean of margin?', 'en', [games])).kind).toBe('declined')
  })
})
