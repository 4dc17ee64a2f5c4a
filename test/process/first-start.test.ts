import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { UUID } from '../support/assertions.js'
import { adminJson, ServeProcess, storeEnv } from '../support/processes.js'

const BANNER = /First start: company "Default" created\. API credentials \(also in (.+)\):\n(\{[\s\S]*?\n\})\n/

async function tokenRequest(origin: string, c: { app_name: string; client_id: string; client_secret: string }) {
  const response = await fetch(`${origin}/apif/v2/auth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-request-id': 'first-start-token-1' },
    body: JSON.stringify({ app_name: c.app_name, client_id: c.client_id, client_secret: c.client_secret }),
  })
  return {
    status: response.status,
    requestId: response.headers.get('x-request-id'),
    body: (await response.json()) as any,
  }
}

describe('first start of `lantern serve` on an empty data dir (embedded store)', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'lantern-first-start-'))
  const env = storeEnv(dataDir)
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }))

  it('creates company "Default", prints its credentials once and saves them with mode 0600', async () => {
    const server = await ServeProcess.start(env)
    try {
      const [, file, printed] = await server.waitForOutput(BANNER)
      expect(file).toBe(join(dataDir, 'credentials.json'))
      const shown = JSON.parse(printed ?? '')
      expect(Object.keys(shown).sort()).toEqual(['app_name', 'base_url', 'client_id', 'client_secret', 'company_id'])
      expect(shown.company_id).toMatch(UUID)
      expect(shown.client_id).toMatch(UUID)
      expect(shown.client_secret).toMatch(/^lsk_[\w-]{40,}$/)
      expect(shown.app_name).toBe('lantern')
      expect(shown.base_url).toBe(`${server.origin}/apif/v2`)

      const saved = statSync(file ?? '')
      expect(saved.mode & 0o777).toBe(0o600)
      expect(JSON.parse(readFileSync(file ?? '', 'utf8'))).toEqual(shown)

      // The credentials work against the running server, and its log carries the request id.
      const token = await tokenRequest(server.origin, shown)
      expect(token.status).toBe(200)
      expect(token.requestId).toBe('first-start-token-1')
      const company = await fetch(`${server.origin}/apif/v2/auth/company`, {
        headers: { authorization: `Bearer ${token.body.access_token}` },
      })
      expect(company.status).toBe(200)
      expect(await company.json()).toMatchObject({ id: shown.company_id, name: 'Default' })
      const logged = await server.waitForLog(
        (line) => line.reqId === 'first-start-token-1' && line.msg === 'request completed',
      )
      expect(logged).toMatchObject({ level: 30, res: { statusCode: 200 } })
      // The secret is never logged.
      expect(server.logLines().some((line) => JSON.stringify(line).includes(shown.client_secret))).toBe(false)
      expect(await server.stop()).toBe(0)
    } finally {
      await server.stop()
    }
  })

  it('does not create another company on the next start of the same data dir', async () => {
    const before = readFileSync(join(dataDir, 'credentials.json'), 'utf8')
    const server = await ServeProcess.start(env)
    try {
      const ready = await fetch(`${server.origin}/ready`)
      expect(await ready.json()).toEqual({ status: 'ready', store: 'sqlite' })
      expect(server.stdout).not.toMatch(/First start/)
      const companies = await adminJson<Array<{ name: string }>>(['company', 'list'], env)
      expect(companies.map((c) => c.name)).toEqual(['Default'])
      expect(readFileSync(join(dataDir, 'credentials.json'), 'utf8')).toBe(before)
      expect(await server.stop()).toBe(0)
    } finally {
      await server.stop()
    }
  })
})
