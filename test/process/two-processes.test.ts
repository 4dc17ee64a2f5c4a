import { randomUUID } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { adminJson, type ProcessEnv, ServeProcess, storeEnv } from '../support/processes.js'
import { pgUrl } from '../support/store-modes.js'

const url = pgUrl()
if (!url) console.log('[lantern] two API processes on one PostgreSQL: SKIPPED (TEST_DATABASE_URL unset or unreachable)')

interface Credentials {
  company_id: string
  app_name: string
  client_id: string
  client_secret: string
}

async function call(server: ServeProcess, method: string, path: string, token?: string, json?: unknown) {
  const headers: Record<string, string> = {}
  if (token) headers.authorization = `Bearer ${token}`
  if (json !== undefined) headers['content-type'] = 'application/json'
  const response = await fetch(`${server.origin}/apif/v2${path}`, {
    method,
    headers,
    body: json === undefined ? undefined : JSON.stringify(json),
  })
  const text = await response.text()
  return { status: response.status, body: text ? JSON.parse(text) : undefined }
}

describe.skipIf(!url)('two `lantern serve` processes on one PostgreSQL database', () => {
  // Each process gets a data dir of its own: they share nothing but the database.
  const dirs = [mkdtempSync(join(tmpdir(), 'lantern-a-')), mkdtempSync(join(tmpdir(), 'lantern-b-'))]
  const envA: ProcessEnv = storeEnv(dirs[0] ?? '', url)
  const envB: ProcessEnv = storeEnv(dirs[1] ?? '', url)
  let a: ServeProcess
  let b: ServeProcess
  let credentials: Credentials
  let token: string

  beforeAll(async () => {
    ;[a, b, credentials] = await Promise.all([
      ServeProcess.start(envA),
      ServeProcess.start(envB),
      adminJson<Credentials>(['company', 'create', '--name', `Two processes ${randomUUID()}`], envA),
    ])
    const issued = await call(a, 'POST', '/auth/token', undefined, {
      app_name: credentials.app_name,
      client_id: credentials.client_id,
      client_secret: credentials.client_secret,
    })
    expect(issued.status).toBe(200)
    token = issued.body.access_token
  })
  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()])
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
  })

  it('both are ready on PostgreSQL and neither created a first company of its own', async () => {
    for (const server of [a, b]) {
      const ready = await fetch(`${server.origin}/ready`)
      expect(await ready.json()).toEqual({ status: 'ready', store: 'postgres' })
      expect(server.stdout).not.toMatch(/First start/)
    }
  })

  it('a token issued by A is accepted by B', async () => {
    const company = await call(b, 'GET', '/auth/company', token)
    expect(company.status).toBe(200)
    expect(company.body.id).toBe(credentials.company_id)
  })

  it('a bot created through A is read and listed through B, and a change through B is seen by A', async () => {
    const created = await call(a, 'POST', `/company/${credentials.company_id}/bot`, token, {
      label: 'Written by A',
      description: 'shared through PostgreSQL',
      prompt: { name: 'p', prompt: 'Answer from the documents.' },
    })
    expect(created.status).toBe(201)
    const botId = created.body.id
    const read = await call(b, 'GET', `/company/${credentials.company_id}/bot/${botId}`, token)
    expect(read.status).toBe(200)
    expect(read.body).toMatchObject({ id: botId, label: 'Written by A', description: 'shared through PostgreSQL' })
    const listed = await call(b, 'GET', `/company/${credentials.company_id}/bot?limit=100`, token)
    expect(listed.body.map((bot: { id: string }) => bot.id)).toContain(botId)

    const patched = await call(b, 'PATCH', `/company/${credentials.company_id}/bot/${botId}`, token, {
      label: 'Changed by B',
      description: 'shared through PostgreSQL',
      prompt: { name: 'p', prompt: 'Answer from the documents.' },
    })
    expect(patched.status).toBe(200)
    const reread = await call(a, 'GET', `/company/${credentials.company_id}/bot/${botId}`, token)
    expect(reread.body.label).toBe('Changed by B')
  })

  it('a chat created through A is listed through B', async () => {
    const created = await call(a, 'POST', '/chat', token, { title: 'Chat written by A' })
    expect(created.status).toBe(201)
    const listed = await call(b, 'GET', '/chat?limit=100', token)
    expect(listed.status).toBe(200)
    expect(listed.body.find((chat: { id: string }) => chat.id === created.body.id)).toMatchObject({
      title: 'Chat written by A',
      company_id: credentials.company_id,
    })
  })

  it('a tag and an upload made through A are listed through B, which serves the same bytes', async () => {
    const kb = `/company/${credentials.company_id}/knowledge-base`
    const tag = await call(a, 'POST', `${kb}/tags`, token, { name: `shared ${randomUUID()}` })
    expect(tag.status).toBe(201)
    const tags = await call(b, 'GET', `${kb}/tags?limit=100`, token)
    expect(tags.body.map((t: { id: string }) => t.id)).toContain(tag.body.id)

    const bytes = `Leave policy written through process A, ${randomUUID()}.\n`
    const form = new FormData()
    form.append('files', new Blob([bytes], { type: 'text/plain' }), 'leave.txt')
    form.append('path', '/shared/')
    form.append('tags', tag.body.id)
    const uploaded = await fetch(`${a.origin}/apif/v2${kb}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: form,
    })
    expect(uploaded.status).toBe(201)
    const { id } = (await uploaded.json()) as { id: string }

    const listed = await call(b, 'GET', `${kb}?path=/shared/`, token)
    expect(listed.body).toEqual([
      expect.objectContaining({
        id,
        object_name: '/shared/leave.txt',
        size: Buffer.byteLength(bytes),
        tags: [tag.body.id],
      }),
    ])
    const file = await fetch(`${b.origin}/apif/v2${kb}/${id}/file`, { headers: { authorization: `Bearer ${token}` } })
    expect(file.status).toBe(200)
    expect(await file.text()).toBe(bytes)
  })

  it('a secret rotated by the CLI kills the token on both processes at once', async () => {
    await adminJson(['client', 'rotate', '--client-id', credentials.client_id], envB)
    for (const server of [a, b]) {
      const refused = await call(server, 'GET', '/auth/company', token)
      expect([refused.status, refused.body.code]).toEqual([401, 'invalid_token'])
    }
  })
})
