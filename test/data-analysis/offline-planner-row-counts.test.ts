import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type PlannerWorld, plannerWorld } from './offline-planner-support.js'

// A number right before the rows' own noun ("at least 2 orders") counts rows; read as a value of
// the identifier column that noun names (order_id >= 2) it would answer another question.

let w: PlannerWorld
beforeAll(async () => {
  w = await plannerWorld()
})
afterAll(() => w.close())

describe("a number before the rows' own noun", () => {
  it('declines "at least 2 orders" rather than compare order_id with 2', async () => {
    for (const question of ['How many customers have at least 2 orders?', 'Which cities have more than 2 orders?']) {
      const outcome = await w.ask(question)
      expect(outcome.kind === 'declined' ? outcome.reason : `planned: ${outcome.plan.sql}`).toMatch(
        /"2 orders" counts rows per group/,
      )
    }
  })

  it("still reads the identifier's value when its word is said", async () => {
    const { plan } = await w.run('What is the median amount for orders with an order_id of 5?')
    expect(plan.sql).toContain('"order_id" = 5')
  })
})
