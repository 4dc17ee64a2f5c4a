import { randomUUID } from 'node:crypto'
import type { ClientCredentials, NewCompany } from '../../src/domain/companies/companies.js'
import type { TestApp } from './test-app.js'

export interface Tenant {
  readonly companyId: string
  readonly defaultBotId: string
  readonly credentials: ClientCredentials
  /** A live bearer token obtained through POST /auth/token. */
  readonly token: string
}

/** A fresh company of its own for one test, with a token from the real token endpoint. */
export async function createTenant(t: TestApp, input: Partial<NewCompany> = {}): Promise<Tenant> {
  const { company, credentials } = await t.ctx.services.companies.create({ name: `Company ${randomUUID()}`, ...input })
  const token = await tokenFor(t, credentials)
  return { companyId: company.id, defaultBotId: company.defaultBotId, credentials, token }
}

export async function tokenFor(t: TestApp, c: ClientCredentials): Promise<string> {
  const response = await t.request('POST', '/auth/token', {
    json: { app_name: c.appName, client_id: c.clientId, client_secret: c.clientSecret },
  })
  if (response.status !== 200) throw new Error(`token request failed: ${response.status} ${response.text}`)
  return response.body.access_token as string
}

/** A second client of the same company, with its own token. */
export async function secondClient(
  t: TestApp,
  tenant: Tenant,
): Promise<{ credentials: ClientCredentials; token: string }> {
  const credentials = await t.ctx.services.companies.createClient(tenant.companyId, 'second-app')
  return { credentials, token: await tokenFor(t, credentials) }
}

/** Creates a bot of the tenant (a label, a description and a prompt, then `fields`) and returns its id. */
export async function createBot(t: TestApp, tenant: Tenant, fields: Record<string, unknown> = {}): Promise<string> {
  const bot = await t.request('POST', `/company/${tenant.companyId}/bot`, {
    token: tenant.token,
    json: { label: 'Bot', description: 'd', prompt: { name: 'p', prompt: 'Be brief.' }, ...fields },
  })
  if (bot.status !== 201) throw new Error(`bot creation failed: ${bot.status} ${bot.text}`)
  return bot.body.id as string
}

/** A chat with a new `data_scientist_mode` bot of the tenant, scoped by `filters` (whole knowledge base without). */
export async function analystChat(
  t: TestApp,
  tenant: Tenant,
  filters?: { paths: string[]; tags: string[] },
): Promise<string> {
  const botId = await createBot(t, tenant, {
    label: 'Analyst',
    description: 'numbers',
    prompt: { name: 'analyst', prompt: 'You answer with numbers.' },
    data_scientist_mode: true,
    ...(filters ? { filters } : {}),
  })
  const chat = await t.request('POST', '/chat', { token: tenant.token, json: { title: 'Sales', bot_id: botId } })
  if (chat.status !== 201) throw new Error(`chat creation failed: ${chat.status} ${chat.text}`)
  return chat.body.id as string
}
