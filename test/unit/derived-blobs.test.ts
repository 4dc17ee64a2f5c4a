import { Readable } from 'node:stream'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { storeModes } from '../support/store-modes.js'
import { startTestApp, type TestApp } from '../support/test-app.js'

describe.each(storeModes())('%s: derived blobs', (mode) => {
  let t: TestApp
  beforeAll(async () => {
    t = await startTestApp(mode)
  })
  afterAll(() => t.close())

  const put = (key: string) => t.ctx.blobs.put(key, Readable.from([Buffer.from(key)]))
  const exists = async (key: string) => {
    const stream = await t.ctx.blobs.open(key)
    stream?.destroy()
    return stream !== undefined
  }

  it('removes derived blobs with their blob, and on request all but one, never a neighbour', async () => {
    const company = `c${Date.now()}`
    const key = `${company}/1111aaaa`
    const keys = [key, `${key}-tables-1`, `${key}-tables-2`, `${company}/1111aaaab`, `${company}/1111aaa-tables-1`]
    for (const k of keys) await put(k)

    await t.ctx.blobs.deleteDerived(key, `${key}-tables-2`)
    expect(await Promise.all(keys.map(exists))).toEqual([true, false, true, true, true])

    await t.ctx.blobs.delete(key)
    expect(await Promise.all(keys.map(exists))).toEqual([false, false, false, true, true])
  })
})
