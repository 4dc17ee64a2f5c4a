import { createHash } from 'node:crypto'
import { existsSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { expectProblem, ISO_MICROS, UUID } from '../support/assertions.js'
import { createTenant, type Tenant } from '../support/factories.js'
import { createTag, documentOf, kbPath, mkdir, tinyPdf, tinyPng, upload, uploadOk } from '../support/knowledge-base.js'
import { storeModes } from '../support/store-modes.js'
import { startTestApp, type TestApp } from '../support/test-app.js'

describe.each(storeModes())('%s: document upload', (mode) => {
  let t: TestApp
  beforeAll(async () => {
    t = await startTestApp(mode)
  })
  afterAll(() => t.close())

  async function download(tenant: Tenant, id: string) {
    const response = await fetch(`${t.origin}/apif/v2${kbPath(tenant, `/${id}/file`)}`, {
      headers: { authorization: `Bearer ${tenant.token}` },
    })
    return { response, bytes: Buffer.from(await response.arrayBuffer()) }
  }

  it('stores a text file with the documented defaults, queues its ingestion and answers {id}', async () => {
    const tenant = await createTenant(t)
    const res = await upload(t, tenant, 'notes.txt', 'Leave policy: 25 days a year.\n')
    expect(res.status).toBe(201)
    expect(Object.keys(res.body)).toEqual(['id'])
    expect(res.body.id).toMatch(UUID)

    const meta = await t.request('GET', kbPath(tenant, `/${res.body.id}`), { token: tenant.token })
    expect(meta.status).toBe(200)
    expect(meta.body).toEqual({
      id: res.body.id,
      object_name: '/notes.txt',
      is_file: true,
      is_folder: false,
      tags: [],
      size: 30,
      create_at: expect.stringMatching(ISO_MICROS),
      update_at: expect.stringMatching(ISO_MICROS),
      description: '',
      description_type: 'ai',
      document_type: 'text',
      loader_type_preference: 'standard',
      processing: {
        chunk_count: 0,
        doc_pages_count: 0,
        duration: null,
        embedding_state: 'PENDING',
        error_details: '',
        start_timestamp: null,
        end_timestamp: null,
        progress: { done: 0, total: 0 },
      },
      document_card: null,
    })
    const document = await documentOf(t, tenant, res.body.id)
    expect(document.mimeType).toBe('text/plain')
    expect(document.sha256).toBe(createHash('sha256').update('Leave policy: 25 days a year.\n').digest('hex'))
    expect(document.autoDescription).toBe(true)
    expect(document.csvDelimiter).toBeNull()
    expect(document.imageMinSizeRatio).toBeNull()
    expect(await t.ctx.store.jobs.countOpen(tenant.companyId, res.body.id)).toBe(1)
  })

  it.each([false, true])('reads every field, before or after the file part (after: %s)', async (fieldsAfterFile) => {
    const tenant = await createTenant(t)
    const tagA = await createTag(t, tenant, 'finance')
    const tagB = await createTag(t, tenant, 'Audit')
    const id = await uploadOk(t, tenant, 'table.csv', 'a;b\n1;2\n', {
      fieldsAfterFile,
      fields: {
        path: 'reports/2024',
        loader_type: 'advanced',
        auto_description: 'false',
        description: 'Quarterly numbers',
        csv_delimiter: 'semicolon',
        image_min_size_ratio: '0.25',
        tags: [tagA, tagB],
      },
    })
    const meta = await t.request('GET', kbPath(tenant, `/${id}`), { token: tenant.token })
    expect(meta.body).toMatchObject({
      object_name: '/reports/2024/table.csv',
      description: 'Quarterly numbers',
      description_type: 'manual',
      loader_type_preference: 'advanced',
      document_type: 'text',
      tags: [tagB, tagA],
    })
    const document = await documentOf(t, tenant, id)
    expect(document).toMatchObject({
      mimeType: 'text/csv',
      csvDelimiter: 'semicolon',
      imageMinSizeRatio: 0.25,
      autoDescription: false,
      loaderType: 'ADVANCED',
    })
    const root = await t.request('GET', kbPath(tenant), { token: tenant.token })
    expect(root.body.map((e: { object_name: string }) => e.object_name)).toEqual(['/reports/'])
    const folder = await t.request('GET', kbPath(tenant, '?path=/reports/'), { token: tenant.token })
    expect(folder.body.map((e: { object_name: string }) => e.object_name)).toEqual(['/reports/2024/'])
  })

  it('accepts tags as one JSON-array field, and a description keeps auto_description only when asked', async () => {
    const tenant = await createTenant(t)
    const tag = await createTag(t, tenant, 'hr')
    const id = await uploadOk(t, tenant, 'a.md', '# Title\n', {
      fields: { tags: JSON.stringify([tag]), description: 'Given', auto_description: 'TRUE' },
    })
    const meta = await t.request('GET', kbPath(tenant, `/${id}`), { token: tenant.token })
    expect(meta.body).toMatchObject({ tags: [tag], description: 'Given', description_type: 'ai' })
    expect((await documentOf(t, tenant, id)).mimeType).toBe('text/markdown')
  })

  it('sniffs the type from the content: PNG, PDF, binary and extension-less text', async () => {
    const tenant = await createTenant(t)
    const png = tinyPng()
    const pdf = tinyPdf('Hello from a PDF')
    const binary = Buffer.from([0, 1, 2, 3, 254, 255, 0, 7])
    const cases: [string, Buffer, string, string][] = [
      ['picture.dat', png, 'image/png', 'image'],
      ['report.txt', pdf, 'application/pdf', 'text'],
      ['blob.bin', binary, 'application/octet-stream', 'text'],
      ['README', Buffer.from('plain words, ünïcödé\n'), 'text/plain', 'text'],
    ]
    for (const [name, bytes, mime, documentType] of cases) {
      const id = await uploadOk(t, tenant, name, bytes)
      const meta = await t.request('GET', kbPath(tenant, `/${id}`), { token: tenant.token })
      expect(meta.body.document_type).toBe(documentType)
      expect(meta.body.size).toBe(bytes.length)
      const { response, bytes: downloaded } = await download(tenant, id)
      expect(response.status).toBe(200)
      expect(response.headers.get('content-type')).toBe(mime)
      expect(response.headers.get('content-length')).toBe(String(bytes.length))
      expect(downloaded.equals(bytes)).toBe(true)
    }
  })

  it('accepts an empty file', async () => {
    const tenant = await createTenant(t)
    const id = await uploadOk(t, tenant, 'empty.csv', '')
    const meta = await t.request('GET', kbPath(tenant, `/${id}`), { token: tenant.token })
    expect(meta.body.size).toBe(0)
    const { response, bytes } = await download(tenant, id)
    expect(response.status).toBe(200)
    expect(bytes.length).toBe(0)
  })

  it('refuses the same name in the same folder with 409, and a folder of that name too', async () => {
    const tenant = await createTenant(t)
    const id = await uploadOk(t, tenant, 'a.txt', 'first', { fields: { path: '/x' } })
    expectProblem(await upload(t, tenant, 'a.txt', 'second', { fields: { path: '/x/' } }), 409, 'already_exists')
    expectProblem(
      await upload(t, tenant, 'a.txt', 'second', { fields: { path: 'x', overwrite: 'false' } }),
      409,
      'already_exists',
    )
    const { bytes } = await download(tenant, id)
    expect(bytes.toString()).toBe('first')
    await mkdir(t, tenant, '/y/b.txt/')
    expectProblem(
      await upload(t, tenant, 'b.txt', 'x', { fields: { path: '/y', overwrite: 'true' } }),
      409,
      'already_exists',
    )
    // …and a folder path that runs through a file
    expectProblem(await upload(t, tenant, 'c.txt', 'x', { fields: { path: '/x/a.txt/' } }), 409, 'already_exists')
  })

  it('overwrites in place: same id, new bytes, PENDING again, one open job, old blob removed', async () => {
    const tenant = await createTenant(t)
    const tag = await createTag(t, tenant, 'keep')
    const id = await uploadOk(t, tenant, 'doc.txt', 'version one', { fields: { tags: tag } })
    const before = await documentOf(t, tenant, id)
    await t.ctx.store.knowledgeBase.replaceDocument({
      ...before,
      processing: { ...before.processing, state: 'PROCESSED', chunkCount: 3, duration: 1.5 },
    })
    const res = await upload(t, tenant, 'doc.txt', 'version two, longer', { fields: { overwrite: '1' } })
    expect(res.status).toBe(200)
    expect(res.body.id).toBe(id)
    const after = await documentOf(t, tenant, id)
    expect(after.size).toBe(19)
    expect(after.processing).toMatchObject({ state: 'PENDING', chunkCount: 0, duration: null })
    expect(after.createdAt).toBe(before.createdAt)
    expect(after.updatedAt > before.updatedAt).toBe(true)
    expect(after.blobKey).not.toBe(before.blobKey)
    expect(await t.ctx.blobs.open(before.blobKey)).toBeUndefined()
    expect(await t.ctx.store.jobs.countOpen(tenant.companyId, id)).toBe(1)
    const meta = await t.request('GET', kbPath(tenant, `/${id}`), { token: tenant.token })
    expect(meta.body.tags).toEqual([tag])
    const { bytes } = await download(tenant, id)
    expect(bytes.toString()).toBe('version two, longer')
    const list = await t.request('GET', kbPath(tenant), { token: tenant.token })
    expect(list.body).toHaveLength(1)
  })

  it('rejects unknown tag ids and another company’s tag ids with 400 invalid_reference', async () => {
    const tenant = await createTenant(t)
    const other = await createTenant(t)
    const foreign = await createTag(t, other, 'theirs')
    const own = await createTag(t, tenant, 'ours')
    for (const tags of [[own, foreign], ['00000000-0000-4000-8000-000000000000']]) {
      const res = await upload(t, tenant, 'x.txt', 'x', { fields: { tags } })
      expectProblem(res, 400, 'invalid_reference')
      expect(res.body.errors[0].path).toBe(`body/tags/${tags.length - 1}`)
    }
    const list = await t.request('GET', kbPath(tenant), { token: tenant.token })
    expect(list.body).toEqual([])
  })

  it.each([
    ['loader_type', 'fast'],
    ['auto_description', 'maybe'],
    ['overwrite', 'yes'],
    ['csv_delimiter', 'pipe'],
    ['image_min_size_ratio', '2'],
    ['image_min_size_ratio', 'half'],
    ['tags', '[1, 2]'],
    ['tags', '[not json'],
  ])('rejects %s=%s with 400 validation_failed naming the field', async (field, value) => {
    const tenant = await createTenant(t)
    const res = await upload(t, tenant, 'x.txt', 'x', { fields: { [field]: value } })
    expectProblem(res, 400, 'validation_failed')
    expect(res.body.errors.map((e: { path: string }) => e.path)).toEqual([`body/${field}`])
  })

  it('rejects a form without a file part (400) and a body that is not multipart (415)', async () => {
    const tenant = await createTenant(t)
    const form = new FormData()
    form.append('path', '/a')
    const none = await t.request('POST', kbPath(tenant), { token: tenant.token, body: form })
    expectProblem(none, 400, 'validation_failed')
    expect(none.body.errors).toEqual([{ path: 'body/files', message: expect.any(String) }])
    const wrongPart = new FormData()
    wrongPart.append('file', new Blob(['x']), 'x.txt')
    expectProblem(
      await t.request('POST', kbPath(tenant), { token: tenant.token, body: wrongPart }),
      400,
      'validation_failed',
    )
    expectProblem(
      await t.request('POST', kbPath(tenant), { token: tenant.token, json: { files: 'x' } }),
      415,
      'unsupported_media_type',
    )
    expectProblem(
      await t.request('POST', kbPath(tenant), {
        token: tenant.token,
        body: 'hello',
        headers: { 'content-type': 'text/plain' },
      }),
      415,
      'unsupported_media_type',
    )
    expect((await t.request('GET', kbPath(tenant), { token: tenant.token })).body).toEqual([])
  })

  it.each([
    ['path', '/a/../b'],
    ['path', '//a'],
    ['path', 'a\\b'],
    ['path', '/a\u0007b/'],
    ['path', `/${'x'.repeat(256)}/`],
  ])('rejects %s=%j with 400 invalid_path', async (field, value) => {
    const tenant = await createTenant(t)
    const res = await upload(t, tenant, 'x.txt', 'x', { fields: { [field]: value } })
    expectProblem(res, 400, 'invalid_path')
    expect(res.body.errors[0].path).toBe('body/path')
  })

  it('rejects an unsafe file name with 400 invalid_path', async () => {
    const tenant = await createTenant(t)
    for (const name of ['..', 'a\u0001b.txt', `${'n'.repeat(256)}.txt`]) {
      const res = await upload(t, tenant, name, 'x')
      expectProblem(res, 400, 'invalid_path')
      expect(res.body.errors[0].path).toBe('body/files')
    }
  })

  it('stops at the knowledge-base size limit with 413 knowledge_base_full, counting an overwrite as a replacement', async () => {
    const tenant = await createTenant(t, { kbMaxBytes: 100 })
    const id = await uploadOk(t, tenant, 'one.txt', 'x'.repeat(60))
    const full = await upload(t, tenant, 'two.txt', 'y'.repeat(41))
    expectProblem(full, 413, 'knowledge_base_full')
    expect(full.body.detail).toContain('100B')
    await uploadOk(t, tenant, 'two.txt', 'y'.repeat(40))
    expect(await upload(t, tenant, 'one.txt', 'z'.repeat(60), { fields: { overwrite: 'true' } })).toMatchObject({
      status: 200,
      body: { id },
    })
    expectProblem(
      await upload(t, tenant, 'one.txt', 'z'.repeat(61), { fields: { overwrite: 'true' } }),
      413,
      'knowledge_base_full',
    )
    const usage = await t.request('GET', '/auth/company/usage', { token: tenant.token })
    expect(usage.body.knowledge_base_size_bytes).toBe(100)
    expect(usage.body.documents).toEqual({ PENDING: 2, PROCESSING: 0, PROCESSED: 0, ERROR: 0 })
  })

  it('never lets concurrent uploads together pass the knowledge-base size limit', async () => {
    const tenant = await createTenant(t, { kbMaxBytes: 100 })
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) => upload(t, tenant, `part-${i}.txt`, `${i}`.repeat(30))),
    )
    expect(results.filter((res) => res.status === 201)).toHaveLength(3)
    for (const res of results.filter((res) => res.status !== 201)) expectProblem(res, 413, 'knowledge_base_full')
    const usage = await t.request('GET', '/auth/company/usage', { token: tenant.token })
    expect(usage.body.knowledge_base_size_bytes).toBe(90)
  })

  it('refuses uploads with 403 license_expired once the licence has expired, while reads still work', async () => {
    const tenant = await createTenant(t)
    const id = await uploadOk(t, tenant, 'kept.txt', 'kept')
    await t.ctx.services.companies.update(tenant.companyId, { licenseExpiration: '2020-01-01T00:00:00.000000' })
    expectProblem(await upload(t, tenant, 'new.txt', 'x'), 403, 'license_expired')
    expect((await t.request('GET', kbPath(tenant), { token: tenant.token })).status).toBe(200)
    expect((await t.request('GET', kbPath(tenant, `/${id}`), { token: tenant.token })).status).toBe(200)
    expect((await download(tenant, id)).response.status).toBe(200)
  })

  it('answers 401 without a token and 404 for another company', async () => {
    const tenant = await createTenant(t)
    const other = await createTenant(t)
    const form = new FormData()
    form.append('files', new Blob(['x']), 'x.txt')
    expectProblem(await t.request('POST', kbPath(tenant), { body: form }), 401, 'unauthenticated')
    expectProblem(await upload(t, tenant, 'x.txt', 'x', { companyId: other.companyId }), 404, 'not_found')
    expect((await t.request('GET', kbPath(other), { token: other.token })).body).toEqual([])
  })
})

describe.each(storeModes())('%s: upload size limit', (mode) => {
  let t: TestApp
  beforeAll(async () => {
    t = await startTestApp(mode, { config: { maxUploadBytes: 1024 } })
  })
  afterAll(() => t.close())

  it('answers 413 payload_too_large past maxUploadBytes and stores nothing', async () => {
    const tenant = await createTenant(t)
    expect((await upload(t, tenant, 'fits.txt', 'a'.repeat(1024))).status).toBe(201)
    const res = await upload(t, tenant, 'big.txt', 'b'.repeat(1025), {
      fields: { path: '/big' },
      fieldsAfterFile: true,
    })
    expectProblem(res, 413, 'payload_too_large')
    const list = await t.request('GET', kbPath(tenant, '?recursive=true'), { token: tenant.token })
    expect(list.body.map((e: { object_name: string }) => e.object_name)).toEqual(['/fits.txt'])
    const tmp = join(t.ctx.config.dataDir, 'tmp')
    expect(existsSync(tmp) ? readdirSync(tmp) : []).toEqual([])
    if (mode === 'sqlite') {
      expect(readdirSync(join(t.ctx.config.dataDir, 'blobs', tenant.companyId))).toHaveLength(1)
    }
  })
})
