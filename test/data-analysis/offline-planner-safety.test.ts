import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createOfflinePlanner } from '../../src/data-analysis/offline-planner/index.js'
import { createTable, type PlannerWorld, plannerWorld } from './offline-planner-support.js'

// The offline planner declines what it cannot map (never guesses a column), and text from the
// question only ever reaches SQL as an escaped literal or a number: hostile questions give a safe
// plan or a decline.

let w: PlannerWorld
beforeAll(async () => {
  w = await plannerWorld()
})
afterAll(() => w.close())

async function rowCount(): Promise<number> {
  return Number((await w.connection.runAndReadAll('SELECT count(*) FROM t1')).getRowsJS()[0]?.[0])
}

describe('declines with a reason instead of guessing', () => {
  it.each([
    ['en', 'What is the average salary?'],
    ['fr', 'Quel est le salaire moyen ?'],
    ['en', 'Which planet has the most moons?'],
    ['en', 'Is there any order from Marseille?'],
    ['en', 'How many orders were placed in the 3rd quarter of 1850 by 42 customers?'],
    ['en', ''],
    ['fr', 'Bonjour, comment ça va ?'],
  ])('%s: %s', async (language, question) => {
    const outcome = await w.ask(question, language)
    expect(outcome.kind).toBe('declined')
    if (outcome.kind === 'declined') expect(outcome.reason.length).toBeGreaterThan(5)
  })

  it('declines with no table', async () => {
    const outcome = await createOfflinePlanner().plan('How many orders?', [], 'en')
    expect(outcome).toMatchObject({ kind: 'declined' })
  })

  it('declines a question over two tables that cannot be joined one-to-many', async () => {
    const other = await createTable(w.connection, 't9', 'weather.csv', [['temperature', 'number']], [[12.5], [14]])
    const outcome = await w.ask('What is the average temperature for Paris?', 'en', [w.orders, other])
    expect(outcome.kind).toBe('declined')
  })
})

describe('SQL injection in the question', () => {
  it.each([
    "How many orders have a customer named 'x'); DROP TABLE t1; --'?",
    "How many orders have a customer containing '; DELETE FROM t1; --'?",
    "Is there any order from Paris'; DROP TABLE t1; --",
    'How many orders have an amount greater than 1; DELETE FROM t1',
    "What is the total amount for Lyon' OR '1'='1?",
    "How many orders are from Paris\\'; ATTACH '/tmp/x.db'; --?",
    "List the different cities UNION SELECT * FROM read_csv('/etc/passwd')",
    "How many orders have a customer containing ''' || (SELECT 1) || '''?",
  ])('%s', async (question) => {
    const outcome = await w.ask(question)
    if (outcome.kind === 'plan') {
      const { sql } = outcome.plan
      // one statement; question text only inside string literals
      const outsideLiterals = sql.replace(/'(?:[^']|'')*'/g, "''")
      expect(outsideLiterals).not.toMatch(/;|--|\b(drop|delete|attach|union|read_csv|insert|update)\b/i)
      await w.connection.runAndReadAll(sql)
      if (outcome.plan.evidenceSql) await w.connection.runAndReadAll(outcome.plan.evidenceSql)
    }
    expect(await rowCount()).toBe(12)
  })

  it('matches a value holding a quote and escapes it', async () => {
    const { plan, values } = await w.run("How many orders are from O'Brien?")
    expect(plan.sql).toContain("'O''Brien'")
    expect(values).toEqual([1])
  })

  it('runs on headers holding quotes and spaces', async () => {
    const odd = await createTable(
      w.connection,
      't8',
      'odd.csv',
      [
        ['net "price"', 'number'],
        ['shop name', 'text'],
      ],
      [
        [10, 'North'],
        [30, 'South'],
      ],
    )
    const outcome = await w.ask('What is the average net price?', 'en', [odd])
    expect(outcome.kind).toBe('plan')
    if (outcome.kind === 'plan') {
      expect(outcome.plan.sql).toContain('"net ""price"""')
      const rows = (await w.connection.runAndReadAll(outcome.plan.sql)).getRowsJS()
      expect(Number(rows[0]?.[0])).toBe(20)
    }
  })
})
