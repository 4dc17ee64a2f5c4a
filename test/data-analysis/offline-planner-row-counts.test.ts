import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type PlannerWorld, plannerWorld } from './offline-planner-support.js'

// A number right before the rows' own noun ("at least 2 orders") counts rows per group; read as a
// value of the identifier column that noun names (order_id >= 2) it would answer another question.

let w: PlannerWorld
beforeAll(async () => {
  w = await plannerWorld()
})
afterAll(() => w.close())

describe("a number before the rows' own noun", () => {
  it('counts the groups with at least that many rows, not rows whose order_id is 2 or more', async () => {
    const { plan, values } = await w.run('How many customers have at least 2 orders?')
    expect(plan.sql).toContain('HAVING count(*) >= 2')
    expect(plan.sql).not.toContain('"order_id" >=')
    // Alice, Bob, Chloé, David, Emma: two orders each; Farid and O'Brien one
    expect(values).toEqual([5])
    expect(plan.explanation).toContain('"customer"')
    expect((plan.mapping ?? []).map((m) => m.column)).toContain('customer')
  })

  it('lists the groups in file order, and cites their rows', async () => {
    const { plan, values } = await w.run('Which cities have more than 2 orders?')
    expect(values).toEqual(['Paris', 'Lyon'])
    // the cited rows are those of the groups listed
    expect(await w.evidence(plan)).toEqual([2, 3, 4, 6, 7, 8, 9, 11, 12])
  })

  it('reads "at least 2 entries" over the rows filtered first', async () => {
    const { values } = await w.run('Which cities have at least 2 entries with status late?')
    expect(values).toEqual(['Lyon'])
  })

  it('declines when no single column names the groups', async () => {
    const outcome = await w.ask('How many have at least 2 orders?')
    expect(outcome.kind === 'declined' ? outcome.reason : `planned: ${outcome.plan.sql}`).toMatch(
      /"2 orders" counts rows per group/,
    )
  })

  it('declines a group ranked as well, rather than drop one of the two', async () => {
    const outcome = await w.ask('Which city with at least 2 orders has the highest amount?')
    expect(outcome.kind).toBe('declined')
  })

  it("still reads the identifier's value when its word is said", async () => {
    const { plan } = await w.run('What is the median amount for orders with an order_id of 5?')
    expect(plan.sql).toContain('"order_id" = 5')
  })

  it('reads "more than one" as a number after "than"', async () => {
    const { plan, values } = await w.run('How many customers have more than one order?')
    expect(plan.sql).toContain('HAVING count(*) > 1')
    expect(values).toEqual([5])
  })

  it('answers whether any group has that many rows', async () => {
    expect((await w.run('Is there a city with at least 4 orders?')).values).toEqual([true])
    expect((await w.run('Is there a city with at least 6 orders?')).values).toEqual([false])
  })

  it('still counts all the rows when no column names groups', async () => {
    const { plan, values } = await w.run('Are there more than 3 orders?')
    expect(plan.sql).not.toContain('HAVING')
    expect(values).toEqual([true])
  })

  it('ranks groups by their rows for "the most entries"', async () => {
    expect((await w.run('Which city has the most entries?')).values).toEqual(['Paris'])
  })

  it('ranks the one column named in a list question by its rows ("the top 2 cities with the most orders")', async () => {
    const { plan, values } = await w.run('Name the top 2 cities with the most orders.')
    expect(values).toEqual(['Paris', 'Lyon'])
    expect(plan.sql).toContain('ORDER BY count(*) DESC')
  })
})
