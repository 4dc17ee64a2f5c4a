import { DuckDBInstance } from '@duckdb/node-api'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createOfflinePlanner } from '../../src/data-analysis/offline-planner/index.js'
import type { PlanOutcome } from '../../src/data-analysis/types.js'
import { createTable } from './offline-planner-support.js'

/**
 * "Is the person with the highest net worth self-made?": the row a superlative ranks first,
 * checked against the question's last condition. lifts.csv: the heaviest lift is a woman's, the
 * lightest a man's, and the heaviest among men is Bo's.
 */

let instance: DuckDBInstance
let ask: (question: string) => Promise<PlanOutcome>
let run: (question: string) => Promise<unknown>

beforeAll(async () => {
  instance = await DuckDBInstance.create(':memory:')
  const connection = await instance.connect()
  const lifts = await createTable(
    connection,
    't1',
    'lifts.csv',
    [
      ['lifter', 'text'],
      ['sex', 'text'],
      ['club', 'text'],
      ['weight_kg', 'integer'],
      ['rank', 'integer'],
    ],
    [
      ['Ada', 'female', 'Lyon', 210, 1],
      ['Bo', 'male', 'Paris', 190, 2],
      ['Cy', 'male', 'Lyon', 120, 4],
      ['Di', 'female', 'Paris', 150, 3],
    ],
  )
  const planner = createOfflinePlanner()
  ask = (question) => planner.plan(question, [lifts], 'en')
  run = async (question) => {
    const outcome = await ask(question)
    if (outcome.kind !== 'plan') throw new Error(`declined: ${outcome.reason}`)
    return (await connection.runAndReadAll(outcome.plan.sql)).getRowsJS()[0]?.[0]
  }
})

afterAll(() => instance.closeSync())

describe('a yes/no question about the row a superlative ranks first', () => {
  it('checks the condition on that row, not on any row', async () => {
    expect(await run('Is the lifter with the highest weight female?')).toBe(true)
    expect(await run('Is the lifter with the lowest weight from Paris?')).toBe(false)
    const outcome = await ask('Is the lifter with the lowest weight from Paris?')
    expect(outcome.kind === 'plan' ? outcome.plan.explanation : outcome.reason).toContain(
      'the row with the lowest "weight_kg" has "club"',
    )
  })

  it('ranks only the rows the conditions before the last one keep', async () => {
    expect(await run('Among the male lifters, is the one with the highest weight from Paris?')).toBe(true)
  })

  it('still checks existence when nothing is ranked', async () => {
    expect(await run('Is there a lifter from Paris?')).toBe(true)
  })

  it('compares a number on that row when the question ranks by another column', async () => {
    expect(await run('Did the lifter with the highest weight have a rank above 1?')).toBe(false)
    expect(await run('Did the lifter with the lowest weight have a rank above 3?')).toBe(true)
    expect(await run('Is the highest weight above 200?')).toBe(true)
  })

  it('declines a dimension adjective whose column the table lacks', async () => {
    const outcome = await ask('Did the youngest lifter have a weight above 200?')
    expect(outcome.kind === 'declined' ? outcome.reason : outcome.plan.explanation).toContain('ranks by "youngest"')
  })

  it('declines a rank ranked by a word that judges', async () => {
    const outcome = await ask('Is the lifter with the lowest rank from Paris?')
    expect(outcome.kind).toBe('declined')
  })
})
