import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTable, type PlannerWorld, plannerWorld } from './offline-planner-support.js'

// A column the question defines from others before asking about it ("a new feature called X by
// adding A and B"), planned by the offline planner and run on a real DuckDB. Expected values are
// computed here from orders.csv's own cells (offline-planner-support.ts).

const AMOUNT = [120.5, 80, 45.25, 300, 15, 99.99, 210, 60, 175, 33, 8.5, 142]
const QTY = [3, 1, 2, 10, 1, 4, 7, 2, 5, 1, 1, 6]
const mean = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0) / xs.length
const sampleStd = (xs: readonly number[]) =>
  Math.sqrt(xs.reduce((sum, x) => sum + (x - mean(xs)) ** 2, 0) / (xs.length - 1))

let w: PlannerWorld
beforeAll(async () => {
  w = await plannerWorld()
})
afterAll(() => w.close())

describe('a column the question defines first', () => {
  it('adds two columns and gives the statistics of the new one, the definition not read as a condition', async () => {
    const { plan, values } = await w.run(
      'Generate a new feature called "units_and_amount" by adding the amount and qty columns. ' +
        'Calculate the mean of the units_and_amount column.',
    )
    expect(plan.sql).toContain('("amount" + "qty") AS "units_and_amount"')
    // The rows it cites are the table's own.
    expect(plan.evidenceTable).toBe('t1')
    expect(values[0]).toBeCloseTo(mean(AMOUNT.map((a, i) => a + (QTY[i] as number))), 9)
  })

  it('multiplies, divides (never by zero) and subtracts, "this new feature" naming the column', async () => {
    const product = await w.run(
      'Create a new column called line_total by multiplying the amount column with the qty column. ' +
        'What is the standard deviation of this new feature?',
    )
    expect(product.values[0]).toBeCloseTo(sampleStd(AMOUNT.map((a, i) => a * (QTY[i] as number))), 9)
    const ratio = await w.run(
      "Create a new feature named 'unit_price' by dividing the amount column by the qty column. " +
        'Calculate the mean of unit_price.',
    )
    expect(ratio.plan.sql).toContain('"amount" / NULLIF("qty", 0)')
    expect(ratio.values[0]).toBeCloseTo(mean(AMOUNT.map((a, i) => a / (QTY[i] as number))), 9)
    const difference = await w.run(
      'Create a new feature called "gap" by subtracting the qty column from the amount column. What is the mean of gap?',
    )
    expect(difference.values[0]).toBeCloseTo(mean(AMOUNT.map((a, i) => a - (QTY[i] as number))), 9)
  })

  it('drops a sentence that says the definition again', async () => {
    const { values } = await w.run(
      'Create a new feature called "line_total" by multiplying the amount column with the qty column. ' +
        'Calculate the mean of line_total.\nCreate line_total by directly multiplying the values of amount and qty.',
    )
    expect(values[0]).toBeCloseTo(mean(AMOUNT.map((a, i) => a * (QTY[i] as number))), 9)
  })

  it('reads a formula the question writes, the name quoted right after "feature", an operand its column plus a noun', async () => {
    const { plan, values } = await w.run(
      "Create a new feature 'spread' that is calculated using the formula: spread = (amount value - qty) / qty. What is the mean of spread?",
    )
    expect(plan.sql).toContain('("amount" - "qty") / NULLIF("qty", 0)')
    expect(values[0]).toBeCloseTo(mean(AMOUNT.map((a, i) => (a - (QTY[i] as number)) / (QTY[i] as number))), 9)
    // A parenthesis of words that name no column is a comment.
    const commented = await w.run(
      'Create a new feature "size" by counting the items. Therefore, size = qty + 1 (for the box) + 1 (for the label). What is the mean of size?',
    )
    expect(commented.values[0]).toBeCloseTo(mean(QTY) + 2, 9)
    // An operand that is no column, or an unbalanced formula, is not read.
    expect(
      (await w.ask("Create a new feature 'x' using the formula: x = (amount - distance) / qty. What is the mean of x?"))
        .kind,
    ).toBe('declined')
    expect(
      (await w.ask("Create a new feature 'x' using the formula: x = (amount - qty / qty. What is the mean of x?")).kind,
    ).toBe('declined')
  })

  it('reads words quoted with the new name ("the "average unit_price"") as words about it', async () => {
    const { values } = await w.run(
      'Create a new feature named \'unit_price\' by dividing the amount column by the qty column. For the "average unit_price", use the arithmetic mean.',
    )
    expect(values[0]).toBeCloseTo(mean(AMOUNT.map((a, i) => a / (QTY[i] as number))), 9)
  })

  it('declines as before when an operand is not a numeric column of the table', async () => {
    const outcome = await w.ask(
      'Create a new feature called "reach" by adding the amount and the distance columns. Calculate the mean of reach.',
    )
    expect(outcome.kind === 'declined' ? outcome.reason : 'planned').toBe(
      'the question asks for "feature", which the offline planner does not compute',
    )
    const text = await w.ask(
      'Create a new feature called "mixed" by adding the amount and city columns. Calculate the mean of mixed.',
    )
    expect(text.kind).toBe('declined')
  })
})

describe('a sum of columns whose names hold "and", defined in the sentence after the name', () => {
  const FIELDS = [
    [1, 10, 20.5, 3],
    [2, 12, 18, 4.5],
    [3, 9.5, 22, 5],
  ] as const

  it('reads the list by the names, after a description ending in "of", the next sentence starting "It should be"', async () => {
    const fields = await createTable(
      w.connection,
      'fields_sum',
      'fields.csv',
      [
        ['Year', 'integer'],
        ['Math and Statistics', 'number'],
        ['Physical Sciences', 'number'],
        ['Engineering', 'number'],
      ],
      FIELDS,
    )
    const { plan, values } = await w.run(
      'Create a new feature called "STEM". It should be the sum of the percentages of graduates in the fields of Math and Statistics, Physical Sciences, and Engineering. Calculate the mean of the "STEM" feature.',
      'en',
      [fields],
    )
    expect(plan.sql).toContain('("Math and Statistics" + "Physical Sciences" + "Engineering") AS "STEM"')
    expect(values[0]).toBeCloseTo(mean(FIELDS.map(([, a, b, c]) => a + b + c)), 9)
    // A word no column name holds between the names: no list, no column, declined as before.
    const unread = await w.ask(
      'Create a new feature called "STEM". It should be the sum of Math and Statistics, Physical Sciences, and Biology. Calculate the mean of the "STEM" feature.',
      'en',
      [fields],
    )
    expect(unread.kind).toBe('declined')
  })
})
