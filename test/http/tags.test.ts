import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { expectProblem, ISO_MICROS, UUID } from '../support/assertions.js'
import { createTenant, type Tenant } from '../support/factories.js'
import { createTag, kbPath, uploadOk } from '../support/knowledge-base.js'
import { storeModes } from '../support/store-modes.js'
import { startTestApp, type TestApp } from '../support/test-app.js'

describe.each(storeModes())('%s: tags', (mode) => {
  let t: TestApp
  beforeAll(async () => {
    t = await startTestApp(mode)
  })
  afterAll(() => t.close())

  const tagsPath = (tenant: Tenant, suffix = '') => kbPath(tenant, `/tags${suffix}`)
  const post = (tenant: Tenant, json: unknown) => t.request('POST', tagsPath(tenant), { token: tenant.token, json })
  const rename = (tenant: Tenant, id: string, json: unknown) =>
    t.request('PATCH', tagsPath(tenant, `/${id}`), { token: tenant.token, json })
  const list = async (tenant: Tenant, query = '') => t.request('GET', tagsPath(tenant, query), { token: tenant.token })
  const tagNames = (body: { name: string }[]) => body.map((tag) => tag.name)

  describe('POST …/knowledge-base/tags', () => {
    it('creates a tag with every field of spec 2.8, name trimmed', async () => {
      const tenant = await createTenant(t)
      const res = await post(tenant, { name: '  Finance  ' })
      expect(res.status).toBe(201)
      expect(res.body).toEqual({
        id: expect.stringMatching(UUID),
        name: 'Finance',
        create_at: expect.stringMatching(ISO_MICROS),
        update_at: expect.stringMatching(ISO_MICROS),
      })
      expect(res.body.update_at).toBe(res.body.create_at)
      expect((await list(tenant)).body).toEqual([res.body])
    })

    it('refuses a name that exists ignoring case with 409, per company', async () => {
      const tenant = await createTenant(t)
      const other = await createTenant(t)
      await createTag(t, tenant, 'Legal')
      expectProblem(await post(tenant, { name: 'legal' }), 409, 'already_exists')
      expectProblem(await post(tenant, { name: ' LEGAL ' }), 409, 'already_exists')
      expect((await post(other, { name: 'legal' })).status).toBe(201)
      expect(tagNames((await list(tenant)).body)).toEqual(['Legal'])
    })

    it('rejects missing, empty, blank, too long and wrong-typed names with 400', async () => {
      const tenant = await createTenant(t)
      for (const json of [{}, { name: '' }, { name: '   ' }, { name: 'x'.repeat(101) }, { name: 5 }, { name: null }]) {
        const res = await post(tenant, json)
        expectProblem(res, 400, 'validation_failed')
        expect(res.body.errors[0].path).toBe('body/name')
      }
      expect((await post(tenant, { name: 'x'.repeat(100) })).status).toBe(201)
      expectProblem(
        await t.request('POST', tagsPath(tenant), {
          token: tenant.token,
          body: '{"name"',
          headers: { 'content-type': 'application/json' },
        }),
        400,
        'malformed_json',
      )
    })
  })

  describe('GET …/knowledge-base/tags', () => {
    let tenant: Tenant
    beforeAll(async () => {
      tenant = await createTenant(t)
      for (const name of ['beta', 'Alpha', 'gamma', 'alpha 2', 'Zulu', '100%_sure', 'delta']) {
        await createTag(t, tenant, name)
      }
    })

    it('orders by name ignoring case', async () => {
      const res = await list(tenant)
      expect(res.status).toBe(200)
      expect(tagNames(res.body)).toEqual(['100%_sure', 'Alpha', 'alpha 2', 'beta', 'delta', 'gamma', 'Zulu'])
    })

    it('pages with offset and limit and rejects out-of-range values', async () => {
      expect(tagNames((await list(tenant, '?offset=2&limit=3')).body)).toEqual(['alpha 2', 'beta', 'delta'])
      expect((await list(tenant, '?offset=7')).body).toEqual([])
      for (const query of ['?limit=0', '?limit=101', '?offset=-1', '?offset=x']) {
        expectProblem(await list(tenant, query), 400, 'validation_failed')
      }
    })

    it('searches a substring ignoring case, taking % and _ literally', async () => {
      expect(tagNames((await list(tenant, '?search=ALPHA')).body)).toEqual(['Alpha', 'alpha 2'])
      expect(tagNames((await list(tenant, '?search=%25')).body)).toEqual(['100%_sure'])
      expect(tagNames((await list(tenant, '?search=_')).body)).toEqual(['100%_sure'])
      expect(tagNames((await list(tenant, '?search=a&limit=2&offset=1')).body)).toEqual(['alpha 2', 'beta'])
      expect((await list(tenant, '?search=zz')).body).toEqual([])
    })

    it('uses a default page of 20', async () => {
      const many = await createTenant(t)
      for (let i = 0; i < 21; i++) await createTag(t, many, `tag ${String(i).padStart(2, '0')}`)
      const res = await list(many)
      expect(res.body).toHaveLength(20)
      expect(res.body[19].name).toBe('tag 19')
    })
  })

  describe('PATCH …/knowledge-base/tags/<tag_id>', () => {
    it('renames a tag and returns it; a change of case only is allowed', async () => {
      const tenant = await createTenant(t)
      const created = (await post(tenant, { name: 'hr' })).body
      const res = await rename(tenant, created.id, { name: ' Human resources ' })
      expect(res.status).toBe(200)
      expect(res.body).toEqual({
        id: created.id,
        name: 'Human resources',
        create_at: created.create_at,
        update_at: expect.stringMatching(ISO_MICROS),
      })
      expect(res.body.update_at > created.update_at).toBe(true)
      expect((await rename(tenant, created.id, { name: 'HUMAN RESOURCES' })).body.name).toBe('HUMAN RESOURCES')
      expect(tagNames((await list(tenant)).body)).toEqual(['HUMAN RESOURCES'])
    })

    it('refuses the name of another tag with 409 and bad input with 400', async () => {
      const tenant = await createTenant(t)
      const a = await createTag(t, tenant, 'one')
      await createTag(t, tenant, 'two')
      expectProblem(await rename(tenant, a, { name: 'TWO' }), 409, 'already_exists')
      expectProblem(await rename(tenant, a, {}), 400, 'validation_failed')
      expectProblem(await rename(tenant, a, { name: ' ' }), 400, 'validation_failed')
      expectProblem(await rename(tenant, a, { name: 1 }), 400, 'validation_failed')
      expect(tagNames((await list(tenant)).body)).toEqual(['one', 'two'])
    })

    it('answers 404 for an unknown id', async () => {
      const tenant = await createTenant(t)
      expectProblem(await rename(tenant, '00000000-0000-4000-8000-000000000000', { name: 'x' }), 404, 'not_found')
    })
  })

  describe('DELETE …/knowledge-base/tags/<tag_id>', () => {
    it('deletes the tag and detaches it from documents and bot filters', async () => {
      const tenant = await createTenant(t)
      const gone = await createTag(t, tenant, 'gone')
      const kept = await createTag(t, tenant, 'kept')
      const doc = await uploadOk(t, tenant, 'd.txt', 'x', { fields: { tags: [gone, kept] } })
      const bot = await t.ctx.store.bots.findById(tenant.companyId, tenant.defaultBotId)
      if (!bot) throw new Error('no default bot')
      await t.ctx.store.bots.replace({ ...bot, filters: { ...bot.filters, tags: [gone, kept] } })

      const res = await t.request('DELETE', tagsPath(tenant, `/${gone}`), { token: tenant.token })
      expect(res.status).toBe(204)
      expect(res.text).toBe('')
      expect((await list(tenant)).body.map((tag: { id: string }) => tag.id)).toEqual([kept])
      const meta = await t.request('GET', kbPath(tenant, `/${doc}`), { token: tenant.token })
      expect(meta.body.tags).toEqual([kept])
      const after = await t.ctx.store.bots.findById(tenant.companyId, tenant.defaultBotId)
      expect(after?.filters.tags).toEqual([kept])
      expect(after && after.updatedAt > bot.updatedAt).toBe(true)
      expectProblem(await t.request('DELETE', tagsPath(tenant, `/${gone}`), { token: tenant.token }), 404, 'not_found')
      // the name is free again
      expect((await post(tenant, { name: 'GONE' })).status).toBe(201)
    })
  })

  describe('DELETE of a tag that is the only scope of a bot', () => {
    it('refuses with 409 tag_in_use rather than widening the bot to the whole knowledge base', async () => {
      const tenant = await createTenant(t)
      const only = await createTag(t, tenant, 'only-scope')
      const bot = await t.request('POST', `/company/${tenant.companyId}/bot`, {
        token: tenant.token,
        json: { label: 'Scoped', description: 'd', prompt: { name: 'p', prompt: 'p' }, filters: { tags: [only] } },
      })
      expect(bot.status).toBe(201)
      expectProblem(await t.request('DELETE', tagsPath(tenant, `/${only}`), { token: tenant.token }), 409, 'tag_in_use')
      const after = await t.request('GET', `/company/${tenant.companyId}/bot/${bot.body.id}`, { token: tenant.token })
      expect(after.body.filters.tags).toEqual([only])
      expect((await list(tenant)).body.map((tag: { id: string }) => tag.id)).toEqual([only])
    })
  })

  describe('tenant isolation and authentication', () => {
    it("answers another company's tag ids with 404 and leaves them unchanged", async () => {
      const owner = await createTenant(t)
      const intruder = await createTenant(t)
      const id = await createTag(t, owner, 'private')
      expectProblem(await rename(intruder, id, { name: 'mine' }), 404, 'not_found')
      expectProblem(
        await t.request('DELETE', tagsPath(intruder, `/${id}`), { token: intruder.token }),
        404,
        'not_found',
      )
      const doc = await uploadOk(t, intruder, 'd.txt', 'x')
      const patch = await t.request('PATCH', kbPath(intruder, `/${doc}/metadata`), {
        token: intruder.token,
        json: { tags: [id] },
      })
      expectProblem(patch, 400, 'invalid_reference')
      expect((await list(intruder)).body).toEqual([])
      expect(tagNames((await list(owner)).body)).toEqual(['private'])
    })

    it("answers 404 for another company's company id on every tag endpoint", async () => {
      const owner = await createTenant(t)
      const intruder = await createTenant(t)
      const id = await createTag(t, owner, 'x')
      const base = tagsPath(owner)
      const as = intruder.token
      expectProblem(await t.request('GET', base, { token: as }), 404, 'not_found')
      expectProblem(await t.request('POST', base, { token: as, json: { name: 'y' } }), 404, 'not_found')
      expectProblem(await t.request('PATCH', `${base}/${id}`, { token: as, json: { name: 'y' } }), 404, 'not_found')
      expectProblem(await t.request('DELETE', `${base}/${id}`, { token: as }), 404, 'not_found')
      expect(tagNames((await list(owner)).body)).toEqual(['x'])
    })

    it('answers 401 without a token', async () => {
      const tenant = await createTenant(t)
      const base = tagsPath(tenant)
      expectProblem(await t.request('GET', base), 401, 'unauthenticated')
      expectProblem(await t.request('POST', base, { json: { name: 'x' } }), 401, 'unauthenticated')
      expectProblem(await t.request('PATCH', `${base}/x`, { json: { name: 'x' } }), 401, 'unauthenticated')
      expectProblem(await t.request('DELETE', `${base}/x`), 401, 'unauthenticated')
    })
  })
})
