import { randomUUID } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { request as httpRequest } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { afterAll, describe, expect, it } from 'vitest'
import { addSeconds, systemClock } from '../../src/lib/clock.js'
import { openDatabase } from '../../src/storage/database.js'
import { ServeProcess, storeEnv } from '../support/processes.js'

interface SlowResponse {
  status: number
  body: string
}

/**
 * A request whose body is written in pieces with pauses, so it is in flight for as long as the
 * test wants: the headers and the first bytes go at once, `finish()` sends the rest slowly.
 */
function slowRequest(port: number, path: string, headers: Record<string, string | number>, body: Buffer) {
  const request = httpRequest({
    host: '127.0.0.1',
    port,
    method: 'POST',
    path,
    agent: false,
    headers: { ...headers, 'content-length': body.length },
  })
  const response = new Promise<SlowResponse>((resolvePromise, reject) => {
    request.on('error', reject)
    request.on('response', (res) => {
      let text = ''
      res.setEncoding('utf8')
      res.on('data', (chunk: string) => {
        text += chunk
      })
      res.on('end', () => resolvePromise({ status: res.statusCode ?? 0, body: text }))
      res.on('error', reject)
    })
  })
  // Observed through finish(); this keeps an early test failure from also reporting a hang-up.
  response.catch(() => {})
  const first = Math.min(64, body.length - 1)
  request.flushHeaders()
  request.write(body.subarray(0, first))
  return {
    async finish(pieces: number): Promise<SlowResponse> {
      const size = Math.ceil((body.length - first) / pieces)
      for (let offset = first; offset < body.length; offset += size) {
        request.write(body.subarray(offset, offset + size))
        await sleep(25)
      }
      request.end()
      return response
    },
  }
}

/** A multipart upload body with one text file of about `bytes` bytes. */
function multipartUpload(name: string, bytes: number) {
  const boundary = `----lantern-${randomUUID()}`
  const line = 'Employees accrue paid leave monthly; unused days carry over to the next year.\n'
  const content = line.repeat(Math.ceil(bytes / line.length))
  const body = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="path"\r\n\r\n/handbook/\r\n`),
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="${name}"\r\n`),
    Buffer.from('Content-Type: text/plain\r\n\r\n'),
    Buffer.from(content),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ])
  return { body, size: Buffer.byteLength(content), contentType: `multipart/form-data; boundary=${boundary}` }
}

/** Status of a brand-new request, or the connection error code when the port no longer accepts. */
async function freshRequestOutcome(origin: string): Promise<number | string> {
  try {
    const response = await fetch(`${origin}/health`, { headers: { connection: 'close' } })
    await response.arrayBuffer()
    return response.status
  } catch (error) {
    return String((error as { cause?: { code?: string } }).cause?.code ?? error)
  }
}

describe('graceful shutdown of `lantern serve` (embedded store)', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'lantern-shutdown-'))
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }))

  it('finishes in-flight requests (a token request, a 3 MB upload), takes no new ones, releases its job leases, exits 0', async () => {
    const server = await ServeProcess.start(storeEnv(dataDir))
    const db = openDatabase({ dataDir, databaseUrl: undefined, pgPoolSize: 1 })
    try {
      await server.waitForOutput(/First start/)
      const credentials = JSON.parse(readFileSync(join(dataDir, 'credentials.json'), 'utf8'))
      const listening = server.logLines().find((line) => line.msg === 'lantern is listening')
      const workerId = listening?.workerId
      expect(workerId).toEqual(expect.stringMatching(/^api-/))

      // A job this process holds a lease on, as an in-process worker would while ingesting.
      const jobId = randomUUID()
      const now = systemClock.now()
      await db.db
        .insertInto('jobs')
        .values({
          id: jobId,
          company_id: credentials.company_id,
          kind: 'ingest',
          subject_id: randomUUID(),
          payload: '{}',
          state: 'running',
          attempts: 1,
          max_attempts: 5,
          run_after: now,
          lease_owner: String(workerId),
          lease_expires_at: addSeconds(now, 3600),
          last_error: null,
          created_at: now,
          updated_at: now,
        })
        .execute()

      const tokenBody = {
        app_name: credentials.app_name,
        client_id: credentials.client_id,
        client_secret: credentials.client_secret,
      }
      const issued = await fetch(`${server.origin}/apif/v2/auth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(tokenBody),
      })
      const { access_token: token } = (await issued.json()) as { access_token: string }

      // Two requests in flight when the signal comes: a token request and a 3 MB upload.
      const slowToken = slowRequest(
        server.port,
        '/apif/v2/auth/token',
        { 'content-type': 'application/json', 'x-request-id': 'slow-token-1' },
        Buffer.from(JSON.stringify(tokenBody)),
      )
      const upload = multipartUpload('leave-policy.txt', 3 * 1024 * 1024)
      const slowUpload = slowRequest(
        server.port,
        `/apif/v2/company/${credentials.company_id}/knowledge-base`,
        { 'content-type': upload.contentType, authorization: `Bearer ${token}`, 'x-request-id': 'slow-upload-1' },
        upload.body,
      )
      for (const id of ['slow-token-1', 'slow-upload-1']) {
        await server.waitForLog((line) => line.reqId === id && line.msg === 'incoming request')
      }

      server.signal('SIGTERM')
      await server.waitForLog((line) => String(line.msg).startsWith('shutting down'))
      // A new connection is refused once the listener is closed; one that slipped in just before is
      // closed unanswered (it is idle) or its request is turned away with 503. Never served.
      expect([503, 'ECONNREFUSED', 'ECONNRESET', 'UND_ERR_SOCKET']).toContain(await freshRequestOutcome(server.origin))
      expect(server.exitCode).toBeUndefined()

      const [tokenResponse, uploadResponse] = await Promise.all([slowToken.finish(4), slowUpload.finish(24)])
      expect(tokenResponse.status).toBe(200)
      expect(JSON.parse(tokenResponse.body)).toMatchObject({ token_type: 'Bearer', access_token: expect.any(String) })
      expect(uploadResponse.status).toBe(201)
      const documentId = JSON.parse(uploadResponse.body).id as string

      expect(await server.waitForExit()).toBe(0)
      const messages = server.logLines().map((line) => line.msg)
      expect(messages).toContain('stopped')
      expect(messages).toContain('released job leases')
      expect(server.stderr).toBe('')

      const job = await db.db
        .selectFrom('jobs')
        .select(['state', 'lease_owner', 'lease_expires_at'])
        .where('id', '=', jobId)
        .executeTakeFirstOrThrow()
      expect(job).toEqual({ state: 'queued', lease_owner: null, lease_expires_at: null })

      // The upload answered 201 during shutdown is stored, whole.
      const document = await db.db
        .selectFrom('kb_objects')
        .select(['object_name', 'size'])
        .where('company_id', '=', credentials.company_id)
        .where('id', '=', documentId)
        .executeTakeFirst()
      expect(document).toEqual({ object_name: '/handbook/leave-policy.txt', size: upload.size })
    } finally {
      await server.stop()
      await db.close()
    }
  })
})
