import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { expectProblem, UUID } from '../support/assertions.js'
import { createBot, createTenant, type Tenant } from '../support/factories.js'
import { createTag, kbPath, mkdir, uploadOk } from '../support/knowledge-base.js'
import { processNow, setState } from '../support/process-now.js'
import { storeModes } from '../support/store-modes.js'
import { startTestApp, type TestApp } from '../support/test-app.js'

const LEAVE = [
  '# Leave policy',
  '',
  'Employees accrue annual leave every month. The line manager approves each annual leave request.',
  '',
  '## Sick leave',
  '',
  'Employees on sick leave send a medical certificate after three days.',
].join('\n')
const CAFE = 'The company cafe opens at eight. Coffee and pastries are free for employees on Fridays.'
const PARKING = 'Parking spaces are assigned by the facilities team. Bicycles go to the basement.'
const INVOICE = 'Invoices are paid within thirty days. The finance team checks every invoice twice.'

interface Corpus {
  tenant: Tenant
  leave: string
  cafe: string
  parking: string
  invoice: string
  hrTag: string
  financeTag: string
}

describe.each(storeModes())('%s: POST …/knowledge-base/search', (mode) => {
  let t: TestApp
  beforeAll(async () => {
    t = await startTestApp(mode)
  })
  afterAll(() => t.close())

  /** /hr/leave.md, /hr/cafe.md, /facilities/parking.md (tag hr), /finance/invoices.md (tag finance), all processed. */
  async function corpus(): Promise<Corpus> {
    const tenant = await createTenant(t)
    const hrTag = await createTag(t, tenant, 'hr')
    const financeTag = await createTag(t, tenant, 'finance')
    const leave = await uploadOk(t, tenant, 'leave.md', LEAVE, { fields: { path: '/hr' } })
    const cafe = await uploadOk(t, tenant, 'cafe.md', CAFE, { fields: { path: '/hr' } })
    const parking = await uploadOk(t, tenant, 'parking.md', PARKING, {
      fields: { path: '/facilities', tags: [hrTag] },
    })
    const invoice = await uploadOk(t, tenant, 'invoices.md', INVOICE, {
      fields: { path: '/finance', tags: [financeTag] },
    })
    for (const id of [leave, cafe, parking, invoice]) await processNow(t, tenant, id)
    return { tenant, leave, cafe, parking, invoice, hrTag, financeTag }
  }

  function search(tenant: Tenant, json: unknown, options: { token?: string; companyId?: string } = {}) {
    return t.request('POST', `/company/${options.companyId ?? tenant.companyId}/knowledge-base/search`, {
      token: options.token ?? tenant.token,
      json,
    })
  }

  async function hitDocuments(tenant: Tenant, json: unknown): Promise<string[]> {
    const res = await search(tenant, json)
    expect(res.status, res.text).toBe(200)
    return [...new Set<string>(res.body.hits.map((hit: { document_id: string }) => hit.document_id))].sort()
  }

  it('ranks the relevant chunk first and returns every hit field', async () => {
    const c = await corpus()
    const res = await search(c.tenant, { query: 'How do I request annual leave?' })
    expect(res.status).toBe(200)
    expect(Object.keys(res.body).sort()).toEqual(['hits', 'query'])
    expect(res.body.query).toEqual({ terms: ['request', 'annual', 'leav'], language: 'en' })
    const [first, ...rest] = res.body.hits
    expect(Object.keys(first).sort()).toEqual(
      [
        'chunk_idx',
        'document_id',
        'document_type',
        'filename',
        'object_name',
        'page_number',
        'row_idx',
        'score',
        'text',
        'usage_score',
      ].sort(),
    )
    expect(first.document_id).toBe(c.leave)
    expect(first.document_id).toMatch(UUID)
    expect(first.object_name).toBe('/hr/leave.md')
    expect(first.filename).toBe('leave.md')
    expect(first.document_type).toBe('text')
    expect(first.page_number).toBeNull()
    expect(first.row_idx).toBeNull()
    expect(Number.isInteger(first.chunk_idx)).toBe(true)
    expect(first.text).toContain('annual leave request')
    expect(first.score).toBeGreaterThan(0)
    expect(first.usage_score).toBeGreaterThan(0)
    expect(first.usage_score).toBeLessThanOrEqual(1)
    for (const hit of rest) {
      expect(hit.score).toBeLessThanOrEqual(first.score)
      expect(hit.usage_score).toBeGreaterThanOrEqual(0)
    }
    // Only chunks holding a query term are hits: nothing about parking or invoices.
    expect(res.body.hits.every((hit: { document_id: string }) => hit.document_id === c.leave)).toBe(true)
  })

  it('matches across case, diacritics and inflections', async () => {
    const c = await corpus()
    const res = await search(c.tenant, { query: 'CAFÉS' })
    expect(res.status).toBe(200)
    expect(res.body.query.terms).toEqual(['cafe'])
    expect(res.body.hits.map((hit: { document_id: string }) => hit.document_id)).toEqual([c.cafe])
    expect(await hitDocuments(c.tenant, { query: 'invoicing' })).toEqual([c.invoice])
    expect(await hitDocuments(c.tenant, { query: 'Certificates' })).toEqual([c.leave])
  })

  it('returns nothing for a query of stop words only, and honours limit', async () => {
    const c = await corpus()
    const empty = await search(c.tenant, { query: 'the and of' })
    expect(empty.status).toBe(200)
    expect(empty.body).toEqual({ hits: [], query: { terms: [], language: 'en' } })
    const all = await search(c.tenant, { query: 'employees team' })
    expect(all.body.hits.length).toBeGreaterThan(2)
    const one = await search(c.tenant, { query: 'employees team', limit: 1 })
    expect(one.body.hits).toEqual([all.body.hits[0]])
  })

  it('scopes to a bot: documents under its folders OR carrying its tags', async () => {
    const c = await corpus()
    const query = { query: 'employees team leave cafe invoice parking' }
    expect(await hitDocuments(c.tenant, query)).toEqual([c.leave, c.cafe, c.parking, c.invoice].sort())
    const byPath = await createBot(t, c.tenant, { filters: { paths: ['/hr/'] } })
    expect(await hitDocuments(c.tenant, { ...query, bot_id: byPath })).toEqual([c.leave, c.cafe].sort())
    const byTag = await createBot(t, c.tenant, { filters: { tags: [c.financeTag] } })
    expect(await hitDocuments(c.tenant, { ...query, bot_id: byTag })).toEqual([c.invoice])
    const both = await createBot(t, c.tenant, { filters: { paths: ['/hr/'], tags: [c.hrTag] } })
    expect(await hitDocuments(c.tenant, { ...query, bot_id: both })).toEqual([c.leave, c.cafe, c.parking].sort())
    const none = await createBot(t, c.tenant, {})
    expect(await hitDocuments(c.tenant, { ...query, bot_id: none })).toEqual(
      [c.leave, c.cafe, c.parking, c.invoice].sort(),
    )
  })

  it('narrows with message filters and never widens the bot scope', async () => {
    const c = await corpus()
    const query = { query: 'employees team leave cafe invoice parking' }
    expect(await hitDocuments(c.tenant, { ...query, filters: { paths: [c.cafe] } })).toEqual([c.cafe])
    expect(await hitDocuments(c.tenant, { ...query, filters: { tags: [c.hrTag] } })).toEqual([c.parking])
    expect(await hitDocuments(c.tenant, { ...query, filters: { folders: ['finance'] } })).toEqual([c.invoice])
    const hrFolder = await mkdir(t, c.tenant, '/hr')
    expect(await hitDocuments(c.tenant, { ...query, filters: { paths: [hrFolder] } })).toEqual([c.leave, c.cafe].sort())
    // Empty lists are no filters.
    expect(await hitDocuments(c.tenant, { ...query, filters: { paths: [], tags: [] } })).toHaveLength(4)

    const hrBot = await createBot(t, c.tenant, { manual_filters: true, filters: { paths: ['/hr/'] } })
    expect(await hitDocuments(c.tenant, { ...query, bot_id: hrBot, filters: { paths: [c.leave] } })).toEqual([c.leave])
    // Outside the bot's scope: filtered to nothing, not widened.
    expect(await hitDocuments(c.tenant, { ...query, bot_id: hrBot, filters: { paths: [c.invoice] } })).toEqual([])
    expect(await hitDocuments(c.tenant, { ...query, bot_id: hrBot, filters: { paths: [c.cafe, c.invoice] } })).toEqual([
      c.cafe,
    ])
    expect(await hitDocuments(c.tenant, { ...query, bot_id: hrBot, filters: { tags: [c.financeTag] } })).toEqual([])
  })

  it('rejects filters when the bot has manual_filters off', async () => {
    const c = await corpus()
    const bot = await createBot(t, c.tenant, { manual_filters: false })
    expectProblem(
      await search(c.tenant, { query: 'leave', bot_id: bot, filters: { paths: [c.leave] } }),
      400,
      'manual_filters_disabled',
    )
    expectProblem(
      await search(c.tenant, { query: 'leave', bot_id: bot, filters: { tags: [c.hrTag] } }),
      400,
      'manual_filters_disabled',
    )
    const res = await search(c.tenant, { query: 'leave', bot_id: bot, filters: {} })
    expect(res.status).toBe(200)
    expect(res.body.hits.length).toBeGreaterThan(0)
  })

  it('answers invalid_reference for unknown and foreign ids in the body', async () => {
    const c = await corpus()
    const other = await corpus()
    const unknown = '00000000-0000-4000-8000-000000000000'
    const cases: [unknown, string][] = [
      [{ paths: [unknown] }, 'body/filters/paths/0'],
      [{ paths: [c.leave, other.leave] }, 'body/filters/paths/1'],
      [{ tags: [other.hrTag] }, 'body/filters/tags/0'],
      [{ tags: [unknown] }, 'body/filters/tags/0'],
      [{ folders: ['/nowhere'] }, 'body/filters/folders/0'],
    ]
    for (const [filters, path] of cases) {
      const res = await search(c.tenant, { query: 'leave', filters })
      expectProblem(res, 400, 'invalid_reference')
      expect(res.body.errors[0].path).toBe(path)
    }
    const otherBot = await createBot(t, other.tenant, {})
    for (const botId of [unknown, otherBot]) {
      const res = await search(c.tenant, { query: 'leave', bot_id: botId })
      expectProblem(res, 400, 'invalid_reference')
      expect(res.body.errors[0].path).toBe('body/bot_id')
    }
    expectProblem(await search(c.tenant, { query: 'leave', filters: { folders: ['/a/../b'] } }), 400, 'invalid_path')
  })

  it('validates the body', async () => {
    const c = await corpus()
    const bad: unknown[] = [
      {},
      { query: '' },
      { query: 'x'.repeat(2001) },
      { query: 5 },
      { query: 'leave', limit: 0 },
      { query: 'leave', limit: 101 },
      { query: 'leave', limit: '5' },
      { query: 'leave', filters: { paths: 'x' } },
      { query: 'leave', filters: { tags: [1] } },
      { query: 'leave', bot_id: 3 },
    ]
    for (const body of bad) expectProblem(await search(c.tenant, body), 400, 'validation_failed')
    const malformed = await t.request('POST', kbPath(c.tenant, '/search'), {
      token: c.tenant.token,
      body: '{"query": ',
      headers: { 'content-type': 'application/json' },
    })
    expectProblem(malformed, 400, 'malformed_json')
    expectProblem(await search(c.tenant, { query: 'leave' }, { token: '' }), 401, 'unauthenticated')
    // Unknown fields are ignored.
    expect((await search(c.tenant, { query: 'leave', colour: 'blue' })).status).toBe(200)
  })

  it('keeps tenants apart: no foreign hits, and a foreign company id is 404', async () => {
    const a = await corpus()
    const b = await createTenant(t)
    const own = await uploadOk(t, b, 'own.md', 'Leave for b only: annual leave is unlimited.')
    await processNow(t, b, own)
    expect(await hitDocuments(b, { query: 'annual leave' })).toEqual([own])
    expect(await hitDocuments(a.tenant, { query: 'unlimited' })).toEqual([])
    expectProblem(await search(b, { query: 'leave' }, { companyId: a.tenant.companyId }), 404, 'not_found')
    expectProblem(
      await search(b, { query: 'leave' }, { companyId: '00000000-0000-4000-8000-000000000000' }),
      404,
      'not_found',
    )
  })

  it('never returns deleted, unprocessed or failed documents, nor replaced text', async () => {
    const c = await corpus()
    expect(await hitDocuments(c.tenant, { query: 'parking' })).toEqual([c.parking])
    const deleted = await t.request('DELETE', kbPath(c.tenant, `/${c.parking}`), { token: c.tenant.token })
    expect(deleted.status).toBeLessThan(300)
    expect(await hitDocuments(c.tenant, { query: 'parking' })).toEqual([])

    await setState(t, c.tenant, c.cafe, 'ERROR')
    expect(await hitDocuments(c.tenant, { query: 'cafe' })).toEqual([])
    await setState(t, c.tenant, c.cafe, 'PROCESSING')
    expect(await hitDocuments(c.tenant, { query: 'cafe' })).toEqual([])

    const pending = await uploadOk(t, c.tenant, 'pending.md', 'Quarterly kudos for the canteen staff.')
    expect(await hitDocuments(c.tenant, { query: 'kudos' })).toEqual([])
    await processNow(t, c.tenant, pending)
    expect(await hitDocuments(c.tenant, { query: 'kudos' })).toEqual([pending])

    const replaced = await uploadOk(t, c.tenant, 'invoices.md', 'Receipts are archived for ten years.', {
      fields: { path: '/finance', overwrite: 'true' },
    })
    expect(replaced).toBe(c.invoice)
    // Re-uploaded and PENDING: neither version is searched until it is processed again.
    expect(await hitDocuments(c.tenant, { query: 'invoice' })).toEqual([])
    await processNow(t, c.tenant, c.invoice)
    expect(await hitDocuments(c.tenant, { query: 'invoice' })).toEqual([])
    const res = await search(c.tenant, { query: 'receipts archived' })
    expect(res.body.hits.map((hit: { text: string }) => hit.text)).toEqual(['Receipts are archived for ten years.'])
  })
})
