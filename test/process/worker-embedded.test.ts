import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { eventually } from '../jobs/fixtures.js'
import { ServeProcess, storeEnv } from '../support/processes.js'

describe('`lantern serve` with embedded workers (embedded store)', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'lantern-embedded-workers-'))
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }))

  it('processes an upload in-process and stops cleanly', async () => {
    const server = await ServeProcess.start({ ...storeEnv(dataDir), LANTERN_WORKERS: '1' })
    try {
      await server.waitForOutput(/First start/)
      const credentials = JSON.parse(readFileSync(join(dataDir, 'credentials.json'), 'utf8'))
      const api = `${server.origin}/apif/v2`
      const issued = await fetch(`${api}/auth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          app_name: credentials.app_name,
          client_id: credentials.client_id,
          client_secret: credentials.client_secret,
        }),
      })
      const { access_token: token } = (await issued.json()) as { access_token: string }
      const form = new FormData()
      form.append('files', new Blob(['Visitors sign in at the front desk and wear a badge.\n']), 'visitors.txt')
      const uploaded = await fetch(`${api}/company/${credentials.company_id}/knowledge-base`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}` },
        body: form,
      })
      expect(uploaded.status).toBe(201)
      const { id } = (await uploaded.json()) as { id: string }

      const processing = await eventually(async () => {
        const response = await fetch(`${api}/company/${credentials.company_id}/knowledge-base/${id}`, {
          headers: { authorization: `Bearer ${token}` },
        })
        const body = (await response.json()) as { processing: { embedding_state: string; chunk_count: number } }
        return body.processing.embedding_state === 'PROCESSED' ? body.processing : undefined
      }, 'the upload to be processed')
      expect(processing.chunk_count).toBe(1)
      const listening = server.logLines().find((line) => line.msg === 'lantern is listening')
      const claimed = server.logLines().find((line) => line.msg === 'claimed job')
      expect(claimed).toMatchObject({ owner: listening?.workerId, subjectId: id, attempt: 1 })

      expect(await server.stop()).toBe(0)
      expect(server.logLines().map((line) => line.msg)).toContain('stopped')
      expect(server.stderr).toBe('')
    } finally {
      await server.stop()
    }
  })
})
