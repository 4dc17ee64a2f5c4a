import { randomUUID } from 'node:crypto'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ISO_MICROS, UUID } from '../support/assertions.js'
import { adminJson, type ProcessEnv, runCli, ServeProcess, storeEnv } from '../support/processes.js'
import { pgUrl, storeModes } from '../support/store-modes.js'

interface Credentials {
  company_id: string
  app_name: string
  client_id: string
  client_secret: string
}

async function api(server: ServeProcess, method: string, path: string, options: { token?: string; json?: unknown }) {
  const headers: Record<string, string> = {}
  if (options.token) headers.authorization = `Bearer ${options.token}`
  if (options.json !== undefined) headers['content-type'] = 'application/json'
  const response = await fetch(`${server.origin}/apif/v2${path}`, {
    method,
    headers,
    body: options.json === undefined ? undefined : JSON.stringify(options.json),
  })
  const text = await response.text()
  return { status: response.status, body: text ? JSON.parse(text) : undefined }
}

function tokenOf(server: ServeProcess, c: Credentials) {
  return api(server, 'POST', '/auth/token', {
    json: { app_name: c.app_name, client_id: c.client_id, client_secret: c.client_secret },
  })
}

describe.each(storeModes())('%s: `lantern admin` as a real process', (mode) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'lantern-cli-'))
  const env: ProcessEnv = storeEnv(dataDir, mode === 'postgres' ? pgUrl() : undefined)
  let server: ServeProcess
  let created: Credentials
  let token: string

  beforeAll(async () => {
    server = await ServeProcess.start(env)
  })
  afterAll(async () => {
    await server?.stop()
    rmSync(dataDir, { recursive: true, force: true })
  })

  it('company create --json prints exactly the credentials, and the licence flags are applied', async () => {
    const name = `Acme ${randomUUID()}`
    created = await adminJson<Credentials>(
      [
        'company',
        'create',
        '--name',
        name,
        '--license-type',
        'DEMO',
        '--kb-max',
        '512MB',
        '--questions-max',
        '50',
        '--expires',
        '2030-06-30',
      ],
      env,
    )
    expect(Object.keys(created)).toEqual(['company_id', 'app_name', 'client_id', 'client_secret'])
    expect(created.company_id).toMatch(UUID)
    expect(created.client_id).toMatch(UUID)
    expect(created.app_name).toBe('lantern')
    expect(created.client_secret).toMatch(/^lsk_/)

    const issued = await tokenOf(server, created)
    expect(issued.status).toBe(200)
    token = issued.body.access_token
    const company = await api(server, 'GET', '/auth/company', { token })
    expect(company.status).toBe(200)
    expect(company.body).toMatchObject({ id: created.company_id, name })
    expect(company.body.license).toEqual({
      expiration: '2030-06-30T23:59:59.999999',
      license_type: 'DEMO',
      knowledge_base_size_max: '512MB',
      questions_max: '50',
    })
  })

  it('company list --json shows the company with its licence', async () => {
    const list = await adminJson<Array<Record<string, unknown>>>(['company', 'list'], env)
    const mine = list.find((c) => c.company_id === created.company_id)
    expect(mine).toEqual({
      company_id: created.company_id,
      name: expect.stringMatching(/^Acme /),
      license_type: 'DEMO',
      expiration: '2030-06-30T23:59:59.999999',
      knowledge_base_size_max: '512MB',
      questions_max: 50,
      questions_used: 0,
      default_bot_id: expect.stringMatching(UUID),
    })
  })

  it('company update changes the licence, visible at once through GET /auth/company', async () => {
    const updated = await adminJson(
      ['company', 'update', '--id', created.company_id, '--kb-max', '1GB', '--license-type', 'BASIC'],
      env,
    )
    expect(updated).toMatchObject({ company_id: created.company_id, knowledge_base_size_max: '1GB' })
    const company = await api(server, 'GET', '/auth/company', { token })
    expect(company.body.license).toEqual({
      expiration: '2030-06-30T23:59:59.999999',
      license_type: 'BASIC',
      knowledge_base_size_max: '1GB',
      questions_max: '50',
    })
    expect(company.body.update_at).toMatch(ISO_MICROS)
    expect(company.body.update_at > company.body.create_at).toBe(true)
  })

  it('client rotate: the old token and the old secret are refused, the new secret works', async () => {
    const rotated = await adminJson<Credentials>(['client', 'rotate', '--client-id', created.client_id], env)
    expect(rotated).toEqual({ ...created, client_secret: expect.stringMatching(/^lsk_/) })
    expect(rotated.client_secret).not.toBe(created.client_secret)

    const oldToken = await api(server, 'GET', '/auth/company', { token })
    expect([oldToken.status, oldToken.body.code]).toEqual([401, 'invalid_token'])
    const oldSecret = await tokenOf(server, created)
    expect([oldSecret.status, oldSecret.body.code]).toEqual([401, 'invalid_client'])
    const fresh = await tokenOf(server, rotated)
    expect(fresh.status).toBe(200)
    expect((await api(server, 'GET', '/auth/company', { token: fresh.body.access_token })).status).toBe(200)
    created = rotated
  })

  it('client create, list and disable: a disabled client gets no token, the others keep working', async () => {
    const second = await adminJson<Credentials>(
      ['client', 'create', '--company', created.company_id, '--app-name', 'reporting'],
      env,
    )
    expect(Object.keys(second)).toEqual(['company_id', 'app_name', 'client_id', 'client_secret'])
    expect(second).toMatchObject({ company_id: created.company_id, app_name: 'reporting' })
    const secondToken = await tokenOf(server, second)
    expect(secondToken.status).toBe(200)

    const result = await runCli(['admin', 'client', 'disable', '--client-id', second.client_id], env)
    expect(result.code).toBe(0)
    expect(result.stdout.trim()).toBe(`disabled ${second.client_id}`)

    const revoked = await api(server, 'GET', '/auth/company', { token: secondToken.body.access_token })
    expect([revoked.status, revoked.body.code]).toEqual([401, 'invalid_token'])
    const refused = await tokenOf(server, second)
    expect([refused.status, refused.body.code]).toEqual([401, 'invalid_client'])
    expect((await tokenOf(server, created)).status).toBe(200)

    const clients = await adminJson<Array<Record<string, unknown>>>(
      ['client', 'list', '--company', created.company_id],
      env,
    )
    expect(clients.map((c) => [c.client_id, c.app_name, c.disabled]).sort()).toEqual(
      [
        [created.client_id, 'lantern', false],
        [second.client_id, 'reporting', true],
      ].sort(),
    )
    expect(clients.every((c) => ISO_MICROS.test(String(c.created_at)))).toBe(true)
    expect(JSON.stringify(clients)).not.toContain('lsk_')
  })

  it('documents reprocess prints how many documents it queued; an unknown company is exit 3', async () => {
    const owner = await adminJson<Credentials>(['company', 'create', '--name', `Globex ${randomUUID()}`, '--json'], env)
    expect(await adminJson(['documents', 'reprocess', '--company', owner.company_id, '--json'], env)).toEqual({
      company_id: owner.company_id,
      queued: 0,
    })
    const unknown = await runCli(['admin', 'documents', 'reprocess', '--company', randomUUID()], env)
    expect([unknown.code, unknown.stdout]).toEqual([3, ''])
    const missing = await runCli(['admin', 'documents', 'reprocess'], env)
    expect(missing.code).toBe(2)
  })

  it('admin migrate is idempotent: nothing left to apply', async () => {
    expect(await adminJson(['migrate'], env)).toEqual({ applied: [] })
  })

  it('answers an unknown company or client id with exit 3 and a message on stderr', async () => {
    const unknown = randomUUID()
    const [company, client] = await Promise.all([
      runCli(['admin', 'company', 'update', '--id', unknown, '--kb-max', '1GB'], env),
      runCli(['admin', 'client', 'rotate', '--client-id', unknown, '--json'], env),
    ])
    expect([company.code, company.stdout]).toEqual([3, ''])
    expect(company.stderr).toBe(`lantern: company ${unknown} was not found\n`)
    expect([client.code, client.stdout]).toEqual([3, ''])
    expect(client.stderr).toBe(`lantern: client ${unknown} was not found\n`)
  })
})

describe('`lantern` command line and configuration errors', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'lantern-cli-config-'))
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }))

  it('prints help with exit 0 and rejects an unknown command with exit 2', async () => {
    const [help, unknown] = await Promise.all([runCli(['--help']), runCli(['frobnicate'])])
    expect(help.code).toBe(0)
    expect(help.stdout).toMatch(/usage: lantern <command>/)
    expect(help.stdout).toMatch(/company create --name N/)
    expect(unknown.code).toBe(2)
    expect(unknown.stderr).toMatch(/unknown command "frobnicate"/)
  })

  it('applies migrations to a new embedded store once', async () => {
    const env = storeEnv(dataDir)
    const { applied } = await adminJson<{ applied: string[] }>(['migrate'], env)
    expect(applied[0]).toBe('0001-core')
    expect(applied).toEqual([...applied].sort())
    const again = await runCli(['admin', 'migrate'], env)
    expect([again.code, again.stdout]).toEqual([0, 'up to date\n'])
  })

  it('answers usage errors with exit 2 and a message on stderr, before touching the store', async () => {
    const cases: Array<[string[], RegExp]> = [
      [['company', 'create', '--name', 'X', '--kb-max', 'lots'], /--kb-max must be a size like 10GB/],
      [['company', 'create', '--name', 'X', '--expires', '31/12/2030'], /--expires must be a date YYYY-MM-DD/],
      [['company', 'create', '--name', 'X', '--questions-max', 'many'], /--questions-max must be a whole number/],
      [['company', 'create'], /--name is required/],
      [['company', 'create', '--name', 'X', '--colour', 'red'], /--colour/],
      [['company', 'frobnicate'], /lantern admin <command>/],
    ]
    const env = storeEnv(join(dataDir, 'usage'))
    const results = await Promise.all(cases.map(([args]) => runCli(['admin', ...args], env)))
    results.forEach((result, i) => {
      const [args, message] = cases[i] ?? [[], /^$/]
      expect({ args, code: result.code, stdout: result.stdout }).toEqual({ args, code: 2, stdout: '' })
      expect(result.stderr).toMatch(/^lantern: /)
      expect(result.stderr).toMatch(message)
      expect(result.stderr).not.toMatch(/\n\s+at /)
    })
    expect(existsSync(join(dataDir, 'usage'))).toBe(false)
  })

  it('stops with exit 5 and a message naming the variable for a bad setting, for admin and serve', async () => {
    const cases: Array<[string[], Record<string, string>, RegExp]> = [
      [['serve'], { PORT: 'abc' }, /^lantern: PORT must be a whole number, got "abc"\n$/],
      [['admin', 'company', 'list'], { PORT: 'abc' }, /^lantern: PORT must be a whole number, got "abc"\n$/],
      [['serve'], { LANTERN_LOG_LEVEL: 'loud' }, /^lantern: LANTERN_LOG_LEVEL must be one of .*, got "loud"\n$/],
      [['admin', 'company', 'list'], { LANTERN_FOO: '1' }, /^lantern: unknown setting LANTERN_FOO; known: /],
      [['serve'], { LANTERN_DATABASE_URL: 'mysql://x' }, /^lantern: LANTERN_DATABASE_URL must use postgres:\/\//],
    ]
    const env = storeEnv(join(dataDir, 'config'))
    const results = await Promise.all(cases.map(([args, setting]) => runCli(args, { ...env, ...setting })))
    results.forEach((result, i) => {
      const [args, setting, message] = cases[i] ?? [[], {}, /^$/]
      expect({ args, setting, code: result.code, stdout: result.stdout }).toEqual({
        args,
        setting,
        code: 5,
        stdout: '',
      })
      expect(result.stderr).toMatch(message)
    })
    expect(existsSync(join(dataDir, 'config'))).toBe(false)
  })

  it('exits 7 when the configured PostgreSQL is unreachable', async () => {
    const result = await runCli(['admin', 'company', 'list'], {
      ...storeEnv(dataDir),
      LANTERN_DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none',
    })
    expect(result.code).toBe(7)
    expect(result.stderr).toMatch(/^lantern: /)
  })
})
