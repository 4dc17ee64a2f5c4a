import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { TableSchema } from '../../src/data-analysis/types.js'
import { createTable, type PlannerWorld, plannerWorld } from './offline-planner-support.js'

// "Which monster has the lowest speed?" over monsters.csv: the noun after "which" is the table's
// own name, so it names the rows, and a row is answered by its name column; "which 3 …" asks for
// three of them. Another unread noun is not trusted: the table may simply lack that column.

let w: PlannerWorld
let monsters: TableSchema
beforeAll(async () => {
  w = await plannerWorld()
  monsters = await createTable(
    w.connection,
    't9',
    'monsters.csv',
    [
      ['name', 'text'],
      ['kind', 'text'],
      ['type1', 'text'],
      ['type2', 'text'],
      ['speed', 'integer'],
      ['defense', 'integer'],
    ],
    [
      ['Blob', 'water', 'Slime', null, 5, 40],
      ['Spark', 'fire', 'Spirit', 'Ghost', 90, 20],
      ['Rock', 'stone', 'Golem', 'Slime', 2, 99],
      ['Wisp', 'fire', 'Spirit', 'Slime', 70, 10],
      ['Tide', 'water', 'Slime', 'Spirit', 30, 60],
      ['Moss', 'grass', 'Golem', null, 12, 35],
    ],
  )
})
afterAll(() => w.close())

describe("a question about the table's own rows", () => {
  it('answers "which monster has the lowest speed" with the name of that row', async () => {
    const { plan, values } = await w.run('Which monster has the lowest speed?', 'en', [monsters])
    expect(values).toEqual(['Rock'])
    expect(plan.sql).toContain('ORDER BY "speed" ASC')
    expect(plan.explanation).toContain('"name"')
    expect((plan.mapping ?? []).map((m) => m.column)).toContain('speed')
    expect(plan.evidenceTable).toBe('t9')
  })

  it('reads the number in "which 3 monsters" as how many are asked for', async () => {
    const { values } = await w.run('Which 3 monsters have the highest speed?', 'en', [monsters])
    expect(values).toEqual(['Spark', 'Wisp', 'Tide'])
  })

  it('ranks single rows for "the kind of the monster with the highest defense", not a kind\'s total', async () => {
    const { values } = await w.run('What is the kind of the monster with the highest defense?', 'en', [monsters])
    expect(values).toEqual(['stone'])
  })

  it('does not answer "which dragon" with the name column when the table is not about dragons', async () => {
    const outcome = await w.ask('Which dragon has the lowest speed?', 'en', [monsters])
    expect(outcome.kind).toBe('declined')
  })

  it('declines "which 3 … have the highest" rather than answer with the numbers ranked', async () => {
    const outcome = await w.ask('Which 3 dragons have the highest speed?', 'en', [monsters])
    expect(outcome.kind).toBe('declined')
  })

  it('reads "primary" and "secondary" as the number ending a header (type1, type2)', async () => {
    const primary = await w.run('What is the primary type of the monster with the highest speed?', 'en', [monsters])
    expect(primary.values).toEqual(['Spirit'])
    expect(primary.plan.sql).toContain('"type1"')
    const secondary = await w.run('What is the most common secondary type?', 'en', [monsters])
    expect(secondary.values).toEqual(['Slime'])
  })

  it('still answers "which are the 3 highest speeds" with the numbers asked for', async () => {
    const { values } = await w.run('Which are the 3 highest speeds?', 'en', [monsters])
    expect(values).toEqual([90, 70, 30])
  })

  it('ranks kinds by their rows for "the most monsters", but not by "the longest monster"', async () => {
    expect((await w.run('Which kind has the most monsters?', 'en', [monsters])).values).toEqual(['water'])
    expect((await w.ask('Which kind has the longest monster?', 'en', [monsters])).kind).toBe('declined')
  })

  it('ranks "the longest post" by a column of word counts', async () => {
    const posts = await createTable(
      w.connection,
      't10',
      'posts.csv',
      [
        ['author', 'text'],
        ['word_count', 'integer'],
      ],
      [
        ['ann', 3],
        ['bob', 1],
        ['cy', 5],
        ['dan', 2],
      ],
    )
    expect((await w.run('Who wrote the longest post?', 'en', [posts])).values).toEqual(['cy'])
    expect((await w.run('What are the word counts of the 2 shortest posts?', 'en', [posts])).values).toEqual([1, 2])
  })

  it('declines "which employee" when no column names each row (a department is no employee)', async () => {
    const staff = await createTable(
      w.connection,
      't11',
      'employee.csv',
      [
        ['department', 'text'],
        ['salary', 'integer'],
      ],
      [
        ['sales', 3],
        ['it', 1],
        ['sales', 5],
        ['hr', 2],
      ],
    )
    expect((await w.ask('Which employee has the highest salary?', 'en', [staff])).kind).toBe('declined')
    // the table's name still counts its rows per group
    expect((await w.run('Which departments have more than 1 employee?', 'en', [staff])).values).toEqual(['sales'])
  })
})
