import PDFDocument from 'pdfkit'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { expectProblem, ISO_MICROS, UUID } from '../support/assertions.js'
import { ShiftedClock } from '../support/clock.js'
import { createTenant, secondClient, type Tenant } from '../support/factories.js'
import { createTag, mkdir, uploadOk } from '../support/knowledge-base.js'
import { processNow } from '../support/process-now.js'
import { storeModes } from '../support/store-modes.js'
import { startTestApp, type TestApp } from '../support/test-app.js'

/** A three-page annual report: each page one topic, so citations carry a known page. */
async function reportPdf(): Promise<Buffer> {
  const doc = new PDFDocument({ autoFirstPage: false, compress: false })
  const parts: Buffer[] = []
  doc.on('data', (part: Buffer) => parts.push(part))
  const ended = new Promise<void>((resolve) => doc.on('end', () => resolve()))
  const pages = [
    'Acme Corporation annual report. Acme designs industrial lanterns and sells them worldwide.',
    'Financial results. The revenue of Acme in 2022 was 12 million euros. The revenue of Acme in 2023 was 15 million euros.',
    'Products. The Lantern Pro subscription costs 40 euros per month. The Lantern Pro subscription includes support.',
  ]
  // Each page fills more than one chunk, so a chunk never spans two pages.
  const filler = ' The company employs engineers, designers and sales people in several countries.'.repeat(12)
  for (const text of pages) {
    doc.addPage()
    doc.fontSize(12).text(`${text}${filler}`)
  }
  doc.end()
  await ended
  return Buffer.concat(parts)
}

const HANDBOOK = [
  '# Leave policy',
  '',
  'Employees on sick leave send a medical certificate after three days.',
  '',
  'Annual leave requests are approved by the line manager.',
  '',
].join('\n')

describe.each(storeModes())('%s: chat messages (endpoints 10 and 11)', (mode) => {
  let t: TestApp
  const clock = new ShiftedClock()
  beforeAll(async () => {
    t = await startTestApp(mode, { clock })
  })
  afterAll(() => t.close())

  interface Corpus {
    tenant: Tenant
    reportId: string
    handbookId: string
    financeTag: string
    chatId: string
  }

  async function corpus(input: Parameters<typeof createTenant>[1] = {}): Promise<Corpus> {
    const tenant = await createTenant(t, input)
    const financeTag = await createTag(t, tenant, 'finance')
    const reportId = await uploadOk(t, tenant, 'report.pdf', await reportPdf(), {
      fields: { path: '/finance', tags: [financeTag] },
    })
    const handbookId = await uploadOk(t, tenant, 'handbook.md', HANDBOOK, { fields: { path: '/hr' } })
    await processNow(t, tenant, reportId)
    await processNow(t, tenant, handbookId)
    const chatId = await newChat(tenant)
    return { tenant, reportId, handbookId, financeTag, chatId }
  }

  async function newChat(tenant: Tenant, botId?: string): Promise<string> {
    const res = await t.request('POST', '/chat', { token: tenant.token, json: { title: 'Questions', bot_id: botId } })
    expect(res.status).toBe(201)
    return res.body.id as string
  }

  function ask(tenant: Tenant, chatId: string, json: unknown, token = tenant.token) {
    return t.request('POST', `/chat/${chatId}/messages`, { token, json })
  }

  function history(tenant: Tenant, chatId: string, query = '', token = tenant.token) {
    return t.request('GET', `/chat/${chatId}/messages${query}`, { token })
  }

  it('answers a question with every spec 2.5 field and a [1] citation of the right page', async () => {
    const c = await corpus()
    const res = await ask(c.tenant, c.chatId, { message: 'What was the revenue of Acme in 2023?' })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toMatch(/^application\/json/)
    const body = res.body
    expect(Object.keys(body).sort()).toEqual(
      [
        'actor',
        'auto_doc_filtering',
        'bot_id',
        'chat_id',
        'documents_filtered',
        'keywords',
        'previews',
        'question',
        'rephrasing',
        'small_talk',
        'sources',
        'tags',
        'text',
        'timestamp',
        'validated_autodocs',
        // Extension (docs/extensions.md): data-analysis mode's typed result, null here.
        'analysis',
      ].sort(),
    )
    expect(body.analysis).toBeNull()
    expect(body.chat_id).toBe(c.chatId)
    expect(body.actor).toBe('assistant')
    expect(body.timestamp).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/)
    expect(body.question).toBe('What was the revenue of Acme in 2023?')
    expect(body.rephrasing).toBe('What was the revenue of Acme in 2023?')
    expect(body.auto_doc_filtering).toBe(false)
    expect(body.documents_filtered).toEqual([])
    expect(body.validated_autodocs).toBeNull()
    expect(body.keywords).toEqual(['revenue', 'acme', '2023'])
    expect(body.small_talk).toBe(false)
    expect(body.bot_id).toBe(c.tenant.defaultBotId)
    expect(body.tags).toEqual({ bot_id: c.tenant.defaultBotId, document_ids: [], paths: [], tags: [] })
    expect(body.text).toContain('15 million euros')
    expect(body.text).toMatch(/\[1\]/)
    expect(body.text).not.toMatch(/\[[2-9]\]/)
    expect(body.sources).toHaveLength(1)
    const [source] = body.sources
    expect(source).toEqual({
      description: expect.any(String),
      chunk_content: expect.stringContaining('15 million euros'),
      chunk_idx: expect.any(Number),
      document_type: 'text',
      filename: 'report.pdf',
      id: c.reportId,
      object_name: '/finance/report.pdf',
      page_number: '2',
      row_idx: null,
      retrieval_mode: 'similarity',
      usage_score: expect.any(Number),
    })
    expect(source.usage_score).toBeGreaterThan(0)
    expect(source.usage_score).toBeLessThanOrEqual(1)
    expect(body.previews).toEqual([
      {
        type: 'text',
        url: `/apif/v2/company/${c.tenant.companyId}/knowledge-base/${c.reportId}/file#page=2`,
        title: 'report.pdf',
      },
    ])
  })

  it('stores both messages: history in the spec 2.6 shape, tags as a JSON string', async () => {
    const c = await corpus()
    await ask(c.tenant, c.chatId, { message: 'What was the revenue of Acme in 2023?' })
    const res = await history(c.tenant, c.chatId, '?size=10')
    expect(res.status).toBe(200)
    expect(Object.keys(res.body)).toEqual(['history'])
    const [user, assistant] = res.body.history
    expect(res.body.history).toHaveLength(2)
    expect(user).toEqual({
      actor: 'user',
      chat_id: c.chatId,
      text: 'What was the revenue of Acme in 2023?',
      time: expect.stringMatching(ISO_MICROS),
      tags: '[]',
      sources: [],
    })
    expect(assistant.actor).toBe('assistant')
    expect(assistant.chat_id).toBe(c.chatId)
    expect(assistant.time).toMatch(ISO_MICROS)
    expect(assistant.time > user.time).toBe(true)
    expect(assistant.text).toContain('15 million euros. [1]')
    expect(typeof assistant.tags).toBe('string')
    expect(JSON.parse(assistant.tags)).toEqual([{ '/finance/report.pdf': ['finance'] }])
    expect(assistant.sources).toEqual([
      {
        description: expect.any(String),
        filename: 'report.pdf',
        page: 2,
        page_content: expect.stringContaining('15 million euros'),
        tags: ['finance'],
        usage_score: expect.any(Number),
      },
    ])
  })

  it('says plainly when the knowledge base has nothing relevant', async () => {
    const c = await corpus()
    const res = await ask(c.tenant, c.chatId, { message: 'Who won the football world cup in 1998?' })
    expect(res.status).toBe(200)
    expect(res.body.text).toBe('The answer was not found in the knowledge base.')
    expect(res.body.sources).toEqual([])
    expect(res.body.previews).toEqual([])
    expect(res.body.small_talk).toBe(false)
  })

  it('answers small talk politely without searching, in the language of the message', async () => {
    const c = await corpus()
    const hello = await ask(c.tenant, c.chatId, { message: 'Hello!' })
    expect(hello.status).toBe(200)
    expect(hello.body.small_talk).toBe(true)
    expect(hello.body.sources).toEqual([])
    expect(hello.body.keywords).toEqual([])
    expect(hello.body.text).toMatch(/^Hello!/)
    const merci = await ask(c.tenant, c.chatId, { message: 'Merci beaucoup !' })
    expect(merci.body.small_talk).toBe(true)
    expect(merci.body.text).toMatch(/^Avec plaisir/)
  })

  it('rephrases a follow-up with the previous question and answers it', async () => {
    const c = await corpus()
    await ask(c.tenant, c.chatId, { message: 'What was the revenue of Acme in 2022?' })
    const res = await ask(c.tenant, c.chatId, { message: 'and in 2023?' })
    expect(res.status).toBe(200)
    expect(res.body.question).toBe('and in 2023?')
    expect(res.body.rephrasing).toBe('What was the revenue of Acme in 2023?')
    expect(res.body.text).toContain('15 million euros')
    expect(res.body.sources[0].page_number).toBe('2')
  })

  it('answers in the bot locale and reports the bot scope in tags', async () => {
    const c = await corpus()
    const finance = await mkdir(t, c.tenant, '/finance')
    const bot = await t.request('POST', `/company/${c.tenant.companyId}/bot`, {
      token: c.tenant.token,
      json: {
        label: 'Finance',
        description: 'Finance questions',
        prompt: { name: 'p', prompt: 'Answer.' },
        locale: 'fr',
        filters: { paths: ['/finance/', '/missing/'], tags: [c.financeTag] },
      },
    })
    expect(bot.status).toBe(201)
    const chatId = await newChat(c.tenant, bot.body.id)
    const res = await ask(c.tenant, chatId, { message: 'What does the Lantern Pro subscription cost?' })
    expect(res.status).toBe(200)
    expect(res.body.text.startsWith('Voici ce que dit la base de connaissances')).toBe(true)
    expect(res.body.text).toContain('40 euros per month. [1]')
    expect(res.body.tags).toEqual({
      bot_id: bot.body.id,
      document_ids: [c.reportId],
      paths: [{ id: finance, object_name: '/finance/' }],
      tags: [c.financeTag],
    })
    // Out of the bot's scope: the handbook is never found.
    const leave = await ask(c.tenant, chatId, { message: 'Who approves annual leave requests?' })
    expect(leave.body.text).toBe("La réponse n'a pas été trouvée dans la base de connaissances.")
  })

  it('applies manual filters only when the bot allows them', async () => {
    const c = await corpus()
    const closed = await t.request('POST', `/company/${c.tenant.companyId}/bot`, {
      token: c.tenant.token,
      json: { label: 'Closed', description: 'd', prompt: { name: 'p', prompt: 'x' }, manual_filters: false },
    })
    const refused = await ask(c.tenant, await newChat(c.tenant, closed.body.id), {
      message: 'Who approves annual leave requests?',
      filters: { paths: [c.handbookId] },
    })
    expectProblem(refused, 400, 'manual_filters_disabled')
    const bot = await t.request('POST', `/company/${c.tenant.companyId}/bot`, {
      token: c.tenant.token,
      json: { label: 'Open', description: 'd', prompt: { name: 'p', prompt: 'x' }, manual_filters: true },
    })
    const chatId = await newChat(c.tenant, bot.body.id)
    const narrowed = await ask(c.tenant, chatId, {
      message: 'Who approves annual leave requests?',
      filters: { paths: [c.reportId] },
    })
    expect(narrowed.status).toBe(200)
    expect(narrowed.body.tags.document_ids).toEqual([c.reportId])
    expect(narrowed.body.sources).toEqual([])
    const unknown = await ask(c.tenant, chatId, { message: 'leave?', filters: { tags: ['nope'] } })
    expectProblem(unknown, 400, 'invalid_reference')
  })

  it('runs automatic document selection when asked on a `choose` bot', async () => {
    const c = await corpus()
    const res = await ask(c.tenant, c.chatId, {
      message: 'Which handbook explains the leave policy?',
      auto_document_selector: true,
    })
    expect(res.status).toBe(200)
    expect(res.body.auto_doc_filtering).toBe(true)
    expect(res.body.documents_filtered).toEqual([c.handbookId])
    expect(res.body.validated_autodocs).toBe(true)
  })

  it('enforces the question quota: the question past the limit is 403 and not stored', async () => {
    const c = await corpus({ questionsMax: 1 })
    expect((await ask(c.tenant, c.chatId, { message: 'What was the revenue of Acme in 2023?' })).status).toBe(200)
    const usage = await t.request('GET', '/auth/company/usage', { token: c.tenant.token })
    expect(usage.body.questions_used).toBe(1)
    expectProblem(await ask(c.tenant, c.chatId, { message: 'Hello' }), 403, 'questions_quota_exceeded')
    const res = await history(c.tenant, c.chatId, '?size=100')
    expect(res.body.history).toHaveLength(2)
  })

  it('refuses questions after the licence expired while history stays readable', async () => {
    const c = await corpus()
    expect((await ask(c.tenant, c.chatId, { message: 'Hello' })).status).toBe(200)
    await t.ctx.store.companies.update(c.tenant.companyId, {
      licenseExpiration: '2020-01-01T00:00:00.000000',
      updatedAt: t.ctx.clock.now(),
    })
    expectProblem(await ask(c.tenant, c.chatId, { message: 'Hello' }), 403, 'license_expired')
    const res = await history(c.tenant, c.chatId, '?size=100')
    expect(res.status).toBe(200)
    expect(res.body.history.map((m: { actor: string }) => m.actor)).toEqual(['user', 'assistant'])
  })

  it('pages the history: size newest before timestamp, oldest first', async () => {
    const c = await corpus()
    for (const message of ['Hello', 'Thanks', 'Goodbye']) {
      expect((await ask(c.tenant, c.chatId, { message })).status).toBe(200)
    }
    const all = (await history(c.tenant, c.chatId, '?size=100')).body.history
    expect(all.map((m: { text: string }) => m.text).filter((_: unknown, i: number) => i % 2 === 0)).toEqual([
      'Hello',
      'Thanks',
      'Goodbye',
    ])
    const last = (await history(c.tenant, c.chatId)).body.history
    expect(last).toEqual([all[5]])
    const two = (await history(c.tenant, c.chatId, '?size=2')).body.history
    expect(two).toEqual([all[4], all[5]])
    const before = (await history(c.tenant, c.chatId, `?size=3&timestamp=${all[2].time}Z`)).body.history
    expect(before).toEqual([all[0], all[1]])
    const noZone = (await history(c.tenant, c.chatId, `?size=1&timestamp=${all[2].time}`)).body.history
    expect(noZone).toEqual([all[1]])
    const seconds = (await history(c.tenant, c.chatId, '?timestamp=2000-01-01T00:00:00')).body.history
    expect(seconds).toEqual([])
    expectProblem(await history(c.tenant, c.chatId, '?timestamp=yesterday'), 400, 'validation_failed')
    expectProblem(await history(c.tenant, c.chatId, '?timestamp=2026-02-30T00:00:00'), 400, 'validation_failed')
    expectProblem(await history(c.tenant, c.chatId, '?size=0'), 400, 'validation_failed')
    expectProblem(await history(c.tenant, c.chatId, '?size=101'), 400, 'validation_failed')
    expectProblem(await history(c.tenant, c.chatId, '?size=x'), 400, 'validation_failed')
  })

  it('streams Server-Sent Events with Accept: text/event-stream', async () => {
    const c = await corpus()
    const res = await t.request('POST', `/chat/${c.chatId}/messages`, {
      token: c.tenant.token,
      json: { message: 'What was the revenue of Acme in 2023?' },
      headers: { accept: 'text/event-stream' },
    })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/)
    const events = res.text
      .split('\n\n')
      .filter((block) => block.trim() !== '')
      .map((block) => {
        const [eventLine, dataLine] = block.split('\n')
        return { event: eventLine?.replace('event: ', ''), data: JSON.parse(dataLine?.replace('data: ', '') ?? '{}') }
      })
    const tokens = events.filter((e) => e.event === 'token')
    expect(tokens.length).toBeGreaterThan(0)
    expect(events.at(-2)?.event).toBe('message')
    expect(events.at(-1)?.event).toBe('done')
    const message = events.at(-2)?.data
    expect(tokens.map((e) => e.data.text).join('')).toBe(message.text)
    expect(message.sources[0].page_number).toBe('2')
  })

  it('rejects bad bodies, data analysis, unknown and foreign chats, and missing tokens', async () => {
    const c = await corpus()
    const other = await createTenant(t)
    const otherChat = await newChat(other)
    for (const body of [
      {},
      { message: '' },
      { message: 5 },
      { message: 'x'.repeat(10_001) },
      { message: 'hi', filters: { paths: 'x' } },
      { message: 'hi', auto_document_selector: 'yes' },
    ]) {
      expectProblem(await ask(c.tenant, c.chatId, body), 400, 'validation_failed')
    }
    expectProblem(await ask(c.tenant, c.chatId, { message: '   ' }), 400, 'validation_failed')
    expectProblem(await ask(c.tenant, c.chatId, { message: 'hi', data_analysis: true }), 400, 'data_analysis_disabled')
    const malformed = await t.request('POST', `/chat/${c.chatId}/messages`, {
      token: c.tenant.token,
      body: '{"message":',
      headers: { 'content-type': 'application/json' },
    })
    expectProblem(malformed, 400, 'malformed_json')
    expectProblem(await ask(c.tenant, otherChat, { message: 'hi' }), 404, 'not_found')
    expectProblem(await ask(c.tenant, '00000000-0000-4000-8000-000000000000', { message: 'hi' }), 404, 'not_found')
    expectProblem(await history(c.tenant, otherChat), 404, 'not_found')
    const second = await secondClient(t, c.tenant)
    expectProblem(await history(c.tenant, c.chatId, '', second.token), 404, 'not_found')
    expectProblem(
      await t.request('POST', `/chat/${c.chatId}/messages`, { json: { message: 'hi' } }),
      401,
      'unauthenticated',
    )
    expectProblem(await t.request('GET', `/chat/${c.chatId}/messages`), 401, 'unauthenticated')
    // Nothing above was stored or counted.
    expect((await history(c.tenant, c.chatId, '?size=100')).body.history).toEqual([])
  })

  it('deletes the messages with their chat', async () => {
    const c = await corpus()
    await ask(c.tenant, c.chatId, { message: 'Hello' })
    expect((await t.request('DELETE', `/chat/${c.chatId}`, { token: c.tenant.token })).status).toBe(204)
    expect(await t.ctx.store.messages.listForChat(c.tenant.companyId, c.chatId)).toEqual([])
    expect(UUID.test(c.chatId)).toBe(true)
  })
})
