import { readFileSync } from 'node:fs'
import type { OpenAPI3 } from 'openapi-typescript'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { clientSchemaSource, SCHEMA_FILE } from '../../scripts/generate-client.js'
import { createLanternClient } from '../../src/client/index.js'
import { UUID } from '../support/assertions.js'
import { createTenant } from '../support/factories.js'
import { storeModes } from '../support/store-modes.js'
import { startTestApp, type TestApp } from '../support/test-app.js'

describe('src/client/schema.ts', () => {
  it('is what openapi-typescript generates from the served OpenAPI document (else run `npm run client:generate`)', async () => {
    const t = await startTestApp('sqlite')
    try {
      const served = await t.request<OpenAPI3>('GET', '/openapi.json')
      expect(served.status).toBe(200)
      const generated = await clientSchemaSource(served.body)
      const committed = readFileSync(SCHEMA_FILE, 'utf8')
      expect(committed, 'src/client/schema.ts is stale: run `npm run client:generate`').toBe(generated)
    } finally {
      await t.close()
    }
  })
})

describe.each(storeModes())('%s: the typed client against a real server', (mode) => {
  let t: TestApp
  beforeAll(async () => {
    t = await startTestApp(mode)
  })
  afterAll(() => t?.close())

  it('issues a token, lists the bots, creates a chat and finds it in the list', async () => {
    const { companyId, defaultBotId, credentials } = await createTenant(t)
    let token: string | undefined
    const api = createLanternClient({ baseUrl: t.origin, token: () => token })

    const issued = await api.POST('/apif/v2/auth/token', {
      body: { app_name: credentials.appName, client_id: credentials.clientId, client_secret: credentials.clientSecret },
    })
    expect(issued.response.status).toBe(200)
    expect(issued.data?.token_type).toBe('Bearer')
    token = issued.data?.access_token

    const company = await api.GET('/apif/v2/auth/company')
    expect(company.data?.id).toBe(companyId)

    const bots = await api.GET('/apif/v2/company/{company_id}/bot', {
      params: { path: { company_id: companyId }, query: { offset: 0, limit: 20 } },
    })
    expect(bots.response.status).toBe(200)
    expect(bots.data?.map((bot) => bot.id)).toEqual([defaultBotId])

    const chat = await api.POST('/apif/v2/chat', { body: { title: 'Typed', bot_id: defaultBotId } })
    expect(chat.response.status).toBe(201)
    expect(chat.data).toMatchObject({ id: expect.stringMatching(UUID), title: 'Typed', bot_id: defaultBotId })

    const chats = await api.GET('/apif/v2/chat', { params: { query: { archived: false, offset: 0, limit: 20 } } })
    expect(chats.data?.map((c) => c.id)).toContain(chat.data?.id)
  })

  it('asks for the token before every request, and hands a refusal back as the problem body', async () => {
    const { companyId, token } = await createTenant(t)
    let asked = 0
    const api = createLanternClient({
      baseUrl: t.origin,
      token: async () => (++asked === 1 ? 'not-a-token' : token),
    })

    const refused = await api.GET('/apif/v2/auth/company')
    expect(refused.response.status).toBe(401)
    expect(refused.error).toMatchObject({ status: 401, code: expect.any(String) })
    expect(refused.data).toBeUndefined()

    const renewed = await api.GET('/apif/v2/auth/company')
    expect(renewed.data?.id).toBe(companyId)

    const missing = await api.GET('/apif/v2/company/{company_id}/bot/{bot_id}', {
      params: { path: { company_id: companyId, bot_id: '00000000-0000-4000-8000-000000000000' } },
    })
    expect(missing.response.status).toBe(404)
    expect(missing.error?.code).toBe('not_found')
    expect(asked).toBe(3)
  })
})
