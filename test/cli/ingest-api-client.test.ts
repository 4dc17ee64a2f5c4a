import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { ApiError, LanternApi, UnreachableError } from '../../src/cli/ingest/api-client.js'
import { ShiftedClock } from '../support/clock.js'
import { createTenant } from '../support/factories.js'
import { freePort } from '../support/processes.js'
import { storeModes } from '../support/store-modes.js'
import { startTestApp, type TestApp } from '../support/test-app.js'

/** `lantern ingest`'s client of the API (src/cli/ingest/api-client.ts, over the typed client), in-process. */
describe.each(storeModes())('%s: the ingest API client', (mode) => {
  const clock = new ShiftedClock()
  let t: TestApp
  let dir: string
  beforeAll(async () => {
    t = await startTestApp(mode, { clock })
    dir = mkdtempSync(join(tmpdir(), 'lantern-ingest-api-'))
  })
  afterAll(async () => {
    await t?.close()
    rmSync(dir, { recursive: true, force: true })
  })
  afterEach(() => vi.restoreAllMocks())

  it('uploads a file as multipart (the name as is), lists it, and reads its state; an unknown folder lists nothing', async () => {
    const tenant = await createTenant(t)
    const api = await LanternApi.connect(t.origin, tenant.credentials)
    const file = join(dir, 'plain.txt')
    writeFileSync(file, 'some text\n')
    const tag = await api.createTag('Finance')
    expect(await api.findTag('finance')).toEqual(tag)

    const name = 'a "quoted" name.txt'
    const first = await api.upload(file, name, { path: '/in/', tags: [tag.id], overwrite: false })
    expect(first.created).toBe(true)
    const again = await api.upload(file, name, { path: '/in/', tags: undefined, overwrite: true })
    expect(again).toEqual({ id: first.id, created: false })
    expect(await api.fileNames('/in/')).toEqual(new Set([name]))
    expect(await api.fileNames('/nowhere/')).toEqual(new Set())
    expect((await api.processing(first.id)).state).toMatch(/^(PENDING|PROCESSING|PROCESSED)$/)

    const refused = await api.upload(file, name, { path: '/in/', tags: undefined, overwrite: false }).catch((e) => e)
    expect(refused).toBeInstanceOf(ApiError)
    expect(refused).toMatchObject({ status: 409, code: 'already_exists' })
  })

  it('renews an expired token once, for all the requests refused with it', async () => {
    const tenant = await createTenant(t)
    const fetches = vi.spyOn(globalThis, 'fetch')
    const api = await LanternApi.connect(t.origin, tenant.credentials)
    clock.advance(2 * 3600)
    const [names, tag] = await Promise.all([api.fileNames('/'), api.findTag('none'), api.fileNames('/x/')])
    expect(names).toEqual(new Set())
    expect(tag).toBeUndefined()
    const tokenRequests = fetches.mock.calls.filter(([input]) => String((input as Request).url).endsWith('/auth/token'))
    expect(tokenRequests).toHaveLength(2)
  })

  it('wrong credentials are an ApiError 401; no server is an UnreachableError', async () => {
    const tenant = await createTenant(t)
    const wrong = await LanternApi.connect(t.origin, { ...tenant.credentials, clientSecret: 'wrong' }).catch((e) => e)
    expect(wrong).toBeInstanceOf(ApiError)
    expect(wrong).toMatchObject({ status: 401 })
    const nowhere = await LanternApi.connect(`http://127.0.0.1:${await freePort()}`, tenant.credentials).catch((e) => e)
    expect(nowhere).toBeInstanceOf(UnreachableError)
  })
})
