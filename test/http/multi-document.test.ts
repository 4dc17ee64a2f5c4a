import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { LexicalRetriever } from '../../src/retrieval/lexical-retriever.js'
import { createTenant, type Tenant } from '../support/factories.js'
import { uploadOk } from '../support/knowledge-base.js'
import { processNow } from '../support/process-now.js'
import { storeModes } from '../support/store-modes.js'
import { startTestApp, type TestApp } from '../support/test-app.js'

/** A quarterly report as a company would write it: its name and period only on the cover. */
function report(company: string, short: string, quarterEnd: string, netSales: string, research: string): string {
  return [
    company,
    `Quarterly report for the quarterly period ended ${quarterEnd}`,
    '',
    `In this report, “${short},” “we” and “the Company” refer to ${company} and its subsidiaries.`,
    '',
    '# Results of operations',
    '',
    `Net sales for the quarter were ${netSales} million, driven by demand for lanterns and lamps.`,
    `Research and development expenses were ${research} million as new programs started.`,
    'Operating expenses grew with marketing and with the hiring of engineers in every region.',
  ].join('\n')
}

// Files named opaquely, in one folder: only the documents' own text says whose and when.
const FILES = [
  ['filing-001.md', report('Globex Corporation', 'Globex', 'March 31, 2023', '4,210', '610')],
  ['filing-002.md', report('Initech, Inc.', 'Initech', 'June 30, 2023', '1,180', '95')],
  ['filing-003.md', report('Globex Corporation', 'Globex', 'September 30, 2023', '4,905', '655')],
  ['filing-004.md', report('Globex Corporation', 'Globex', 'June 30, 2023', '4,530', '640')],
  ['filing-005.md', report('Initech, Inc.', 'Initech', 'September 30, 2023', '1,240', '101')],
] as const

describe.each(storeModes())('%s: questions over the documents their cards name', (mode) => {
  let t: TestApp
  let tenant: Tenant
  const ids = new Map<string, string>()

  async function ask(message: string, json: Record<string, unknown> = {}) {
    const chat = await t.request('POST', '/chat', { token: tenant.token, json: { title: 'Filings', ...json } })
    const res = await t.request('POST', `/chat/${chat.body.id}/messages`, {
      token: tenant.token,
      json: { message, ...(json.bot_id ? { auto_document_selector: true } : {}) },
    })
    expect(res.status, res.text).toBe(200)
    if (process.env.SHOW_ANSWERS) console.log(`${message}\n${res.body.text}\n`)
    return res.body
  }

  const cited = (body: { sources: { object_name: string }[] }) =>
    body.sources.map((source) => source.object_name.replace('/filings/', ''))

  beforeAll(async () => {
    t = await startTestApp(mode)
    tenant = await createTenant(t)
    for (const [name, text] of FILES) {
      const id = await uploadOk(t, tenant, name, text, { fields: { path: '/filings' } })
      await processNow(t, tenant, id)
      ids.set(name, id)
    }
  }, 120_000)
  afterAll(() => t?.close())

  it("answers the named company's most recent quarter, not another company's look-alike", async () => {
    const body = await ask("What were Globex's research and development expenses in the most recent quarter?")
    expect(cited(body)).toEqual(['filing-003.md'])
    expect(body.text).toContain('655 million')
    const other = await ask("What were Initech's research and development expenses in the most recent quarter?")
    expect(cited(other)).toEqual(['filing-005.md'])
  })

  it('quotes every quarter of a trend, oldest first, each labelled with whose and which quarter', async () => {
    const body = await ask("How have Globex's net sales changed over the reported quarters?")
    expect(cited(body)).toEqual(['filing-001.md', 'filing-004.md', 'filing-003.md'])
    const lines = body.text.split('\n').filter((line: string) => line.includes('Net sales'))
    expect(lines).toHaveLength(3)
    expect(lines[0]).toMatch(
      /^- Globex Corporation, quarter ended March 31, 2023[^:]*: Net sales .*4,210 million.*\[1\]$/,
    )
    expect(lines[2]).toMatch(/4,905 million.*\[3\]$/)
  })

  it('quotes each company of a comparison', async () => {
    const body = await ask('Compare the net sales of Globex and Initech in the quarter ended June 30, 2023.')
    // In the question's order within the period.
    expect(cited(body)).toEqual(['filing-004.md', 'filing-002.md'])
  })

  it('lets automatic selection choose the documents the question names, as many as it needs', async () => {
    const bot = await t.request('POST', `/company/${tenant.companyId}/bot`, {
      token: tenant.token,
      json: {
        label: 'Filings',
        description: 'd',
        prompt: { name: 'p', prompt: 'x' },
        auto_document_selector: 'always',
      },
    })
    const body = await ask("How have Globex's net sales changed over the reported quarters?", { bot_id: bot.body.id })
    expect(body.validated_autodocs).toBe(true)
    expect(body.documents_filtered).toEqual(
      ['filing-001.md', 'filing-004.md', 'filing-003.md'].map((name) => ids.get(name)),
    )
    expect(cited(body)).toEqual(['filing-001.md', 'filing-004.md', 'filing-003.md'])
  })

  it('says "not found" with no sources when the question is about a company no document is about', async () => {
    const body = await ask("What were Hooli's research and development expenses in the most recent quarter?")
    expect(body.sources).toEqual([])
    expect(body.text).toBe('The answer was not found in the knowledge base.')
  })

  // Last: it adds a document the others do not expect.
  it('searches for what the question asks, not for how it wants the figures written', async () => {
    const policy = [
      'Initech, Inc.',
      'Pricing policy',
      '',
      'Initech prices are written with two decimal places and rounded to the nearest cent.',
      'An answer to a customer is given in units the customer asked for, in one place.',
    ].join('\n')
    const id = await uploadOk(t, tenant, 'filing-008.md', policy, { fields: { path: '/filings' } })
    await processNow(t, tenant, id)
    const message =
      "What were Initech's net sales in the most recent quarter? Round your answer to two decimal places. " +
      'Answer in units of USD millions.'
    const body = await ask(message)
    expect(cited(body)).toEqual(['filing-005.md'])
    expect(body.text).toContain('1,240 million')
    // The rephrasing reported is the question as asked; the keywords are what was searched.
    expect(body.rephrasing).toBe(message)
    expect(body.keywords).not.toContain('decimal')
  })
})

/** A release whose card names no subject (as when its cover cannot be read): the name is only in its text. */
function releaseWithoutSubject(quarterEnd: string, netSales: string): string {
  const paragraph = (topic: string) =>
    `Globex ${topic} in the quarter ended ${quarterEnd}, as lantern and lamp demand held in every region ` +
    'where the company sells, and the teams kept shipping on time through the whole season.'
  return [
    `Quarterly update for the quarter ended ${quarterEnd}`,
    '',
    `Globex net sales for the quarter were ${netSales} million, the highest the company has reported.`,
    '',
    paragraph('opened two plants'),
    '',
    paragraph('hired four hundred engineers'),
    '',
    paragraph('paid down its revolving credit'),
    '',
    paragraph('renewed its supply contracts'),
  ].join('\n')
}

describe.each(storeModes())('%s: a document whose card names no subject', (mode) => {
  let t: TestApp
  let tenant: Tenant
  const ids = new Map<string, string>()

  beforeAll(async () => {
    t = await startTestApp(mode)
    tenant = await createTenant(t)
    const files = [
      FILES[0],
      FILES[1],
      ['filing-006.md', releaseWithoutSubject('December 31, 2023', '5,120')],
      // Another subject-less document that names Globex once, in passing.
      ['filing-007.md', 'Supplier handbook\n\nParts are bought from Globex and from many other makers of lamps.'],
    ] as const
    for (const [name, text] of files) {
      const id = await uploadOk(t, tenant, name, text, { fields: { path: '/filings' } })
      await processNow(t, tenant, id)
      ids.set(name, id)
    }
    for (const name of ['filing-006.md', 'filing-007.md']) {
      const res = await t.request('PATCH', `/company/${tenant.companyId}/knowledge-base/${ids.get(name)}/metadata`, {
        token: tenant.token,
        json: { document_card: { subjects: [] } },
      })
      expect(res.status, res.text).toBe(200)
    }
  }, 120_000)
  afterAll(() => t?.close())

  it("counts among a subject's documents when its own text writes the name on several chunks", async () => {
    const question = "What were Globex's net sales?"
    const span = await t.ctx.retriever.documentSpan(tenant.companyId, question, null)
    expect([...(span.subjects[0]?.documents ?? [])].sort()).toEqual(
      [ids.get('filing-001.md'), ids.get('filing-006.md')].sort(),
    )
    // The store's retriever reads it the same as the in-memory index the service searches with.
    const fromStore = await new LexicalRetriever(t.ctx.store.search).documentSpan(tenant.companyId, question, null)
    expect(fromStore.subjects).toEqual(span.subjects)
    const chat = await t.request('POST', '/chat', { token: tenant.token, json: { title: 'Filings' } })
    const res = await t.request('POST', `/chat/${chat.body.id}/messages`, {
      token: tenant.token,
      json: { message: "What were Globex's net sales in the most recent quarter?" },
    })
    expect(res.status, res.text).toBe(200)
    expect(res.body.sources.map((source: { object_name: string }) => source.object_name)).toEqual([
      '/filings/filing-006.md',
    ])
    expect(res.body.text).toContain('5,120 million')
  })
})
