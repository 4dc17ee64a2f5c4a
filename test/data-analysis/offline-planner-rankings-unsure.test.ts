import { DuckDBInstance } from '@duckdb/node-api'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createOfflinePlanner } from '../../src/data-analysis/offline-planner/index.js'
import type { PlanOutcome } from '../../src/data-analysis/types.js'
import { createTable, firstColumnOf, reasonOf } from './offline-planner-support.js'

/**
 * Issue 24, precision in rankings: a group total the question does not ask for, a measure or
 * ranked things no column was read for. seasons.csv holds one row
 * per player and season: 14 players over two seasons (a name repeated on several rows), in 3
 * teams (a few values shared by many rows). Ada has the best single season, Bo the best total.
 */

let instance: DuckDBInstance
let ask: (question: string) => Promise<PlanOutcome>
let run: (question: string) => Promise<unknown[]>

const PLAYERS = ['Ada', 'Bo', 'Cy', 'Di', 'Ed', 'Flo', 'Gus', 'Hal', 'Ivy', 'Jo', 'Kai', 'Lu', 'Mo', 'Ned']

beforeAll(async () => {
  instance = await DuckDBInstance.create(':memory:')
  const connection = await instance.connect()
  const rows = PLAYERS.flatMap((player, i) => {
    const team = ['ATL', 'BOS', 'CHI'][i % 3] ?? 'ATL'
    if (player === 'Ada')
      return [
        [player, team, 2012, 900],
        [player, team, 2013, 10],
      ]
    if (player === 'Bo')
      return [
        [player, team, 2012, 600],
        [player, team, 2013, 600],
      ]
    return [
      [player, team, 2012, 100 + i],
      [player, team, 2013, 200 + i],
    ]
  })
  const seasons = await createTable(
    connection,
    't1',
    'seasons.csv',
    [
      ['player', 'text'],
      ['team', 'text'],
      ['season', 'integer'],
      ['rebounds', 'integer'],
    ],
    rows,
  )
  const planner = createOfflinePlanner()
  ask = (question) => planner.plan(question, [seasons], 'en')
  run = async (question) => firstColumnOf(connection, await ask(question))
})

afterAll(() => instance.closeSync())

describe('a repeated name ranked by a column the question does not total', () => {
  it('declines: one row or each name’s total could be meant', async () => {
    const outcome = await ask('List the three players with the most rebounds.')
    expect(outcome.kind).toBe('declined')
    expect(reasonOf(outcome)).toContain('"player" repeats over rows')
  })

  it('ranks the totals when the question says total', async () => {
    expect(await run('Which player has the highest total rebounds?')).toEqual(['Bo'])
  })

  it('ranks the rows when the question says single', async () => {
    expect(await run('Which player had the most rebounds in a single season?')).toEqual(['Ada'])
  })

  it('ranks a few shared values (a team) by their totals', async () => {
    const outcome = await ask('Which team had the most rebounds?')
    expect(reasonOf(outcome)).toContain('sum(')
  })
})

describe('a group ranked by an aggregate of a word no column takes', () => {
  it('declines rather than rank the groups by their number of rows', async () => {
    const outcome = await ask('Which team has the lowest average height?')
    expect(outcome.kind).toBe('declined')
    expect(reasonOf(outcome)).toContain('ranks by "height"')
    expect(reasonOf(await ask('Which team had the highest maximum salary?'))).toContain('ranks by "salary"')
  })

  it('ranks by the aggregate of a column it names', async () => {
    expect(await run('Which team has the highest average rebounds?')).toEqual(['BOS'])
  })
})

describe('things ranked by a measure, when no column was read for the things', () => {
  it('declines rather than list the measure’s highest values', async () => {
    const outcome = await ask('List the top 3 athletes with the most rebounds.')
    expect(outcome.kind).toBe('declined')
    expect(reasonOf(outcome)).toContain('asks for "athletes" ranked by "rebounds"')
    expect(reasonOf(await ask('What athlete has the highest rebounds?'))).toContain('"athlete"')
    expect(reasonOf(await ask('What are the bottom 2 athletes in terms of rebounds?'))).toContain('"athletes"')
  })

  it('lists the highest values when the question asks for them', async () => {
    expect(await run('What are the 3 highest rebounds?')).toEqual([900, 600, 600])
    expect(await run('What is the maximum rebounds someone has had?')).toEqual([900])
  })
})
