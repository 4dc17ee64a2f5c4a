import { DuckDBInstance } from '@duckdb/node-api'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createOfflinePlanner } from '../../src/data-analysis/offline-planner/index.js'
import type { TableSchema } from '../../src/data-analysis/types.js'
import { createTable } from './offline-planner-support.js'

/**
 * Issue 24, precision: what the planner must map before it answers, and what it must decline.
 * products.csv: a true/false flag, an abbreviated header, an identifier and a name of the same subject.
 */

let instance: DuckDBInstance
let products: TableSchema
let run: (question: string) => Promise<unknown[]>
let ask: (question: string) => ReturnType<ReturnType<typeof createOfflinePlanner>['plan']>

beforeAll(async () => {
  instance = await DuckDBInstance.create(':memory:')
  const connection = await instance.connect()
  products = await createTable(
    connection,
    't1',
    'products.csv',
    [
      ['product', 'text'],
      ['price', 'number'],
      ['is_featured', 'boolean'],
    ],
    [
      ['lamp', 12, true],
      ['chair', 5, false],
      ['desk', 40, true],
      ['shelf', 3, false],
      ['stool', 20, true],
    ],
  )
  const planner = createOfflinePlanner()
  ask = (question) => planner.plan(question, [products], 'en')
  run = async (question) => {
    const outcome = await ask(question)
    if (outcome.kind !== 'plan') throw new Error(`declined: ${outcome.reason}`)
    return (await connection.runAndReadAll(outcome.plan.sql)).getRowsJS().map((row) => row[0])
  }
})

afterAll(() => instance.closeSync())

describe('a true/false column said as an adjective is a condition', () => {
  it('keeps only the flagged rows', async () => {
    expect(await run('List the 2 lowest prices of featured items.')).toEqual([12, 20])
  })

  it('declines rather than answer with the flag itself when the asked-for column is not named', async () => {
    const outcome = await ask('What colour is the most common among featured items?')
    expect(outcome.kind).toBe('declined')
  })
})
