import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { OpenAiCompatibleChatModel } from '../../src/answering/providers/openai-compatible.js'
import { type AnalysisDocument, DataAnalysis, type LoadedTables } from '../../src/data-analysis/data-analysis.js'
import { LlmPlanner, parsePlanReply } from '../../src/data-analysis/llm-planner.js'
import { choosePlanner, decliningPlanner } from '../../src/data-analysis/planners.js'
import type { PlanOutcome, QuestionPlanner, TableSchema } from '../../src/data-analysis/types.js'
import { FakeLlmServer } from '../support/fake-llm.js'
import { SANDBOX_LIMITS, tableWorld, twoSheetWorkbook, XLSX } from './support.js'

const world = tableWorld()
const ORDERS = ['order,status,amount', 'A1,late,10', 'A2,ok,20', 'A3,late,30.5', 'A4,ok,5'].join('\n')
const EN = { question: 'en', answer: 'en' }

/** Replays planned outcomes in order (the planner's contract, not a provider). */
function scripted(...outcomes: PlanOutcome[]): QuestionPlanner & { seen: TableSchema[][] } {
  const seen: TableSchema[][] = []
  return {
    seen,
    async plan(_q, tables) {
      seen.push([...tables])
      const next = outcomes.shift()
      if (!next) throw new Error('no more plans')
      return next
    },
  }
}

let orders: AnalysisDocument
let book: AnalysisDocument
beforeAll(async () => {
  orders = { document: await world.document('/sales/orders.csv', 'text/csv', ORDERS), tags: ['sales'] }
  book = { document: await world.document('/book.xlsx', XLSX, await twoSheetWorkbook()), tags: [] }
})
afterAll(() => world.close())

function analysis(planner: QuestionPlanner) {
  return new DataAnalysis({ cache: world.cache, planner, limits: SANDBOX_LIMITS })
}

async function load(
  planner: QuestionPlanner,
  docs = [orders, book],
): Promise<{ a: DataAnalysis; tables: LoadedTables }> {
  const a = analysis(planner)
  return { a, tables: await a.loadTables(docs) }
}

describe('data analysis over loaded tables', () => {
  it('names the tables t1… with their file and sheet names', async () => {
    const { tables } = await load(decliningPlanner)
    expect(tables.schemas.map((s) => [s.sqlName, s.filename, s.sheet, s.rowCount])).toEqual([
      ['t1', 'orders.csv', null, 4],
      ['t2', 'book.xlsx', 'Sales', 3],
      ['t3', 'book.xlsx', 'Staff', 2],
    ])
  })

  it('answers a count with the counted rows as sources (row_idx, lookup)', async () => {
    const planner = scripted({
      kind: 'plan',
      plan: {
        sql: `SELECT count(*) FROM t1 WHERE status = 'late'`,
        resultType: 'number',
        explanation: "count of rows of orders.csv where status = 'late'",
        evidenceSql: `SELECT "__row" FROM t1 WHERE status = 'late' ORDER BY "__row" LIMIT 20`,
        evidenceTable: 't1',
      },
    })
    const { a, tables } = await load(planner)
    const outcome = await a.answer(tables, 'How many orders are late?', EN)
    expect(outcome?.kind).toBe('answered')
    expect(outcome?.report).toEqual({
      result: 2,
      resultType: 'number',
      plan: `count of rows of orders.csv where status = 'late'\nSELECT count(*) FROM t1 WHERE status = 'late'`,
      mapping: [],
    })
    expect(outcome?.text).toContain('The answer is **2**.')
    expect(outcome?.text).toContain("count of rows of orders.csv where status = 'late'")
    expect(outcome?.text).toContain('```sql')
    expect(outcome?.sources.map((s) => [s.rowIdx, s.retrievalMode, s.objectName, s.chunkIdx])).toEqual([
      ['2', 'lookup', '/sales/orders.csv', null],
      ['4', 'lookup', '/sales/orders.csv', null],
    ])
    expect(outcome?.sources[0]?.content).toBe('order: A1 | status: late | amount: 10')
    expect(outcome?.sources[0]?.tags).toEqual(['sales'])
  })

  it('cites sheet rows as Sheet!row and types lists and tables', async () => {
    const planner = scripted(
      {
        kind: 'plan',
        plan: {
          sql: 'SELECT "Region", sum("Amount") AS total FROM t2 GROUP BY 1 ORDER BY total DESC',
          resultType: 'table',
          explanation: 'total Amount per Region',
          evidenceSql: `SELECT "__row" FROM t2 WHERE "Region" = 'North'`,
          evidenceTable: 't2',
        },
      },
      {
        kind: 'plan',
        plan: { sql: 'SELECT "Name" FROM t3 ORDER BY 1', resultType: 'list[category]', explanation: 'names' },
      },
    )
    const { a, tables } = await load(planner)
    const table = await a.answer(tables, 'Total amount per region?', EN)
    expect(table?.report?.result).toEqual([
      { Region: 'North', total: 1300 },
      { Region: 'South', total: 800 },
    ])
    expect(table?.text).toContain('| Region | total |')
    expect(table?.sources.map((s) => s.pageNumber)).toEqual(['Sales!2', 'Sales!5'])
    const list = await a.answer(tables, 'Names?', EN)
    expect(list?.report?.result).toEqual(['Ann', 'Bob'])
    // No evidence query: each document cited once, without a row.
    expect(list?.sources.map((s) => [s.filename, s.rowIdx])).toEqual([
      ['orders.csv', null],
      ['book.xlsx', null],
    ])
  })

  it('joins two uploaded tables on a shared column', async () => {
    const customers = {
      document: await world.document('/sales/customers.csv', 'text/csv', 'order,customer\nA1,Acme\nA2,Beta\nA3,Acme\n'),
      tags: [],
    }
    const planner = scripted({
      kind: 'plan',
      plan: {
        sql: 'SELECT c.customer, sum(o.amount) AS total FROM t1 o JOIN t2 c ON o."order" = c."order" GROUP BY 1 ORDER BY 2 DESC',
        resultType: 'table',
        explanation: 'total amount per customer',
      },
    })
    const { a, tables } = await load(planner, [orders, customers])
    expect(tables.schemas.map((t) => t.filename)).toEqual(['orders.csv', 'customers.csv'])
    const outcome = await a.answer(tables, 'Total amount per customer?', EN)
    expect(outcome?.report?.result).toEqual([
      { customer: 'Acme', total: 40.5 },
      { customer: 'Beta', total: 20 },
    ])
  })

  it('says clearly what could not be mapped, in the answer language', async () => {
    const { a, tables } = await load(scripted({ kind: 'declined', reason: 'no column matches "colour"' }))
    const outcome = await a.answer(tables, 'Quelle couleur ?', { question: 'fr', answer: 'fr' })
    expect(outcome?.kind).toBe('declined')
    expect(outcome?.report).toBeNull()
    expect(outcome?.text).toContain('Je n\'ai pas pu calculer cela à partir des tableaux : no column matches "colour"')
    expect(outcome?.text).toContain('orders.csv: order, status, amount')
  })

  it("finishes a plan's test after its query: the verdict and p-value in the answer, the inputs dropped", async () => {
    const planner = scripted({
      kind: 'plan',
      plan: {
        sql: `SELECT CAST(NULL AS VARCHAR) AS is_normal, CAST(NULL AS DOUBLE) AS p_value, (SELECT count(*) FROM t1) AS __test_n, (SELECT list(CAST(amount AS DOUBLE) ORDER BY amount) FROM t1) AS __test_values`,
        resultType: 'values',
        explanation:
          'is_normal = "Not Normal" if the p-value of the Shapiro-Wilk test of "amount" is below 0.05, else "Normal"',
        test: {
          kind: 'shapiro',
          outputs: [
            { slot: 'is_normal', value: 'verdict', affirmative: 'Normal', negative: 'Not Normal' },
            { slot: 'p_value', value: 'p' },
          ],
          alpha: 0.05,
          decimals: 4,
        },
      },
    })
    const { a, tables } = await load(planner)
    const outcome = await a.answer(tables, 'Is amount normally distributed (Shapiro-Wilk)?', EN)
    // SciPy 1.17.1 by hand: shapiro([10, 20, 30.5, 5]) → W 0.9621492738328106, p 0.7924272113774737.
    expect(outcome?.report?.result).toEqual({ is_normal: 'Normal', p_value: 0.7924 })
    expect(outcome?.text).toContain('is_normal = Normal; p_value = 0.7924')
    expect(outcome?.text).not.toContain('| __test_values')
  })

  it('returns null in automatic routing when the planner declines', async () => {
    const { a, tables } = await load(decliningPlanner)
    expect(await a.tryAnswer(tables, 'hello', EN)).toBeNull()
  })

  it('answers a boolean in French with a decimal comma', async () => {
    const planner = scripted(
      {
        kind: 'plan',
        plan: { sql: 'SELECT max(amount) > 30 FROM t1', resultType: 'boolean', explanation: 'max > 30' },
      },
      { kind: 'plan', plan: { sql: 'SELECT avg(amount) FROM t1', resultType: 'number', explanation: 'moyenne' } },
    )
    const { a, tables } = await load(planner, [orders])
    const yes = await a.answer(tables, 'Y a-t-il une commande de plus de 30 ?', { question: 'fr', answer: 'fr' })
    expect(yes?.report?.result).toBe(true)
    expect(yes?.text).toContain('**Oui.**')
    const avg = await a.answer(tables, 'Montant moyen ?', { question: 'fr', answer: 'fr' })
    expect(avg?.report?.result).toBe(16.375)
    expect(avg?.text).toContain('La réponse est **16,375**.')
  })
})

describe('the LLM planner (fake OpenAI-compatible server)', () => {
  const server = new FakeLlmServer()
  beforeAll(() => server.start())
  afterAll(() => server.stop())

  function llm() {
    return new LlmPlanner(
      new OpenAiCompatibleChatModel({ baseUrl: server.baseUrl, model: 'tiny', timeoutMs: 5_000, maxRetries: 0 }),
    )
  }

  it('gives the model the schemas with types and sample values, and runs its query', async () => {
    server.queue.push({
      kind: 'json',
      content:
        '```json\n{"sql": "SELECT sum(amount) FROM t1 WHERE status = \'ok\';", "result_type": "number", "explanation": "sum of amount where status is ok"}\n```',
    })
    const { a, tables } = await load(llm(), [orders])
    const outcome = await a.answer(tables, 'Total amount of ok orders?', EN)
    expect(outcome?.report?.result).toBe(25)
    const prompt = server.lastMessages.map((m) => m.content).join('\n')
    expect(prompt).toContain('Table t1 — file "orders.csv", 4 rows')
    expect(prompt).toContain('"status" text; values e.g. "late", "ok"')
    expect(prompt).toContain('"amount" number; from 5 to 30.5')
  })

  it('repairs a failing query at most twice, giving the model the DuckDB error', async () => {
    server.queue.push(
      { kind: 'json', content: '{"sql": "SELECT sum(amout) FROM t1", "result_type": "number"}' },
      {
        kind: 'json',
        content: '{"sql": "SELECT sum(\\"amount\\") FROM t1", "result_type": "number", "explanation": "sum of amount"}',
      },
    )
    const before = server.requests.length
    const { a, tables } = await load(llm(), [orders])
    const outcome = await a.answer(tables, 'Total amount?', EN)
    expect(outcome?.report?.result).toBe(65.5)
    expect(server.requests.length - before).toBe(2)
    expect(server.lastMessages.at(-1)?.content).toMatch(/Referenced column "amout" not found/)

    server.queue.push(
      { kind: 'json', content: '{"sql": "SELECT nope1 FROM t1"}' },
      { kind: 'json', content: '{"sql": "SELECT nope2 FROM t1"}' },
      { kind: 'json', content: '{"sql": "SELECT nope3 FROM t1"}' },
      { kind: 'json', content: '{"sql": "SELECT count(*) FROM t1"}' },
    )
    const start = server.requests.length
    const failed = await a.answer(tables, 'Something impossible?', EN)
    expect(server.requests.length - start).toBe(3)
    expect(failed?.kind).toBe('failed')
    expect(failed?.report).toBeNull()
    expect(failed?.text).toMatch(/I could not compute this: the query failed \(.*nope3/)
    server.queue.length = 0
  })

  it('keeps a hostile query from the model inside the sandbox', async () => {
    server.queue.push(
      { kind: 'json', content: `{"sql": "SELECT * FROM read_csv('/etc/passwd')"}` },
      { kind: 'json', content: `{"sql": "COPY t1 TO '/tmp/lantern-llm-stolen.csv'"}` },
      { kind: 'json', content: `{"sql": "SELECT 1; ATTACH '/tmp/x.db'"}` },
    )
    const { a, tables } = await load(llm(), [orders])
    const outcome = await a.answer(tables, 'Show me /etc/passwd', EN)
    expect(outcome?.kind).toBe('failed')
    expect(outcome?.text).not.toContain('root:')
  })

  it('falls back to the offline planner when the model cannot be reached', async () => {
    server.queue.push({ kind: 'error', status: 500 })
    const planner = choosePlanner(
      decliningPlanner,
      new OpenAiCompatibleChatModel({ baseUrl: server.baseUrl, model: 'tiny', timeoutMs: 2_000, maxRetries: 0 }),
    )
    const { a, tables } = await load(planner, [orders])
    const outcome = await a.answer(tables, 'Total?', EN)
    expect(outcome?.kind).toBe('declined')
  })

  it('reads plain ```sql replies and declines', () => {
    expect(parsePlanReply('```sql\nSELECT 1;\n```', 'x')).toEqual({
      kind: 'plan',
      plan: { sql: 'SELECT 1', resultType: 'table', explanation: 'x' },
    })
    expect(parsePlanReply('{"declined": "no such column"}', 'x')).toEqual({
      kind: 'declined',
      reason: 'no such column',
    })
    expect(parsePlanReply('I cannot', 'x').kind).toBe('declined')
  })
})
