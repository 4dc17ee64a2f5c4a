import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { expectProblem, ISO_MICROS, UUID } from '../support/assertions.js'
import { ShiftedClock } from '../support/clock.js'
import { createTenant, secondClient, type Tenant, tokenFor } from '../support/factories.js'
import { storeModes } from '../support/store-modes.js'
import { startTestApp, type TestApp } from '../support/test-app.js'

describe.each(storeModes())('%s: authentication and company', (mode) => {
  let t: TestApp
  let tenant: Tenant
  beforeAll(async () => {
    t = await startTestApp(mode)
    tenant = await createTenant(t)
  })
  afterAll(() => t.close())

  describe('POST /auth/token', () => {
    it('exchanges client credentials for a bearer token with every field of spec 2.1', async () => {
      const c = tenant.credentials
      const before = Math.floor(Date.now() / 1000)
      const res = await t.request('POST', '/auth/token', {
        json: { app_name: c.appName, client_id: c.clientId, client_secret: c.clientSecret },
      })
      expect(res.status).toBe(200)
      expect(Object.keys(res.body).sort()).toEqual([
        'access_token',
        'expires_at',
        'expires_in',
        'ext_expires_in',
        'token_type',
      ])
      expect(res.body.token_type).toBe('Bearer')
      expect(res.body.expires_in).toBe(3600)
      expect(res.body.ext_expires_in).toBe(3600)
      expect(Number.isInteger(res.body.expires_at)).toBe(true)
      expect(res.body.expires_at).toBeGreaterThanOrEqual(before + 3599)
      expect(res.body.expires_at).toBeLessThanOrEqual(Math.floor(Date.now() / 1000) + 3601)
      expect(typeof res.body.access_token).toBe('string')
    })

    it('stores neither the secret nor the token in plain text', async () => {
      const token = await tokenFor(t, tenant.credentials)
      const client = await t.ctx.store.clients.findByClientId(tenant.credentials.clientId)
      expect(client?.secretHash).not.toContain(tenant.credentials.clientSecret)
      expect(client?.secretHash).toMatch(/^scrypt\$/)
      const owner = await t.ctx.store.tokens.findLive(token, t.ctx.clock.now())
      expect(owner).toBeUndefined()
    })

    it.each([
      [
        'wrong secret',
        (c: Tenant['credentials']) => ({ app_name: c.appName, client_id: c.clientId, client_secret: 'lsk_nope' }),
      ],
      [
        'wrong app name',
        (c: Tenant['credentials']) => ({ app_name: 'other', client_id: c.clientId, client_secret: c.clientSecret }),
      ],
      [
        'unknown client',
        (c: Tenant['credentials']) => ({ app_name: c.appName, client_id: 'nobody', client_secret: c.clientSecret }),
      ],
    ])('refuses a %s with 401 invalid_client', async (_name, make) => {
      const res = await t.request('POST', '/auth/token', { json: make(tenant.credentials) })
      expectProblem(res, 401, 'invalid_client')
      expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/)
    })

    it('rejects missing and wrong-typed fields with 400 validation_failed naming each field', async () => {
      const res = await t.request('POST', '/auth/token', { json: { app_name: 5, client_id: 'x' } })
      expectProblem(res, 400, 'validation_failed')
      const paths = res.body.errors.map((e: { path: string }) => e.path).sort()
      expect(paths).toEqual(['body/app_name', 'body/client_secret'])
    })

    it('rejects malformed JSON with 400 malformed_json', async () => {
      const res = await t.request('POST', '/auth/token', {
        body: '{"app_name": ',
        headers: { 'content-type': 'application/json' },
      })
      expectProblem(res, 400, 'malformed_json')
    })

    it('rejects a body over the JSON limit with 413 payload_too_large', async () => {
      const res = await t.request('POST', '/auth/token', {
        json: { app_name: 'x'.repeat(1024 * 1024 + 10), client_id: 'x', client_secret: 'y' },
      })
      expectProblem(res, 413, 'payload_too_large')
    })

    it('rejects a non-JSON content type with 415 unsupported_media_type', async () => {
      const res = await t.request('POST', '/auth/token', { body: 'a=b', headers: { 'content-type': 'text/csv' } })
      expectProblem(res, 415, 'unsupported_media_type')
    })

    it('limits token requests per client address with 429 rate_limited and Retry-After', async () => {
      const limited = await startTestApp(mode, { config: { tokenRateLimitPerMinute: 3 } })
      try {
        const body = { json: { app_name: 'a', client_id: 'b', client_secret: 'c' } }
        for (let i = 0; i < 3; i++)
          expectProblem(await limited.request('POST', '/auth/token', body), 401, 'invalid_client')
        const res = await limited.request('POST', '/auth/token', body)
        expectProblem(res, 429, 'rate_limited')
        expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0)
      } finally {
        await limited.close()
      }
    })

    it('ignores unknown body fields', async () => {
      const c = tenant.credentials
      const res = await t.request('POST', '/auth/token', {
        json: { app_name: c.appName, client_id: c.clientId, client_secret: c.clientSecret, grant_type: 'whatever' },
      })
      expect(res.status).toBe(200)
    })
  })

  describe('GET /auth/company', () => {
    it('returns the caller company with its licence, field by field', async () => {
      const res = await t.request('GET', '/auth/company', { token: tenant.token })
      expect(res.status).toBe(200)
      expect(Object.keys(res.body).sort()).toEqual([
        'create_at',
        'id',
        'id_bot_default',
        'idp_id',
        'license',
        'name',
        'update_at',
      ])
      expect(res.body.id).toBe(tenant.companyId)
      expect(res.body.id_bot_default).toBe(tenant.defaultBotId)
      expect(res.body.id_bot_default).toMatch(UUID)
      expect(typeof res.body.idp_id).toBe('string')
      expect(res.body.create_at).toMatch(ISO_MICROS)
      expect(res.body.update_at).toMatch(ISO_MICROS)
      expect(res.body.license).toEqual({
        expiration: '9999-12-31T23:59:59.999999',
        license_type: 'BASIC',
        knowledge_base_size_max: '10GB',
        questions_max: '10000',
      })
    })

    it('shows a licence as provisioned', async () => {
      const other = await createTenant(t, {
        licenseType: 'DEMO',
        kbMaxBytes: 512 * 1024 ** 2,
        questionsMax: 50,
        licenseExpiration: '2027-12-31T23:59:59.999999',
      })
      const res = await t.request('GET', '/auth/company', { token: other.token })
      expect(res.body.license).toEqual({
        expiration: '2027-12-31T23:59:59.999999',
        license_type: 'DEMO',
        knowledge_base_size_max: '512MB',
        questions_max: '50',
      })
    })

    it('requires a token: 401 unauthenticated with WWW-Authenticate', async () => {
      const res = await t.request('GET', '/auth/company')
      expectProblem(res, 401, 'unauthenticated')
      expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/)
    })

    it.each([
      ['garbage token', 'Bearer garbage'],
      ['well-formed unknown token', 'Bearer lat_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'],
    ])('refuses a %s with 401 invalid_token', async (_name, header) => {
      const res = await t.request('GET', '/auth/company', { headers: { authorization: header } })
      expectProblem(res, 401, 'invalid_token')
    })

    it('refuses a non-Bearer scheme with 401 unauthenticated', async () => {
      const res = await t.request('GET', '/auth/company', { headers: { authorization: 'Basic abc' } })
      expectProblem(res, 401, 'unauthenticated')
    })

    it('refuses an expired token', async () => {
      const clock = new ShiftedClock()
      const short = await startTestApp(mode, { config: { tokenTtlSeconds: 60 }, clock })
      try {
        const tn = await createTenant(short)
        expect((await short.request('GET', '/auth/company', { token: tn.token })).status).toBe(200)
        clock.advance(61)
        expectProblem(await short.request('GET', '/auth/company', { token: tn.token }), 401, 'invalid_token')
      } finally {
        await short.close()
      }
    })
  })

  describe('secret rotation and client disable', () => {
    it('kills every token of a client whose secret is rotated, and the new secret works', async () => {
      const tn = await createTenant(t)
      const rotated = await t.ctx.services.companies.rotateSecret(tn.credentials.clientId)
      expectProblem(await t.request('GET', '/auth/company', { token: tn.token }), 401, 'invalid_token')
      const old = tn.credentials
      expectProblem(
        await t.request('POST', '/auth/token', {
          json: { app_name: old.appName, client_id: old.clientId, client_secret: old.clientSecret },
        }),
        401,
        'invalid_client',
      )
      const fresh = await tokenFor(t, rotated)
      expect((await t.request('GET', '/auth/company', { token: fresh })).status).toBe(200)
    })

    it('kills the tokens of a disabled client and refuses it new ones, leaving other clients alone', async () => {
      const tn = await createTenant(t)
      const other = await secondClient(t, tn)
      await t.ctx.services.companies.disableClient(tn.credentials.clientId)
      expectProblem(await t.request('GET', '/auth/company', { token: tn.token }), 401, 'invalid_token')
      await expect(tokenFor(t, tn.credentials)).rejects.toThrow(/401/)
      expect((await t.request('GET', '/auth/company', { token: other.token })).status).toBe(200)
    })
  })

  describe('GET /auth/company/usage', () => {
    it('reports questions, bytes and documents by state', async () => {
      const res = await t.request('GET', '/auth/company/usage', { token: tenant.token })
      expect(res.status).toBe(200)
      expect(res.body).toEqual({
        questions_used: 0,
        questions_max: 10000,
        knowledge_base_size_bytes: 0,
        knowledge_base_size_max_bytes: 10 * 1024 ** 3,
        documents: { PENDING: 0, PROCESSING: 0, PROCESSED: 0, ERROR: 0 },
        license_expired: false,
      })
    })

    it('requires a token', async () => {
      expectProblem(await t.request('GET', '/auth/company/usage'), 401, 'unauthenticated')
    })
  })
})
