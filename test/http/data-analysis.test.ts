import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { expectProblem } from '../support/assertions.js'
import { analystChat, createTenant, type Tenant } from '../support/factories.js'
import { FakeLlmServer } from '../support/fake-llm.js'
import { mkdir, uploadOk } from '../support/knowledge-base.js'
import { processNow } from '../support/process-now.js'
import { storeModes } from '../support/store-modes.js'
import { startTestApp, type TestApp } from '../support/test-app.js'

const ORDERS = [
  'order,status,amount,region',
  'A1,late,"1,200.50",North',
  'A2,ok,20,South',
  'A3,late,30,North',
  'A4,ok,5,East',
  'A5,late,7,South',
].join('\n')
const HANDBOOK = '# Leave policy\n\nAnnual leave requests are approved by the line manager.\n'
const BIG = ['a,b', ...Array.from({ length: 40 }, (_, i) => `${i},${i}`)].join('\n')

interface World {
  tenant: Tenant
  ordersId: string
  handbookId: string
  bigId: string
  folderId: string
  chatId: string
  plainChatId: string
}

async function world(t: TestApp): Promise<World> {
  const tenant = await createTenant(t)
  const ordersId = await uploadOk(t, tenant, 'orders.csv', ORDERS, { fields: { path: '/sales' } })
  const handbookId = await uploadOk(t, tenant, 'handbook.md', HANDBOOK, { fields: { path: '/hr' } })
  const bigId = await uploadOk(t, tenant, 'big.csv', BIG, { fields: { path: '/archive' } })
  for (const id of [ordersId, handbookId, bigId]) await processNow(t, tenant, id)
  const folderId = await mkdir(t, tenant, '/empty/')
  const chatId = await analystChat(t, tenant, { paths: ['/sales/', '/hr/'], tags: [] })
  const plain = await t.request('POST', '/chat', { token: tenant.token, json: { title: 'Plain' } })
  return { tenant, ordersId, handbookId, bigId, folderId, chatId, plainChatId: plain.body.id }
}

describe.each(storeModes())('%s: data-analysis mode (send-message)', (mode) => {
  let t: TestApp
  let w: World
  beforeAll(async () => {
    // 40 rows × 2 columns = 80 cells: big.csv is over the limit, orders.csv is not.
    t = await startTestApp(mode, { config: { analysisMaxCells: 60 } })
    w = await world(t)
  })
  afterAll(() => t.close())

  const ask = (chatId: string, json: unknown, token = w.tenant.token, headers?: Record<string, string>) =>
    t.request('POST', `/chat/${chatId}/messages`, { token, json, headers })

  it('computes an exact count offline, cites the counted rows with row_idx and reports the typed result', async () => {
    const res = await ask(w.chatId, {
      message: 'How many orders are late?',
      data_analysis: true,
      document_ids: [w.ordersId],
    })
    expect(res.status).toBe(200)
    expect(res.body.analysis).toMatchObject({ result: 3, result_type: 'number' })
    expect(res.body.analysis.plan).toContain('SELECT count(*)')
    // The words read, so that a reader can check what was understood.
    expect(res.body.analysis.mapping).toEqual([{ words: 'late', column: 'status', value: 'late' }])
    expect(res.body.text).toContain(`Words read: "late" → "status" = 'late'`)
    expect(res.body.text).toContain('The answer is **3**.')
    expect(res.body.text).toContain('```sql')
    expect(res.body.sources.map((s: { row_idx: string }) => s.row_idx)).toEqual(['2', '4', '6'])
    expect(res.body.sources[0]).toMatchObject({
      id: w.ordersId,
      object_name: '/sales/orders.csv',
      filename: 'orders.csv',
      retrieval_mode: 'lookup',
      chunk_idx: null,
      chunk_content: 'order: A1 | status: late | amount: 1200.5 | region: North',
    })
    expect(res.body.tags.document_ids).toEqual([w.ordersId])
    // Stored like any answer.
    const history = await t.request('GET', `/chat/${w.chatId}/messages?size=2`, { token: w.tenant.token })
    expect(history.body.history.map((m: { actor: string }) => m.actor)).toEqual(['user', 'assistant'])
    expect(history.body.history[1].text).toBe(res.body.text)
  })

  it('sums numbers with thousands separators exactly', async () => {
    const res = await ask(w.chatId, {
      message: 'What is the total amount?',
      data_analysis: true,
      document_ids: [w.ordersId],
    })
    expect(res.body.analysis).toMatchObject({ result: 1262.5, result_type: 'number' })
  })

  it('answers several statistics as named values, rounded as asked, and lists them all in the text', async () => {
    const res = await ask(w.chatId, {
      message: 'What are the median and the population standard deviation of the amount, to two decimal places?',
      data_analysis: true,
      document_ids: [w.ordersId],
    })
    expect(res.status).toBe(200)
    // amounts 1200.5, 20, 30, 5, 7: median 20, population sd 474.09 (Python's statistics.pstdev)
    expect(res.body.analysis).toMatchObject({
      result: { median: 20, standard_deviation: 474.09 },
      result_type: 'values',
    })
    expect(res.body.text).toContain('median = 20; standard_deviation = 474.09')
    expect(res.body.analysis.plan).toContain('stddev_pop("amount")')
  })

  it('declines clearly when the question cannot be mapped (analysis null)', async () => {
    const res = await ask(w.chatId, {
      message: 'What is the favourite colour of the CEO?',
      data_analysis: true,
      document_ids: [w.ordersId],
    })
    expect(res.status).toBe(200)
    expect(res.body.analysis).toBeNull()
    expect(res.body.text).toMatch(/^I could not compute this from the tables: /)
    expect(res.body.text).toContain('orders.csv: order, status, amount, region')
  })

  it('routes table questions automatically in a data-scientist bot, and other questions to retrieval', async () => {
    const table = await ask(w.chatId, { message: 'How many orders are late?' })
    expect(table.body.analysis).toMatchObject({ result: 3, result_type: 'number' })
    const prose = await ask(w.chatId, { message: 'Who approves annual leave requests?' })
    expect(prose.body.analysis).toBeNull()
    expect(prose.body.text).toContain('line manager')
    // data_analysis false: never computed.
    const off = await ask(w.chatId, { message: 'How many orders are late?', data_analysis: false })
    expect(off.body.analysis).toBeNull()
    // A bot without the mode never routes.
    const plain = await ask(w.plainChatId, { message: 'How many orders are late?' })
    expect(plain.body.analysis).toBeNull()
  })

  it('streams the analysed answer over Server-Sent Events with the analysis field', async () => {
    const res = await ask(
      w.chatId,
      { message: 'How many orders are late?', data_analysis: true, document_ids: [w.ordersId] },
      w.tenant.token,
      { accept: 'text/event-stream' },
    )
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toContain('text/event-stream')
    const message = /event: message\ndata: (.*)\n/.exec(res.text)?.[1]
    expect(JSON.parse(message ?? '{}').analysis).toMatchObject({ result: 3, result_type: 'number' })
    expect(res.text).toContain('event: token')
    expect(res.text).toContain('event: done')
  })

  it('refuses bad input with clear codes, and stores nothing', async () => {
    const before = await t.request('GET', `/chat/${w.chatId}/messages?size=100`, { token: w.tenant.token })
    const other = await createTenant(t)
    const foreignId = await uploadOk(t, other, 'theirs.csv', ORDERS)
    await processNow(t, other, foreignId)
    const pendingId = await uploadOk(t, w.tenant, 'pending.csv', ORDERS, { fields: { path: '/sales' } })
    const q = 'How many orders are late?'
    expectProblem(
      await ask(w.plainChatId, { message: q, data_analysis: true, document_ids: [w.ordersId] }),
      400,
      'data_analysis_disabled',
    )
    expectProblem(await ask(w.chatId, { message: q, data_analysis: true }), 400, 'validation_failed')
    expectProblem(await ask(w.chatId, { message: q, data_analysis: true, document_ids: [] }), 400, 'validation_failed')
    expectProblem(
      await ask(w.chatId, { message: q, data_analysis: true, document_ids: [w.handbookId] }),
      400,
      'not_a_table',
    )
    expectProblem(
      await ask(w.chatId, { message: q, data_analysis: true, document_ids: [w.folderId] }),
      400,
      'not_a_table',
    )
    expectProblem(await ask(w.chatId, { message: q, data_analysis: true, document_ids: [foreignId] }), 404, 'not_found')
    expectProblem(
      await ask(w.chatId, { message: q, data_analysis: true, document_ids: ['00000000-0000-4000-8000-000000000000'] }),
      404,
      'not_found',
    )
    expectProblem(
      await ask(w.chatId, { message: q, data_analysis: true, document_ids: [pendingId] }),
      409,
      'document_not_ready',
    )
    expectProblem(
      await ask(w.chatId, { message: q, data_analysis: true, document_ids: [w.bigId] }),
      400,
      'table_too_large',
    )
    // The other company cannot analyse this company's document either.
    const otherBot = await t.request('POST', `/company/${other.companyId}/bot`, {
      token: other.token,
      json: { label: 'A', description: 'd', prompt: { name: 'p', prompt: 'p' }, data_scientist_mode: true },
    })
    const otherChat = await t.request('POST', '/chat', {
      token: other.token,
      json: { title: 'x', bot_id: otherBot.body.id },
    })
    expectProblem(
      await ask(otherChat.body.id, { message: q, data_analysis: true, document_ids: [w.ordersId] }, other.token),
      404,
      'not_found',
    )
    const after = await t.request('GET', `/chat/${w.chatId}/messages?size=100`, { token: w.tenant.token })
    expect(after.body.history).toHaveLength(before.body.history.length)
  })

  it('keeps a hostile question inside the sandbox', async () => {
    for (const message of [
      "How many orders are late'; COPY (SELECT 1) TO '/tmp/lantern-pwned.csv'; --",
      "SELECT * FROM read_csv('/etc/passwd')",
      'How many rows in /etc/passwd?',
    ]) {
      const res = await ask(w.chatId, { message, data_analysis: true, document_ids: [w.ordersId] })
      expect(res.status).toBe(200)
      expect(res.text).not.toContain('root:x:')
    }
  })
})

describe.each(storeModes())('%s: data-analysis mode with an LLM (fake server)', (mode) => {
  let server: FakeLlmServer
  let t: TestApp
  let w: World
  beforeAll(async () => {
    server = new FakeLlmServer()
    await server.start()
    t = await startTestApp(mode, {
      config: { llm: { baseUrl: server.baseUrl, apiKey: 'sk-e2e', model: 'tiny', timeoutMs: 2_000 } },
    })
    w = await world(t)
  })
  afterAll(async () => {
    await t.close()
    await server.stop()
  })
  beforeEach(() => {
    server.requests.length = 0
    server.queue.length = 0
  })

  const ask = (json: unknown) => t.request('POST', `/chat/${w.chatId}/messages`, { token: w.tenant.token, json })

  it('runs the model query, repairing a failing one with the DuckDB error', async () => {
    server.queue.push(
      { kind: 'json', content: '{"sql": "SELECT region, sum(amont) FROM t1 GROUP BY 1", "result_type": "table"}' },
      {
        kind: 'json',
        content: JSON.stringify({
          sql: 'SELECT region, sum(amount) AS total FROM t1 GROUP BY 1 ORDER BY total DESC LIMIT 2',
          result_type: 'table',
          explanation: 'total amount per region, top 2',
          evidence_sql: `SELECT "__row" FROM t1 WHERE region = 'North'`,
          evidence_table: 't1',
        }),
      },
    )
    const res = await ask({ message: 'Top 2 regions by amount?', data_analysis: true, document_ids: [w.ordersId] })
    expect(res.status).toBe(200)
    expect(res.body.analysis).toEqual({
      result: [
        { region: 'North', total: 1230.5 },
        { region: 'South', total: 27 },
      ],
      result_type: 'table',
      plan: 'total amount per region, top 2\nSELECT region, sum(amount) AS total FROM t1 GROUP BY 1 ORDER BY total DESC LIMIT 2',
      mapping: [],
    })
    expect(res.body.text).toContain('| region | total |')
    expect(res.body.sources.map((s: { row_idx: string }) => s.row_idx)).toEqual(['2', '4'])
    expect(server.requests).toHaveLength(2)
    expect(server.requests[0]?.body.messages[1]?.content).toContain('"amount" number; from 5 to 1200.5')
    // The model sees the first rows, not only the schema.
    expect(server.requests[0]?.body.messages[1]?.content).toContain(
      'first rows (order | status | amount | region):\n  | A1 | late | 1200.5 | North |',
    )
    expect(server.requests[1]?.body.messages.at(-1)?.content).toMatch(/Referenced column "amont" not found/)
  })

  it('asks the model again when its query runs but answers in another shape than it said', async () => {
    server.queue.push(
      { kind: 'json', content: '{"sql": "SELECT region, sum(amount) FROM t1 GROUP BY 1", "result_type": "number"}' },
      {
        kind: 'json',
        content: JSON.stringify({
          sql: 'SELECT median(amount) AS median, max(amount) AS maximum FROM t1',
          result_type: 'values',
          explanation: 'median and maximum of amount',
        }),
      },
    )
    const res = await ask({ message: 'Median and maximum amount?', data_analysis: true, document_ids: [w.ordersId] })
    expect(res.status).toBe(200)
    expect(res.body.analysis).toMatchObject({ result: { median: 20, maximum: 1200.5 }, result_type: 'values' })
    expect(server.requests).toHaveLength(2)
    expect(server.requests[1]?.body.messages.at(-1)?.content).toContain(
      'the query returned 3 rows of 2 columns, but result_type "number" is one value',
    )
  })

  it('answers that it could not compute after two failed repairs', async () => {
    for (let i = 0; i < 3; i++) server.queue.push({ kind: 'json', content: `{"sql": "SELECT missing${i} FROM t1"}` })
    const res = await ask({ message: 'Something?', data_analysis: true, document_ids: [w.ordersId] })
    expect(res.status).toBe(200)
    expect(res.body.analysis).toBeNull()
    expect(res.body.text).toMatch(/^I could not compute this: the query failed/)
    expect(server.requests).toHaveLength(3)
  })
})
