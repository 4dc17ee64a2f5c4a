import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { TableSchema } from '../../src/data-analysis/types.js'
import { createTable, type PlannerWorld, plannerWorld } from './offline-planner-support.js'

// Missing values the question fills before asking ("replace missing values in X with the median"),
// planned by the offline planner and run on a real DuckDB. Expected values are computed here from
// the loans table's own cells, as pandas' fillna(df[c].median()) then mean()/std() would.

const INCOME = [100, null, 140, 90, null, 300, 120]
const known = INCOME.filter((x): x is number => x !== null)
const median = (xs: readonly number[]) => {
  const s = [...xs].sort((a, b) => a - b)
  const m = Math.floor(s.length / 2)
  return s.length % 2 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2
}
const mean = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0) / xs.length
const sampleStd = (xs: readonly number[]) =>
  Math.sqrt(xs.reduce((sum, x) => sum + (x - mean(xs)) ** 2, 0) / (xs.length - 1))

let w: PlannerWorld
let loans: TableSchema
beforeAll(async () => {
  w = await plannerWorld()
  loans = await createTable(
    w.connection,
    't9',
    'loans.csv',
    [
      ['LoanAmount', 'integer'],
      ['Self_Employed', 'text'],
      ['Term', 'integer'],
    ],
    INCOME.map((x, i) => [x, i % 3 === 0 ? null : i % 2 ? 'No' : 'Yes', 360]),
  )
})
afterAll(() => w.close())

describe('missing values the question fills first', () => {
  it('fills a column with its median, another with a constant, and computes over the filled column', async () => {
    const outcome = await w.ask(
      "Perform data preprocessing by handling missing values in the Self_Employed and LoanAmount columns. Replace missing values in Self_Employed with 'No' and in LoanAmount with the median value of the column. Calculate the mean and standard deviation of LoanAmount after preprocessing.\n@mean_loan[mean], @std_loan[std] rounded to two decimal places.",
      'en',
      [loans],
    )
    if (outcome.kind !== 'plan') throw new Error(outcome.reason)
    const row = (await w.connection.runAndReadAll(outcome.plan.sql)).getRowsJS()[0] as number[]
    const filled = INCOME.map((x) => x ?? median(known))
    expect(row[0]).toBeCloseTo(Math.round(mean(filled) * 100) / 100, 9)
    expect(row[1]).toBeCloseTo(Math.round(sampleStd(filled) * 100) / 100, 9)
    expect(outcome.plan.explanation).toContain('"LoanAmount" filled with its median')
    expect(outcome.plan.evidenceTable).toBe('t9')
    const employed = await w.run(
      "Fill the missing values in the Self_Employed column with 'Yes'. How many rows have Self_Employed equal to 'Yes'?",
      'en',
      [loans],
    )
    expect(employed.values[0]).toBe(INCOME.filter((_, i) => i % 3 === 0 || i % 2 === 0).length)
  })

  it('finds the column after "filling in missing values in"', async () => {
    const { values } = await w.run(
      'Filling in missing values in the LoanAmount column with the mean value of the column. What is the standard deviation of LoanAmount?',
      'en',
      [loans],
    )
    expect(values[0]).toBeCloseTo(sampleStd(INCOME.map((x) => x ?? mean(known))), 9)
  })

  it('fills every column with missing values by its own mean', async () => {
    const { values } = await w.run(
      'Fill the missing values with the mean of their respective columns. What is the standard deviation of LoanAmount?',
      'en',
      [loans],
    )
    expect(values[0]).toBeCloseTo(sampleStd(INCOME.map((x) => x ?? mean(known))), 9)
  })

  it('declines a fill it cannot read, as before', async () => {
    const outcome = await w.ask(
      'Impute missing values in LoanAmount with the mean of the same Term. What is the mean of LoanAmount?',
      'en',
      [loans],
    )
    expect(outcome.kind).toBe('declined')
    // The mean of a text column fills nothing.
    const text = await w.ask(
      'Replace missing values in Self_Employed with the median. How many rows are there?',
      'en',
      [loans],
    )
    expect(text.kind).toBe('declined')
  })
})
