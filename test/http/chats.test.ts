import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { toHttpDate } from '../../src/lib/clock.js'
import { expectProblem, HTTP_DATE, UUID } from '../support/assertions.js'
import { createTenant, secondClient, type Tenant } from '../support/factories.js'
import { storeModes } from '../support/store-modes.js'
import { startTestApp, type TestApp } from '../support/test-app.js'

const CHAT_KEYS = ['archived', 'bot_id', 'company_id', 'create_at', 'id', 'members', 'title', 'update_at']
const UNKNOWN_ID = '3f1c2a7e-0000-4000-8000-000000000000'

interface Caller {
  readonly token: string
}

describe.each(storeModes())('%s: chats', (mode) => {
  let t: TestApp
  let tenant: Tenant
  let other: Tenant
  beforeAll(async () => {
    t = await startTestApp(mode)
    tenant = await createTenant(t)
    other = await createTenant(t)
  })
  afterAll(() => t.close())

  const createChat = async (caller: Caller, body: Record<string, unknown> = { title: 'A chat' }) => {
    const res = await t.request('POST', '/chat', { token: caller.token, json: body })
    expect(res.status, res.text).toBe(201)
    return res.body
  }
  const createBot = async (tn: Tenant, label = 'Helper'): Promise<string> => {
    const res = await t.request('POST', `/company/${tn.companyId}/bot`, {
      token: tn.token,
      json: { label, description: 'd', prompt: { name: 'p', prompt: 'p' } },
    })
    expect(res.status, res.text).toBe(201)
    return res.body.id
  }
  const listIds = async (caller: Caller, query = '') => {
    const res = await t.request('GET', `/chat${query}`, { token: caller.token })
    expect(res.status, res.text).toBe(200)
    return res.body.map((c: { id: string }) => c.id) as string[]
  }
  const patch = (caller: Caller, id: string, json: unknown) =>
    t.request('PATCH', `/chat/${id}`, { token: caller.token, json })

  describe('POST /chat', () => {
    it('creates an active chat of the caller, bound to the default bot, field by field', async () => {
      const res = await t.request('POST', '/chat', { token: tenant.token, json: { title: 'Leave policy' } })
      expect(res.status).toBe(201)
      expect(Object.keys(res.body).sort()).toEqual(CHAT_KEYS)
      expect(res.body.id).toMatch(UUID)
      expect(res.body).toMatchObject({
        company_id: tenant.companyId,
        title: 'Leave policy',
        members: [tenant.credentials.clientId],
        archived: false,
        bot_id: tenant.defaultBotId,
      })
      expect(res.body.create_at).toMatch(HTTP_DATE)
      expect(res.body.update_at).toMatch(HTTP_DATE)
      const stored = await t.ctx.store.chats.findVisible(tenant.companyId, tenant.credentials.clientId, res.body.id)
      expect(stored).toBeDefined()
      expect(res.body.create_at).toBe(toHttpDate(stored?.createdAt ?? ''))
      expect(res.body.update_at).toBe(toHttpDate(stored?.updatedAt ?? ''))
    })

    it('binds the chat to a bot of the company', async () => {
      const botId = await createBot(tenant)
      expect((await createChat(tenant, { title: 'x', bot_id: botId })).bot_id).toBe(botId)
    })

    it('treats a null bot_id as the default bot and trims the title', async () => {
      const chat = await createChat(tenant, { title: '  Spaced  ', bot_id: null })
      expect(chat.bot_id).toBe(tenant.defaultBotId)
      expect(chat.title).toBe('Spaced')
    })

    it('rejects unknown bots and another company’s bots with 400 invalid_reference', async () => {
      const theirs = await createBot(other)
      for (const bad of [UNKNOWN_ID, 'nope', theirs, other.defaultBotId]) {
        const res = await t.request('POST', '/chat', { token: tenant.token, json: { title: 'x', bot_id: bad } })
        expectProblem(res, 400, 'invalid_reference')
        expect(res.body.errors).toEqual([{ path: 'body/bot_id', message: expect.any(String) }])
      }
    })

    it.each([
      ['a missing title', {}, 'body/title'],
      ['a numeric title', { title: 5 }, 'body/title'],
      ['an empty title', { title: '' }, 'body/title'],
      ['a blank title', { title: '   ' }, 'body/title'],
      ['a title over 500 characters', { title: 'x'.repeat(501) }, 'body/title'],
      ['a numeric bot_id', { title: 'x', bot_id: 7 }, 'body/bot_id'],
    ])('rejects %s with 400 validation_failed', async (_name, body, path) => {
      const res = await t.request('POST', '/chat', { token: tenant.token, json: body })
      expectProblem(res, 400, 'validation_failed')
      expect([...new Set(res.body.errors.map((e: { path: string }) => e.path))]).toEqual([path])
    })

    it('accepts a title of exactly 500 characters', async () => {
      expect((await createChat(tenant, { title: 'y'.repeat(500) })).title).toHaveLength(500)
    })

    it('rejects malformed JSON with 400 malformed_json', async () => {
      const res = await t.request('POST', '/chat', {
        token: tenant.token,
        body: '{"title"',
        headers: { 'content-type': 'application/json' },
      })
      expectProblem(res, 400, 'malformed_json')
    })

    it('ignores unknown fields, including an attempt to set members or company', async () => {
      const chat = await createChat(tenant, { title: 'x', members: ['someone@else'], company_id: other.companyId })
      expect(chat.members).toEqual([tenant.credentials.clientId])
      expect(chat.company_id).toBe(tenant.companyId)
    })

    it('requires a token', async () => {
      expectProblem(await t.request('POST', '/chat', { json: { title: 'x' } }), 401, 'unauthenticated')
    })
  })

  describe('GET /chat', () => {
    it('lists the caller’s active chats, most recently updated first, with every field', async () => {
      const tn = await createTenant(t)
      const a = await createChat(tn, { title: 'a' })
      const b = await createChat(tn, { title: 'b' })
      const c = await createChat(tn, { title: 'c' })
      const res = await t.request('GET', '/chat', { token: tn.token })
      expect(res.status).toBe(200)
      expect(res.body).toEqual([c, b, a])
      expect(await listIds(tn, '?archived=false')).toEqual([c.id, b.id, a.id])
    })

    it('moves an edited chat to the top', async () => {
      const tn = await createTenant(t)
      const a = await createChat(tn, { title: 'a' })
      const b = await createChat(tn, { title: 'b' })
      expect((await patch(tn, a.id, { title: 'a2' })).status).toBe(200)
      expect(await listIds(tn)).toEqual([a.id, b.id])
    })

    it('separates archived chats from active ones', async () => {
      const tn = await createTenant(t)
      const a = await createChat(tn, { title: 'a' })
      const b = await createChat(tn, { title: 'b' })
      const archived = await patch(tn, a.id, { archived: true })
      expect(archived.body.archived).toBe(true)
      expect(await listIds(tn)).toEqual([b.id])
      const onlyArchived = await t.request('GET', '/chat?archived=true', { token: tn.token })
      expect(onlyArchived.body).toEqual([archived.body])
      await patch(tn, a.id, { archived: false })
      expect(await listIds(tn)).toEqual([a.id, b.id])
      expect(await listIds(tn, '?archived=true')).toEqual([])
    })

    it('pages with offset and limit, 20 by default', async () => {
      const tn = await createTenant(t)
      const ids: string[] = []
      for (let i = 0; i < 22; i++) ids.unshift((await createChat(tn, { title: `chat ${i}` })).id)
      expect(await listIds(tn)).toEqual(ids.slice(0, 20))
      expect(await listIds(tn, '?offset=20')).toEqual(ids.slice(20))
      expect(await listIds(tn, '?offset=3&limit=2')).toEqual(ids.slice(3, 5))
      expect(await listIds(tn, '?offset=100')).toEqual([])
    })

    it.each(['limit=0', 'limit=101', 'offset=-1', 'limit=ten', 'archived=maybe'])(
      'rejects %s with 400 validation_failed',
      async (query) => {
        expectProblem(await t.request('GET', `/chat?${query}`, { token: tenant.token }), 400, 'validation_failed')
      },
    )

    it('shows a client only its own chats: not another client’s of the same company, not another company’s', async () => {
      const tn = await createTenant(t)
      const second = await secondClient(t, tn)
      const mine = await createChat(tn, { title: 'mine' })
      const theirs = await createChat(second, { title: 'theirs' })
      const foreign = await createChat(other, { title: 'foreign' })
      expect(await listIds(tn)).toEqual([mine.id])
      expect(await listIds(second)).toEqual([theirs.id])
      expect(theirs.members).toEqual([second.credentials.clientId])
      expect(await listIds(other)).toContain(foreign.id)
      expect(await listIds(other)).not.toContain(mine.id)
    })

    it('requires a token', async () => {
      expectProblem(await t.request('GET', '/chat'), 401, 'unauthenticated')
    })
  })

  describe('PATCH /chat/<chat_id>', () => {
    it('renames, archives and rebinds, returning the whole chat with a new update_at', async () => {
      const chat = await createChat(tenant, { title: 'before' })
      const botId = await createBot(tenant)
      const before = await t.ctx.store.chats.findVisible(tenant.companyId, tenant.credentials.clientId, chat.id)
      const res = await patch(tenant, chat.id, { title: 'after', archived: true, bot_id: botId })
      expect(res.status).toBe(200)
      expect(Object.keys(res.body).sort()).toEqual(CHAT_KEYS)
      expect(res.body).toEqual({
        ...chat,
        title: 'after',
        archived: true,
        bot_id: botId,
        update_at: expect.stringMatching(HTTP_DATE),
      })
      const after = await t.ctx.store.chats.findVisible(tenant.companyId, tenant.credentials.clientId, chat.id)
      expect((after?.updatedAt ?? '') > (before?.updatedAt ?? '')).toBe(true)
      expect(after?.createdAt).toBe(before?.createdAt)
      expect(res.body.update_at).toBe(toHttpDate(after?.updatedAt ?? ''))
    })

    it('changes only the given fields', async () => {
      const botId = await createBot(tenant)
      const chat = await createChat(tenant, { title: 'keep', bot_id: botId })
      const res = await patch(tenant, chat.id, { archived: true })
      expect(res.body).toMatchObject({ title: 'keep', bot_id: botId, archived: true })
    })

    it('rebinds to the default bot with a null bot_id', async () => {
      const botId = await createBot(tenant)
      const chat = await createChat(tenant, { title: 'x', bot_id: botId })
      expect((await patch(tenant, chat.id, { bot_id: null })).body.bot_id).toBe(tenant.defaultBotId)
    })

    it('returns the chat unchanged for an empty body', async () => {
      const chat = await createChat(tenant)
      const res = await patch(tenant, chat.id, {})
      expect(res.status).toBe(200)
      expect(res.body).toEqual(chat)
    })

    it.each([
      ['an empty title', { title: '' }],
      ['a numeric title', { title: 1 }],
      ['a string archived', { archived: 'true' }],
      ['a numeric bot_id', { bot_id: 4 }],
    ])('rejects %s with 400 validation_failed', async (_name, body) => {
      const chat = await createChat(tenant)
      expectProblem(await patch(tenant, chat.id, body), 400, 'validation_failed')
    })

    it('rejects unknown and foreign bots with 400 invalid_reference and changes nothing', async () => {
      const chat = await createChat(tenant)
      const theirs = await createBot(other)
      for (const bad of [UNKNOWN_ID, theirs]) {
        const res = await patch(tenant, chat.id, { title: 'changed', bot_id: bad })
        expectProblem(res, 400, 'invalid_reference')
        expect(res.body.errors[0].path).toBe('body/bot_id')
      }
      const stored = await t.ctx.store.chats.findVisible(tenant.companyId, tenant.credentials.clientId, chat.id)
      expect(stored?.title).toBe('A chat')
      expect(stored?.botId).toBe(tenant.defaultBotId)
    })

    it('answers 404 for unknown ids, another company’s chat and another client’s chat, changing nothing', async () => {
      const tn = await createTenant(t)
      const second = await secondClient(t, tn)
      const theirs = await createChat(second, { title: 'second client' })
      const foreign = await createChat(other, { title: 'other company' })
      for (const id of [UNKNOWN_ID, 'nope', theirs.id, foreign.id]) {
        expectProblem(await patch(tn, id, { title: 'hijacked' }), 404, 'not_found')
      }
      const unknown = await patch(tn, UNKNOWN_ID, { title: 'x' })
      const hidden = await patch(tn, foreign.id, { title: 'x' })
      expect(hidden.body.title).toBe(unknown.body.title)
      expect((await t.request('GET', '/chat', { token: second.token })).body[0].title).toBe('second client')
      const otherList = await t.request('GET', '/chat', { token: other.token })
      expect(otherList.body.find((c: { id: string }) => c.id === foreign.id)?.title).toBe('other company')
    })

    it('requires a token', async () => {
      const chat = await createChat(tenant)
      expectProblem(await t.request('PATCH', `/chat/${chat.id}`, { json: { title: 'x' } }), 401, 'unauthenticated')
    })
  })

  describe('DELETE /chat/<chat_id> (extension)', () => {
    it('deletes the chat: 204, then gone from lists and 404 on edit', async () => {
      const tn = await createTenant(t)
      const keep = await createChat(tn, { title: 'keep' })
      const chat = await createChat(tn, { title: 'bye' })
      const res = await t.request('DELETE', `/chat/${chat.id}`, { token: tn.token })
      expect(res.status).toBe(204)
      expect(res.text).toBe('')
      expect(await listIds(tn)).toEqual([keep.id])
      expectProblem(await patch(tn, chat.id, { title: 'x' }), 404, 'not_found')
      expectProblem(await t.request('DELETE', `/chat/${chat.id}`, { token: tn.token }), 404, 'not_found')
    })

    it('deletes archived chats too', async () => {
      const tn = await createTenant(t)
      const chat = await createChat(tn)
      await patch(tn, chat.id, { archived: true })
      expect((await t.request('DELETE', `/chat/${chat.id}`, { token: tn.token })).status).toBe(204)
      expect(await listIds(tn, '?archived=true')).toEqual([])
    })

    it('answers 404 for unknown ids, another company’s chat and another client’s chat, which survive', async () => {
      const tn = await createTenant(t)
      const second = await secondClient(t, tn)
      const theirs = await createChat(second, { title: 'second client' })
      const foreign = await createChat(other, { title: 'other company' })
      for (const id of [UNKNOWN_ID, theirs.id, foreign.id]) {
        expectProblem(await t.request('DELETE', `/chat/${id}`, { token: tn.token }), 404, 'not_found')
      }
      expect(await listIds(second)).toEqual([theirs.id])
      expect(await listIds(other)).toContain(foreign.id)
    })

    it('requires a token', async () => {
      const chat = await createChat(tenant)
      expectProblem(await t.request('DELETE', `/chat/${chat.id}`), 401, 'unauthenticated')
    })
  })
})
