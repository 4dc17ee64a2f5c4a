import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { expectProblem, UUID } from '../support/assertions.js'
import { createTenant, type Tenant } from '../support/factories.js'
import { storeModes } from '../support/store-modes.js'
import { startTestApp, type TestApp } from '../support/test-app.js'

describe.each(storeModes())('%s: operations endpoints', (mode) => {
  let t: TestApp
  let tenant: Tenant
  beforeAll(async () => {
    t = await startTestApp(mode)
    tenant = await createTenant(t)
  })
  afterAll(() => t.close())

  it('GET /health answers 200 {status: ok} without a token', async () => {
    const res = await t.request('GET', '!/health')
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toMatch(/^application\/json/)
    expect(res.body).toEqual({ status: 'ok' })
  })

  it('GET /ready answers 200 with the store in use, without a token', async () => {
    const res = await t.request('GET', '!/ready')
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ status: 'ready', store: mode })
  })

  it('GET /metrics is Prometheus text counting requests by method, route and status', async () => {
    await t.request('GET', '/auth/company', { token: tenant.token })
    await t.request('GET', '/auth/company')
    const res = await t.request('GET', '!/metrics')
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/)
    expect(res.text).toMatch(/^# HELP lantern_http_requests_total /m)
    expect(res.text).toMatch(/^# TYPE lantern_http_requests_total counter$/m)
    expect(res.text).toMatch(
      /^lantern_http_requests_total\{method="GET",route="\/apif\/v2\/auth\/company",status="200"\} [1-9]\d*$/m,
    )
    expect(res.text).toMatch(
      /^lantern_http_requests_total\{method="GET",route="\/apif\/v2\/auth\/company",status="401"\} [1-9]\d*$/m,
    )
    expect(res.text).toMatch(/^lantern_http_request_duration_seconds_bucket\{/m)
    expect(res.text).toMatch(/^lantern_process_cpu_user_seconds_total /m)
  })

  it('labels unknown paths as one route, so metrics cannot grow without bound', async () => {
    await t.request('GET', '!/no/such/path/abc123')
    const res = await t.request('GET', '!/metrics')
    expect(res.text).not.toContain('abc123')
  })

  it('gives every response an x-request-id and nosniff, and echoes a well-formed one given by the caller', async () => {
    const generated = await Promise.all([
      t.request('GET', '!/health'),
      t.request('GET', '/auth/company'),
      t.request('GET', '!/no/such/path'),
      t.request('POST', '/auth/token', { json: {} }),
    ])
    for (const res of generated) expect(res.headers.get('x-request-id')).toMatch(UUID)
    // Nor may a browser read any response as another type than the one sent.
    for (const res of generated) expect(res.headers.get('x-content-type-options')).toBe('nosniff')
    expect(new Set(generated.map((r) => r.headers.get('x-request-id'))).size).toBe(generated.length)

    const echoed = await t.request('GET', '/auth/company', {
      token: tenant.token,
      headers: { 'x-request-id': 'trace-42.abc_DEF' },
    })
    expect(echoed.headers.get('x-request-id')).toBe('trace-42.abc_DEF')
  })

  it.each([
    ['spaces', 'has spaces'],
    ['header injection characters', 'a;b=c'],
    ['an over-long id', 'x'.repeat(101)],
  ])('replaces a caller request id with %s by a fresh one', async (_name, given) => {
    const res = await t.request('GET', '!/health', { headers: { 'x-request-id': given } })
    expect(res.headers.get('x-request-id')).toMatch(UUID)
  })

  it('answers an unknown path with 404 not_found as problem+json', async () => {
    expectProblem(await t.request('GET', '/no/such/thing', { token: tenant.token }), 404, 'not_found')
  })
})

describe('operations while shutting down', () => {
  let t: TestApp
  beforeAll(async () => {
    t = await startTestApp('sqlite')
  })
  afterAll(() => t.close())

  it('answers /ready with 503 and its store, and closes the connection', async () => {
    expect((await t.request('GET', '!/ready')).status).toBe(200)
    t.app.lanternState.closing = true
    try {
      const res = await t.request('GET', '!/ready')
      expect(res.status).toBe(503)
      expect(res.body).toEqual({ status: 'shutting_down', store: 'sqlite' })
      expect(res.headers.get('connection')).toBe('close')
    } finally {
      t.app.lanternState.closing = false
    }
  })

  it('answers every other request with 503 shutting_down and closes the connection', async () => {
    t.app.lanternState.closing = true
    try {
      for (const path of ['!/health', '!/metrics', '/auth/company', '/auth/token']) {
        const res = await t.request('GET', path)
        expectProblem(res, 503, 'shutting_down')
        expect(res.headers.get('connection')).toBe('close')
        expect(res.headers.get('x-request-id')).toMatch(UUID)
      }
    } finally {
      t.app.lanternState.closing = false
    }
  })
})

describe('readiness when the store is gone', () => {
  it('answers /ready with 503 store_unavailable while /health stays 200', async () => {
    const t = await startTestApp('sqlite')
    try {
      await t.ctx.store.close()
      const res = await t.request('GET', '!/ready')
      expect(res.status).toBe(503)
      expect(res.body).toEqual({ status: 'store_unavailable', store: 'sqlite' })
      expect((await t.request('GET', '!/health')).status).toBe(200)
    } finally {
      await t.close()
    }
  })
})
