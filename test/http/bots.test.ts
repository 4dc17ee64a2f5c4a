import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { expectProblem, UUID } from '../support/assertions.js'
import { createTenant, type Tenant } from '../support/factories.js'
import { storeModes } from '../support/store-modes.js'
import { startTestApp, type TestApp } from '../support/test-app.js'

const BOT_KEYS = [
  'auto_document_selector',
  'data_scientist_mode',
  'description',
  'filters',
  'icon',
  'id',
  'label',
  'locale',
  'manual_filters',
  'prompt',
]

const minimal = () => ({
  label: 'HR helper',
  description: 'Answers HR questions',
  prompt: { name: 'hr', prompt: 'You answer questions about HR policies.' },
})

describe.each(storeModes())('%s: bots', (mode) => {
  let t: TestApp
  let tenant: Tenant
  let other: Tenant
  beforeAll(async () => {
    t = await startTestApp(mode)
    tenant = await createTenant(t)
    other = await createTenant(t)
  })
  afterAll(() => t.close())

  const botsPath = (tn: Tenant) => `/company/${tn.companyId}/bot`
  const createBot = async (tn: Tenant, body: Record<string, unknown> = minimal()) => {
    const res = await t.request('POST', botsPath(tn), { token: tn.token, json: body })
    expect(res.status, res.text).toBe(201)
    return res.body
  }
  const createTag = async (tn: Tenant, name: string): Promise<string> => {
    const res = await t.request('POST', `/company/${tn.companyId}/knowledge-base/tags`, {
      token: tn.token,
      json: { name },
    })
    expect(res.status, res.text).toBeLessThan(300)
    return res.body.id
  }
  const upload = async (tn: Tenant, folder: string, name: string): Promise<string> => {
    const form = new FormData()
    form.append('path', folder)
    form.append('files', new Blob([`Notes about ${name}.\nThe leave policy gives 25 days.\n`]), name)
    const res = await t.request('POST', `/company/${tn.companyId}/knowledge-base`, { token: tn.token, body: form })
    expect(res.status, res.text).toBeLessThan(300)
    return res.body.id
  }
  const createFolder = async (tn: Tenant, path: string) => {
    const res = await t.request('POST', `/company/${tn.companyId}/knowledge-base/folders`, {
      token: tn.token,
      json: { path },
    })
    expect(res.status, res.text).toBeLessThan(300)
  }

  describe('POST /company/<company_id>/bot', () => {
    it('creates a bot with the documented defaults, field by field', async () => {
      const res = await t.request('POST', botsPath(tenant), { token: tenant.token, json: minimal() })
      expect(res.status).toBe(201)
      expect(Object.keys(res.body).sort()).toEqual(BOT_KEYS)
      expect(res.body.id).toMatch(UUID)
      expect(res.body).toEqual({
        id: res.body.id,
        label: 'HR helper',
        description: 'Answers HR questions',
        prompt: { name: 'hr', prompt: 'You answer questions about HR policies.' },
        auto_document_selector: 'choose',
        manual_filters: false,
        data_scientist_mode: false,
        icon: { name: 'smart_toy', type: 'material' },
        locale: 'AUTOMATIC',
        filters: { paths: [], tags: [], default_documents: [], default_auto_documents: [] },
      })
    })

    it('stores every given field; folder paths are normalised and de-duplicated in order', async () => {
      const body = {
        ...minimal(),
        auto_document_selector: 'always',
        manual_filters: true,
        data_scientist_mode: true,
        icon: { name: 'gavel', type: 'material' },
        locale: 'fr',
        filters: { paths: ['hr/policies', '/finance/', '/hr/policies/', '/'] },
      }
      const created = await createBot(tenant, body)
      expect(created).toMatchObject({
        auto_document_selector: 'always',
        manual_filters: true,
        data_scientist_mode: true,
        icon: { name: 'gavel', type: 'material' },
        locale: 'fr',
        filters: { paths: ['/hr/policies/', '/finance/', '/'], tags: [], default_documents: [] },
      })
      const read = await t.request('GET', `${botsPath(tenant)}/${created.id}`, { token: tenant.token })
      expect(read.body).toEqual(created)
    })

    it('fills the icon type when only its name is given, and the name when only the type is', async () => {
      expect((await createBot(tenant, { ...minimal(), icon: { name: 'school' } })).icon).toEqual({
        name: 'school',
        type: 'material',
      })
      expect((await createBot(tenant, { ...minimal(), icon: { type: 'material' } })).icon).toEqual({
        name: 'smart_toy',
        type: 'material',
      })
    })

    it('trims the label', async () => {
      expect((await createBot(tenant, { ...minimal(), label: '  Sales  ' })).label).toBe('Sales')
    })

    it('accepts tag ids of the company, de-duplicated', async () => {
      const a = await createTag(tenant, `alpha-${Date.now()}`)
      const b = await createTag(tenant, `beta-${Date.now()}`)
      const bot = await createBot(tenant, { ...minimal(), filters: { tags: [b, a, b] } })
      expect(bot.filters.tags).toEqual([b, a])
    })

    it('accepts default documents on create too, as normalised paths of existing documents', async () => {
      const tn = await createTenant(t)
      await upload(tn, '/guides/', 'layout.txt')
      const bot = await createBot(tn, {
        ...minimal(),
        filters: { default_documents: ['guides/layout.txt'], default_auto_documents: ['/guides/layout.txt'] },
      })
      expect(bot.filters.default_documents).toEqual(['/guides/layout.txt'])
      expect(bot.filters.default_auto_documents).toEqual(['/guides/layout.txt'])
    })

    it.each([
      ['no fields', {}, ['body/description', 'body/label', 'body/prompt']],
      ['a prompt without its text', { ...minimal(), prompt: { name: 'x' } }, ['body/prompt/prompt']],
      ['a string prompt', { ...minimal(), prompt: 'be nice' }, ['body/prompt']],
      ['a numeric label', { ...minimal(), label: 5 }, ['body/label']],
      ['an empty label', { ...minimal(), label: '' }, ['body/label']],
      ['a label over 200 characters', { ...minimal(), label: 'x'.repeat(201) }, ['body/label']],
      ['a description over 2000 characters', { ...minimal(), description: 'x'.repeat(2001) }, ['body/description']],
      [
        'a prompt over 20000 characters',
        { ...minimal(), prompt: { name: 'p', prompt: 'x'.repeat(20_001) } },
        ['body/prompt/prompt'],
      ],
      [
        'an unknown auto_document_selector',
        { ...minimal(), auto_document_selector: 'sometimes' },
        ['body/auto_document_selector'],
      ],
      ['a string manual_filters', { ...minimal(), manual_filters: 'yes' }, ['body/manual_filters']],
      ['a numeric data_scientist_mode', { ...minimal(), data_scientist_mode: 1 }, ['body/data_scientist_mode']],
      ['another icon library', { ...minimal(), icon: { name: 'x', type: 'fontawesome' } }, ['body/icon/type']],
      ['a locale name', { ...minimal(), locale: 'english' }, ['body/locale']],
      ['an upper-case locale', { ...minimal(), locale: 'EN' }, ['body/locale']],
      ['a region locale', { ...minimal(), locale: 'fr-FR' }, ['body/locale']],
      ['an unassigned two-letter locale', { ...minimal(), locale: 'xx' }, ['body/locale']],
      ['a string filters.paths', { ...minimal(), filters: { paths: '/hr/' } }, ['body/filters/paths']],
      ['a numeric tag id', { ...minimal(), filters: { tags: [3] } }, ['body/filters/tags/0']],
    ])('rejects %s with 400 validation_failed', async (_name, body, paths) => {
      const res = await t.request('POST', botsPath(tenant), { token: tenant.token, json: body })
      expectProblem(res, 400, 'validation_failed')
      const got = [...new Set(res.body.errors.map((e: { path: string }) => e.path))].sort()
      expect(got).toEqual(paths)
    })

    it('rejects a blank label after trimming with 400 validation_failed', async () => {
      const res = await t.request('POST', botsPath(tenant), {
        token: tenant.token,
        json: { ...minimal(), label: '   ' },
      })
      expectProblem(res, 400, 'validation_failed')
      expect(res.body.errors).toEqual([{ path: 'body/label', message: expect.any(String) }])
    })

    it.each([
      ['a ".." segment', '/hr/../secret/'],
      ['a backslash', 'hr\\policies'],
      ['an empty segment', '/hr//policies/'],
    ])('rejects a folder path with %s with 400 invalid_path naming its index', async (_name, bad) => {
      const res = await t.request('POST', botsPath(tenant), {
        token: tenant.token,
        json: { ...minimal(), filters: { paths: ['/ok/', bad] } },
      })
      expectProblem(res, 400, 'invalid_path')
      expect(res.body.errors).toEqual([{ path: 'body/filters/paths/1', message: expect.any(String) }])
    })

    it('rejects unknown tag ids and another company’s tag ids with 400 invalid_reference', async () => {
      const mine = await createTag(tenant, `mine-${Date.now()}`)
      const foreign = await createTag(other, `theirs-${Date.now()}`)
      for (const bad of ['3f1c2a7e-0000-4000-8000-000000000000', 'not-a-uuid', foreign]) {
        const res = await t.request('POST', botsPath(tenant), {
          token: tenant.token,
          json: { ...minimal(), filters: { tags: [mine, bad] } },
        })
        expectProblem(res, 400, 'invalid_reference')
        expect(res.body.errors).toEqual([{ path: 'body/filters/tags/1', message: expect.any(String) }])
      }
    })

    it('rejects default documents that are missing, folders, or another company’s', async () => {
      const tn = await createTenant(t)
      const theirs = await createTenant(t)
      await createFolder(tn, '/guides/')
      await upload(theirs, '/guides/', 'theirs.txt')
      for (const bad of ['/guides/missing.txt', '/guides', '/guides/theirs.txt']) {
        const res = await t.request('POST', botsPath(tn), {
          token: tn.token,
          json: { ...minimal(), filters: { default_documents: [bad] } },
        })
        expectProblem(res, 400, 'invalid_reference')
        expect(res.body.errors).toEqual([{ path: 'body/filters/default_documents/0', message: expect.any(String) }])
      }
      const folderPath = await t.request('POST', botsPath(tn), {
        token: tn.token,
        json: { ...minimal(), filters: { default_auto_documents: ['/guides/'] } },
      })
      expectProblem(folderPath, 400, 'invalid_path')
      expect(folderPath.body.errors[0].path).toBe('body/filters/default_auto_documents/0')
    })

    it('rejects malformed JSON with 400 malformed_json', async () => {
      const res = await t.request('POST', botsPath(tenant), {
        token: tenant.token,
        body: '{"label": ',
        headers: { 'content-type': 'application/json' },
      })
      expectProblem(res, 400, 'malformed_json')
    })

    it('ignores unknown body fields and stores no company id in the bot object', async () => {
      const bot = await createBot(tenant, { ...minimal(), colour: 'blue', company_id: other.companyId })
      expect(Object.keys(bot).sort()).toEqual(BOT_KEYS)
    })

    it('requires a token', async () => {
      expectProblem(await t.request('POST', botsPath(tenant), { json: minimal() }), 401, 'unauthenticated')
    })

    it('answers 404 for another company’s id in the path and creates nothing there', async () => {
      const res = await t.request('POST', botsPath(other), { token: tenant.token, json: minimal() })
      expectProblem(res, 404, 'not_found')
      const theirs = await t.request('GET', botsPath(other), { token: other.token })
      expect(theirs.body.map((b: { id: string }) => b.id)).toEqual([other.defaultBotId])
    })
  })

  describe('GET /company/<company_id>/bot', () => {
    it('lists the default bot first, then the others in creation order, with offset and limit', async () => {
      const tn = await createTenant(t)
      const made = []
      for (const label of ['one', 'two', 'three']) made.push(await createBot(tn, { ...minimal(), label }))
      const all = await t.request('GET', botsPath(tn), { token: tn.token })
      expect(all.status).toBe(200)
      expect(all.body.map((b: { id: string }) => b.id)).toEqual([tn.defaultBotId, ...made.map((b) => b.id)])
      expect(all.body[1]).toEqual(made[0])
      for (const bot of all.body) expect(Object.keys(bot).sort()).toEqual(BOT_KEYS)
      const page = await t.request('GET', `${botsPath(tn)}?offset=1&limit=2`, { token: tn.token })
      expect(page.body.map((b: { label: string }) => b.label)).toEqual(['one', 'two'])
      const past = await t.request('GET', `${botsPath(tn)}?offset=10`, { token: tn.token })
      expect(past.body).toEqual([])
    })

    it('shows the default bot as provisioned', async () => {
      const tn = await createTenant(t)
      const res = await t.request('GET', botsPath(tn), { token: tn.token })
      expect(res.body).toEqual([
        expect.objectContaining({
          id: tn.defaultBotId,
          auto_document_selector: 'choose',
          locale: 'AUTOMATIC',
          icon: { name: 'smart_toy', type: 'material' },
          filters: { paths: [], tags: [], default_documents: [], default_auto_documents: [] },
        }),
      ])
    })

    it('defaults to 20 bots', async () => {
      const tn = await createTenant(t)
      for (let i = 0; i < 20; i++) await createBot(tn, { ...minimal(), label: `bot ${i}` })
      const res = await t.request('GET', botsPath(tn), { token: tn.token })
      expect(res.body).toHaveLength(20)
      expect(res.body[19].label).toBe('bot 18')
    })

    it.each(['limit=0', 'limit=101', 'offset=-1', 'limit=abc', 'offset=1.5'])(
      'rejects %s with 400 validation_failed',
      async (query) => {
        expectProblem(
          await t.request('GET', `${botsPath(tenant)}?${query}`, { token: tenant.token }),
          400,
          'validation_failed',
        )
      },
    )

    it('never lists another company’s bots, and another company’s id answers 404', async () => {
      const res = await t.request('GET', botsPath(tenant), { token: tenant.token })
      expect(res.body.map((b: { id: string }) => b.id)).not.toContain(other.defaultBotId)
      expectProblem(await t.request('GET', botsPath(other), { token: tenant.token }), 404, 'not_found')
    })

    it('requires a token', async () => {
      expectProblem(await t.request('GET', botsPath(tenant)), 401, 'unauthenticated')
    })
  })

  describe('GET /company/<company_id>/bot/<bot_id>', () => {
    it('returns the bot', async () => {
      const created = await createBot(tenant)
      const res = await t.request('GET', `${botsPath(tenant)}/${created.id}`, { token: tenant.token })
      expect(res.status).toBe(200)
      expect(res.body).toEqual(created)
    })

    it('answers 404 for unknown ids and another company’s bot, by either path', async () => {
      const theirs = await createBot(other)
      for (const path of [
        `${botsPath(tenant)}/3f1c2a7e-0000-4000-8000-000000000000`,
        `${botsPath(tenant)}/nope`,
        `${botsPath(tenant)}/${theirs.id}`,
        `${botsPath(other)}/${theirs.id}`,
      ]) {
        expectProblem(await t.request('GET', path, { token: tenant.token }), 404, 'not_found')
      }
      const unknown = await t.request('GET', `${botsPath(tenant)}/3f1c2a7e-0000-4000-8000-000000000000`, {
        token: tenant.token,
      })
      const foreign = await t.request('GET', `${botsPath(tenant)}/${theirs.id}`, { token: tenant.token })
      expect(foreign.body.title).toBe(unknown.body.title)
    })

    it('requires a token', async () => {
      expectProblem(await t.request('GET', `${botsPath(tenant)}/${tenant.defaultBotId}`), 401, 'unauthenticated')
    })
  })

  describe('PATCH /company/<company_id>/bot/<bot_id>', () => {
    const patch = (tn: Tenant, id: string, json: unknown) =>
      t.request('PATCH', `${botsPath(tn)}/${id}`, { token: tn.token, json })

    it('changes only the given fields and returns the whole bot', async () => {
      const created = await createBot(tenant, { ...minimal(), locale: 'de', filters: { paths: ['/hr/'] } })
      const res = await patch(tenant, created.id, { label: 'Renamed', manual_filters: true })
      expect(res.status).toBe(200)
      expect(res.body).toEqual({ ...created, label: 'Renamed', manual_filters: true })
      const read = await t.request('GET', `${botsPath(tenant)}/${created.id}`, { token: tenant.token })
      expect(read.body).toEqual(res.body)
    })

    it('accepts the full body the spec marks as required', async () => {
      const created = await createBot(tenant)
      const res = await patch(tenant, created.id, {
        label: 'L',
        description: 'D',
        prompt: { name: 'n', prompt: 'p' },
        auto_document_selector: 'hidden',
        data_scientist_mode: true,
        icon: { name: 'face', type: 'material' },
        locale: 'AUTOMATIC',
      })
      expect(res.body).toEqual({
        ...created,
        label: 'L',
        description: 'D',
        prompt: { name: 'n', prompt: 'p' },
        auto_document_selector: 'hidden',
        data_scientist_mode: true,
        icon: { name: 'face', type: 'material' },
        locale: 'AUTOMATIC',
      })
    })

    it('leaves the bot alone for an empty body', async () => {
      const created = await createBot(tenant)
      const res = await patch(tenant, created.id, {})
      expect(res.status).toBe(200)
      expect(res.body).toEqual(created)
    })

    it('merges a partial prompt and a partial icon', async () => {
      const created = await createBot(tenant, { ...minimal(), icon: { name: 'school' } })
      const res = await patch(tenant, created.id, { prompt: { prompt: 'New text' }, icon: { name: 'face' } })
      expect(res.body.prompt).toEqual({ name: 'hr', prompt: 'New text' })
      expect(res.body.icon).toEqual({ name: 'face', type: 'material' })
    })

    it('replaces only the filter lists it carries', async () => {
      const tn = await createTenant(t)
      const tag = await createTag(tn, 'policies')
      await upload(tn, '/kb/', 'structure.txt')
      await upload(tn, '/kb/', 'faq.txt')
      const created = await createBot(tn, { ...minimal(), filters: { paths: ['/hr/'], tags: [tag] } })
      const first = await patch(tn, created.id, {
        filters: { default_documents: ['/kb/faq.txt', 'kb/faq.txt'], default_auto_documents: ['/kb/structure.txt'] },
      })
      expect(first.status).toBe(200)
      expect(first.body.filters).toEqual({
        paths: ['/hr/'],
        tags: [tag],
        default_documents: ['/kb/faq.txt'],
        default_auto_documents: ['/kb/structure.txt'],
      })
      const second = await patch(tn, created.id, { filters: { paths: [], tags: [] } })
      expect(second.body.filters).toEqual({
        paths: [],
        tags: [],
        default_documents: ['/kb/faq.txt'],
        default_auto_documents: ['/kb/structure.txt'],
      })
    })

    it('can edit the default bot', async () => {
      const tn = await createTenant(t)
      const res = await patch(tn, tn.defaultBotId, { locale: 'en' })
      expect(res.status).toBe(200)
      expect(res.body.locale).toBe('en')
    })

    it.each([
      ['an empty label', { label: '' }, 'validation_failed'],
      ['a null label', { label: null }, 'validation_failed'],
      ['a numeric description', { description: 3 }, 'validation_failed'],
      ['a bad selector', { auto_document_selector: 'never' }, 'validation_failed'],
      ['another icon library', { icon: { type: 'emoji' } }, 'validation_failed'],
      ['a bad locale', { locale: 'klingon' }, 'validation_failed'],
      ['an unsafe folder path', { filters: { paths: ['/a/../b/'] } }, 'invalid_path'],
      ['an unknown tag', { filters: { tags: ['3f1c2a7e-0000-4000-8000-000000000000'] } }, 'invalid_reference'],
      ['an unknown default document', { filters: { default_documents: ['/none.pdf'] } }, 'invalid_reference'],
    ])('rejects %s and changes nothing', async (_name, body, code) => {
      const created = await createBot(tenant)
      expectProblem(await patch(tenant, created.id, { label: 'changed', ...body }), 400, code)
      const read = await t.request('GET', `${botsPath(tenant)}/${created.id}`, { token: tenant.token })
      expect(read.body).toEqual(created)
    })

    it('answers 404 for unknown ids and another company’s bot', async () => {
      const theirs = await createBot(other)
      expectProblem(await patch(tenant, '3f1c2a7e-0000-4000-8000-000000000000', { label: 'x' }), 404, 'not_found')
      expectProblem(await patch(tenant, theirs.id, { label: 'x' }), 404, 'not_found')
      const viaTheirPath = await t.request('PATCH', `${botsPath(other)}/${theirs.id}`, {
        token: tenant.token,
        json: { label: 'x' },
      })
      expectProblem(viaTheirPath, 404, 'not_found')
      const read = await t.request('GET', `${botsPath(other)}/${theirs.id}`, { token: other.token })
      expect(read.body.label).toBe('HR helper')
    })

    it('requires a token', async () => {
      const res = await t.request('PATCH', `${botsPath(tenant)}/${tenant.defaultBotId}`, { json: { label: 'x' } })
      expectProblem(res, 401, 'unauthenticated')
    })
  })

  describe('DELETE /company/<company_id>/bot/<bot_id> (extension)', () => {
    it('deletes a bot: 204, then 404 and gone from the list', async () => {
      const tn = await createTenant(t)
      const bot = await createBot(tn)
      const res = await t.request('DELETE', `${botsPath(tn)}/${bot.id}`, { token: tn.token })
      expect(res.status).toBe(204)
      expect(res.text).toBe('')
      expectProblem(await t.request('GET', `${botsPath(tn)}/${bot.id}`, { token: tn.token }), 404, 'not_found')
      expectProblem(await t.request('DELETE', `${botsPath(tn)}/${bot.id}`, { token: tn.token }), 404, 'not_found')
      const list = await t.request('GET', botsPath(tn), { token: tn.token })
      expect(list.body.map((b: { id: string }) => b.id)).toEqual([tn.defaultBotId])
    })

    it('rebinds the chats of a deleted bot to the default bot', async () => {
      const tn = await createTenant(t)
      const bot = await createBot(tn)
      const chat = await t.request('POST', '/chat', { token: tn.token, json: { title: 'c', bot_id: bot.id } })
      expect(chat.body.bot_id).toBe(bot.id)
      expect((await t.request('DELETE', `${botsPath(tn)}/${bot.id}`, { token: tn.token })).status).toBe(204)
      const chats = await t.request('GET', '/chat', { token: tn.token })
      expect(chats.body.find((c: { id: string }) => c.id === chat.body.id)?.bot_id).toBe(tn.defaultBotId)
    })

    it('protects the default bot with 409 default_bot_protected', async () => {
      const tn = await createTenant(t)
      const res = await t.request('DELETE', `${botsPath(tn)}/${tn.defaultBotId}`, { token: tn.token })
      expectProblem(res, 409, 'default_bot_protected')
      expect((await t.request('GET', `${botsPath(tn)}/${tn.defaultBotId}`, { token: tn.token })).status).toBe(200)
    })

    it('answers 404 for unknown ids and another company’s bot, which survives', async () => {
      const theirs = await createBot(other)
      for (const path of [
        `${botsPath(tenant)}/3f1c2a7e-0000-4000-8000-000000000000`,
        `${botsPath(tenant)}/${theirs.id}`,
        `${botsPath(other)}/${theirs.id}`,
        `${botsPath(other)}/${other.defaultBotId}`,
      ]) {
        expectProblem(await t.request('DELETE', path, { token: tenant.token }), 404, 'not_found')
      }
      expect((await t.request('GET', `${botsPath(other)}/${theirs.id}`, { token: other.token })).status).toBe(200)
    })

    it('requires a token', async () => {
      const bot = await createBot(tenant)
      expectProblem(await t.request('DELETE', `${botsPath(tenant)}/${bot.id}`), 401, 'unauthenticated')
    })
  })
})
