import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { expectProblem, ISO_MICROS, UUID } from '../support/assertions.js'
import { createTenant, type Tenant } from '../support/factories.js'
import { createTag, documentOf, kbPath, mkdir, uploadOk } from '../support/knowledge-base.js'
import { processNow } from '../support/process-now.js'
import { storeModes } from '../support/store-modes.js'
import { startTestApp, type TestApp } from '../support/test-app.js'

const names = (body: { object_name: string }[]) => body.map((entry) => entry.object_name)

describe.each(storeModes())('%s: knowledge base tree', (mode) => {
  let t: TestApp
  beforeAll(async () => {
    t = await startTestApp(mode)
  })
  afterAll(() => t.close())

  async function list(tenant: Tenant, query = '') {
    return t.request('GET', kbPath(tenant, query), { token: tenant.token })
  }

  describe('POST …/knowledge-base/folders', () => {
    it('creates a folder and its parents (201), then answers 200 with the same id', async () => {
      const tenant = await createTenant(t)
      const created = await t.request('POST', kbPath(tenant, '/folders'), {
        token: tenant.token,
        json: { path: '/hr/policies' },
      })
      expect(created.status).toBe(201)
      expect(Object.keys(created.body)).toEqual(['id'])
      expect(created.body.id).toMatch(UUID)
      for (const path of ['/hr/policies/', 'hr/policies', 'hr/policies/']) {
        const again = await t.request('POST', kbPath(tenant, '/folders'), { token: tenant.token, json: { path } })
        expect(again.status).toBe(200)
        expect(again.body).toEqual({ id: created.body.id })
      }
      const parent = await t.request('POST', kbPath(tenant, '/folders'), { token: tenant.token, json: { path: '/hr' } })
      expect(parent.status).toBe(200)
      expect(parent.body.id).not.toBe(created.body.id)
      expect(names((await list(tenant, '?recursive=true')).body)).toEqual(['/hr/', '/hr/policies/'])
    })

    it('normalises to NFC so the composed and decomposed forms are one folder', async () => {
      const tenant = await createTenant(t)
      const id = await mkdir(t, tenant, '/Caf\u00e9')
      const again = await t.request('POST', kbPath(tenant, '/folders'), {
        token: tenant.token,
        json: { path: '/Cafe\u0301' },
      })
      expect(again.body).toEqual({ id })
      expect(again.status).toBe(200)
    })

    it.each([
      ['/a/../b'],
      ['/a/./b'],
      ['/a//b'],
      ['a\\b'],
      ['/a\u0000b'],
      ['/tab\there'],
      [`/${'x'.repeat(256)}`],
      [`/${'abcdefghi/'.repeat(103)}`],
      ['/'],
    ])('rejects %j with 400 invalid_path', async (path) => {
      const tenant = await createTenant(t)
      const res = await t.request('POST', kbPath(tenant, '/folders'), { token: tenant.token, json: { path } })
      expectProblem(res, 400, 'invalid_path')
      expect(res.body.errors[0].path).toBe('body/path')
      expect((await list(tenant)).body).toEqual([])
    })

    it('rejects missing, empty and wrong-typed paths with 400 validation_failed, and malformed JSON', async () => {
      const tenant = await createTenant(t)
      for (const json of [{}, { path: '' }, { path: 5 }, { path: ['/a'] }]) {
        const res = await t.request('POST', kbPath(tenant, '/folders'), { token: tenant.token, json })
        expectProblem(res, 400, 'validation_failed')
        expect(res.body.errors[0].path).toBe('body/path')
      }
      expectProblem(
        await t.request('POST', kbPath(tenant, '/folders'), {
          token: tenant.token,
          body: '{"path": ',
          headers: { 'content-type': 'application/json' },
        }),
        400,
        'malformed_json',
      )
    })

    it('refuses a folder where a file of that name exists, or below a file, with 409', async () => {
      const tenant = await createTenant(t)
      await uploadOk(t, tenant, 'report.pdf', 'x', { fields: { path: '/docs' } })
      for (const path of ['/docs/report.pdf', '/docs/report.pdf/inner']) {
        const res = await t.request('POST', kbPath(tenant, '/folders'), { token: tenant.token, json: { path } })
        expectProblem(res, 409, 'already_exists')
      }
    })
  })

  describe('GET …/knowledge-base', () => {
    let tenant: Tenant
    const ids: Record<string, string> = {}
    beforeAll(async () => {
      tenant = await createTenant(t)
      ids.beta = await mkdir(t, tenant, '/beta')
      ids.Alpha = await mkdir(t, tenant, '/Alpha')
      ids.alphaInner = await mkdir(t, tenant, '/Alpha/inner')
      ids.zeta = await uploadOk(t, tenant, 'zeta.txt', 'zzz')
      ids.Apple = await uploadOk(t, tenant, 'Apple.txt', 'apple!')
      ids.banana = await uploadOk(t, tenant, 'banana_50%.txt', 'b')
      ids.inA = await uploadOk(t, tenant, 'Notes.md', 'n', { fields: { path: '/Alpha' } })
      ids.deep = await uploadOk(t, tenant, 'deep.txt', 'd', { fields: { path: '/Alpha/inner' } })
      ids.dash = await mkdir(t, tenant, '/Alpha-2')
    })

    it('lists direct children: folders first, then files, by name ignoring case, with every field', async () => {
      const res = await list(tenant)
      expect(res.status).toBe(200)
      expect(names(res.body)).toEqual(['/Alpha/', '/Alpha-2/', '/beta/', '/Apple.txt', '/banana_50%.txt', '/zeta.txt'])
      expect(res.body[0]).toEqual({
        id: ids.Alpha,
        object_name: '/Alpha/',
        is_file: false,
        is_folder: true,
        tags: [],
        create_at: expect.stringMatching(ISO_MICROS),
        update_at: expect.stringMatching(ISO_MICROS),
      })
      expect(res.body[3]).toEqual({
        id: ids.Apple,
        object_name: '/Apple.txt',
        is_file: true,
        is_folder: false,
        size: 6,
        tags: [],
        create_at: expect.stringMatching(ISO_MICROS),
        update_at: expect.stringMatching(ISO_MICROS),
      })
      expect('size' in res.body[0]).toBe(false)
    })

    it('lists a sub-folder given with or without slashes; an unknown folder is 404', async () => {
      for (const path of ['/Alpha/', 'Alpha', '/Alpha']) {
        const res = await list(tenant, `?path=${encodeURIComponent(path)}`)
        expect(names(res.body)).toEqual(['/Alpha/inner/', '/Alpha/Notes.md'])
      }
      expectProblem(await list(tenant, '?path=/nope/'), 404, 'not_found')
      expectProblem(await list(tenant, '?path=/zeta.txt'), 404, 'not_found')
      expectProblem(await list(tenant, '?path=/a/../b'), 400, 'invalid_path')
    })

    it('recursive gives the subtree depth-first by path', async () => {
      const all = await list(tenant, '?recursive=true&limit=100')
      expect(names(all.body)).toEqual([
        '/Alpha-2/',
        '/Alpha/',
        '/Alpha/Notes.md',
        '/Alpha/inner/',
        '/Alpha/inner/deep.txt',
        '/Apple.txt',
        '/banana_50%.txt',
        '/beta/',
        '/zeta.txt',
      ])
      const sub = await list(tenant, '?path=/Alpha/&recursive=true')
      expect(names(sub.body)).toEqual(['/Alpha/Notes.md', '/Alpha/inner/', '/Alpha/inner/deep.txt'])
    })

    it('search matches a substring of the name ignoring case, literally, alone or recursively', async () => {
      expect(names((await list(tenant, '?search=ALPHA')).body)).toEqual(['/Alpha/', '/Alpha-2/'])
      expect(names((await list(tenant, '?search=a')).body)).toEqual([
        '/Alpha/',
        '/Alpha-2/',
        '/beta/',
        '/Apple.txt',
        '/banana_50%.txt',
        '/zeta.txt',
      ])
      expect(names((await list(tenant, '?search=50%25')).body)).toEqual(['/banana_50%.txt'])
      expect(names((await list(tenant, '?search=_')).body)).toEqual(['/banana_50%.txt'])
      expect(names((await list(tenant, '?search=p.t&recursive=true')).body)).toEqual(['/Alpha/inner/deep.txt'])
      expect((await list(tenant, '?search=p.t')).body).toEqual([])
      expect(names((await list(tenant, '?search=notes&recursive=true')).body)).toEqual(['/Alpha/Notes.md'])
      expect((await list(tenant, '?search=nothing-like-this')).body).toEqual([])
    })

    it('pages with offset and limit (default 20) and rejects out-of-range values', async () => {
      expect(names((await list(tenant, '?offset=1&limit=2')).body)).toEqual(['/Alpha-2/', '/beta/'])
      expect(names((await list(tenant, '?offset=5')).body)).toEqual(['/zeta.txt'])
      expect((await list(tenant, '?offset=50')).body).toEqual([])
      for (const query of ['?limit=0', '?limit=101', '?offset=-1', '?limit=abc', '?recursive=maybe']) {
        expectProblem(await list(tenant, query), 400, 'validation_failed')
      }
    })

    it('uses a default page of 20', async () => {
      const big = await createTenant(t)
      for (let i = 0; i < 21; i++) await mkdir(t, big, `/f${String(i).padStart(2, '0')}`)
      const res = await list(big)
      expect(res.body).toHaveLength(20)
      expect(res.body[19].object_name).toBe('/f19/')
    })

    it('shows tag ids of documents, ordered by tag name', async () => {
      const tagged = await createTenant(t)
      const z = await createTag(t, tagged, 'zed')
      const a = await createTag(t, tagged, 'Ant')
      await uploadOk(t, tagged, 'x.txt', 'x', { fields: { tags: [z, a] } })
      expect((await list(tagged)).body[0].tags).toEqual([a, z])
    })

    it('keeps the documents carrying a tag (extension), paged after the filter, and refuses another company tag', async () => {
      const tagged = await createTenant(t)
      const red = await createTag(t, tagged, 'red')
      const blue = await createTag(t, tagged, 'blue')
      await mkdir(t, tagged, '/sub')
      for (let i = 0; i < 5; i++) {
        await uploadOk(t, tagged, `plain-${i}.txt`, 'x')
        await uploadOk(t, tagged, `red-${i}.txt`, 'x', { fields: { tags: [red] } })
      }
      await uploadOk(t, tagged, 'both.txt', 'x', { fields: { path: '/sub/', tags: [red, blue] } })
      const names = async (query: string) =>
        ((await list(tagged, query)).body as { object_name: string }[]).map((entry) => entry.object_name)
      expect(await names(`?tag=${red}`)).toEqual(['/red-0.txt', '/red-1.txt', '/red-2.txt', '/red-3.txt', '/red-4.txt'])
      expect(await names(`?tag=${red}&recursive=true&limit=4`)).toEqual([
        '/red-0.txt',
        '/red-1.txt',
        '/red-2.txt',
        '/red-3.txt',
      ])
      expect(await names(`?tag=${red}&recursive=true&offset=4`)).toEqual(['/red-4.txt', '/sub/both.txt'])
      expect(await names(`?tag=${blue}&recursive=true`)).toEqual(['/sub/both.txt'])
      expect(await names(`?tag=${red}&search=3`)).toEqual(['/red-3.txt'])

      const other = await createTenant(t)
      const theirs = await createTag(t, other, 'red')
      await uploadOk(t, other, 'theirs.txt', 'x', { fields: { tags: [theirs] } })
      expectProblem(await list(tagged, `?tag=${theirs}`), 404, 'not_found')
      expectProblem(await list(other, `?tag=${red}`), 404, 'not_found')
    })
  })

  describe('GET …/knowledge-base/<object_id>', () => {
    it('reads a folder with every field and no document fields', async () => {
      const tenant = await createTenant(t)
      const id = await mkdir(t, tenant, '/f')
      const res = await t.request('GET', kbPath(tenant, `/${id}`), { token: tenant.token })
      expect(res.status).toBe(200)
      expect(res.body).toEqual({
        id,
        object_name: '/f/',
        is_file: false,
        is_folder: true,
        tags: [],
        create_at: expect.stringMatching(ISO_MICROS),
        update_at: expect.stringMatching(ISO_MICROS),
      })
    })

    it('reports processing results as stored', async () => {
      const tenant = await createTenant(t)
      const id = await uploadOk(t, tenant, 'p.txt', 'text')
      const document = await documentOf(t, tenant, id)
      await t.ctx.store.knowledgeBase.replaceDocument({
        ...document,
        processing: {
          state: 'ERROR',
          errorDetails: 'unsupported file type',
          chunkCount: 2,
          docPagesCount: 1,
          startedAt: '2026-01-01T00:00:00.000001',
          endedAt: '2026-01-01T00:00:01.500001',
          duration: 1.5,
          progressDone: 1,
          progressTotal: 2,
        },
      })
      const res = await t.request('GET', kbPath(tenant, `/${id}`), { token: tenant.token })
      expect(res.body.processing).toEqual({
        chunk_count: 2,
        doc_pages_count: 1,
        duration: 1.5,
        embedding_state: 'ERROR',
        error_details: 'unsupported file type',
        start_timestamp: '2026-01-01T00:00:00.000001',
        end_timestamp: '2026-01-01T00:00:01.500001',
        progress: { done: 1, total: 2 },
      })
    })

    it('answers 404 for unknown ids', async () => {
      const tenant = await createTenant(t)
      for (const id of ['00000000-0000-4000-8000-000000000000', 'not-a-uuid']) {
        expectProblem(await t.request('GET', kbPath(tenant, `/${id}`), { token: tenant.token }), 404, 'not_found')
      }
    })
  })

  describe('PATCH …/knowledge-base/<object_id>/metadata', () => {
    async function processed(tenant: Tenant, id: string): Promise<void> {
      const document = await documentOf(t, tenant, id)
      await t.ctx.store.knowledgeBase.replaceDocument({
        ...document,
        processing: { ...document.processing, state: 'PROCESSED', chunkCount: 4 },
      })
      await t.ctx.store.jobs.cancelQueued(tenant.companyId, id, t.ctx.clock.now())
    }
    const patch = (tenant: Tenant, id: string, json: unknown) =>
      t.request('PATCH', kbPath(tenant, `/${id}/metadata`), { token: tenant.token, json })
    const meta = async (tenant: Tenant, id: string) =>
      (await t.request('GET', kbPath(tenant, `/${id}`), { token: tenant.token })).body

    it('sets a manual description and tags without reprocessing', async () => {
      const tenant = await createTenant(t)
      const a = await createTag(t, tenant, 'a')
      const b = await createTag(t, tenant, 'b')
      const id = await uploadOk(t, tenant, 'd.txt', 'text', { fields: { tags: a } })
      await processed(tenant, id)
      const before = await meta(tenant, id)
      const res = await patch(tenant, id, { description: 'About leave', tags: [b] })
      expect(res.status).toBe(200)
      expect(res.body).toEqual({ id })
      const after = await meta(tenant, id)
      expect(after).toMatchObject({ description: 'About leave', description_type: 'manual', tags: [b] })
      expect(after.processing.embedding_state).toBe('PROCESSED')
      expect(after.update_at > before.update_at).toBe(true)
      expect(await t.ctx.store.jobs.countOpen(tenant.companyId, id)).toBe(0)
      await patch(tenant, id, { tags: [] })
      expect((await meta(tenant, id)).tags).toEqual([])
    })

    it('reprocesses on a new loader type, delimiter, image ratio or auto_description true', async () => {
      const tenant = await createTenant(t)
      const id = await uploadOk(t, tenant, 'd.csv', 'a,b\n')
      for (const [body, expected] of [
        [{ loader_type: 'STANDARD' }, 'PROCESSED'],
        [{ loader_type: 'advanced' }, 'PENDING'],
        [{ csv_delimiter: 'tab' }, 'PENDING'],
        [{ image_min_size_ratio: 0.5 }, 'PENDING'],
        [{ auto_description: false }, 'PROCESSED'],
        [{ auto_description: true }, 'PENDING'],
      ] as const) {
        await processed(tenant, id)
        expect((await patch(tenant, id, body)).status).toBe(200)
        expect((await meta(tenant, id)).processing.embedding_state).toBe(expected)
        expect(await t.ctx.store.jobs.countOpen(tenant.companyId, id)).toBe(expected === 'PENDING' ? 1 : 0)
      }
      const document = await documentOf(t, tenant, id)
      expect(document).toMatchObject({ loaderType: 'ADVANCED', csvDelimiter: 'tab', imageMinSizeRatio: 0.5 })
      expect((await meta(tenant, id)).description_type).toBe('ai')
      expect((await meta(tenant, id)).loader_type_preference).toBe('advanced')
    })

    it('shows the document card (null before processing) and takes corrections without reprocessing', async () => {
      const tenant = await createTenant(t)
      const id = await uploadOk(t, tenant, 'filing-017.pdf', 'x', { fields: { path: '/reports/' } })
      expect((await meta(tenant, id)).document_card).toBeNull()
      await processed(tenant, id)
      const read = {
        title: 'Form 10-Q',
        subjects: ['Pfizer Inc.', 'PFE'],
        period: { label: 'quarter ended July 2, 2023', start: '2023-04-03', end: '2023-07-02', fiscalQuarter: 2 },
        kind: 'quarterly report',
      }
      await t.ctx.store.knowledgeBase.updateProcessing(tenant.companyId, id, 'any', { card: read })
      expect((await meta(tenant, id)).document_card).toEqual({
        title: 'Form 10-Q',
        subjects: ['Pfizer Inc.', 'PFE'],
        period: {
          label: 'quarter ended July 2, 2023',
          start: '2023-04-03',
          end: '2023-07-02',
          fiscal_year: null,
          fiscal_quarter: 2,
        },
        kind: 'quarterly report',
        filename: 'filing-017.pdf',
        folder: '/reports/',
        card_type: 'ai',
      })

      const version = await t.ctx.store.search.indexVersion(tenant.companyId)
      const res = await patch(tenant, id, {
        document_card: {
          subjects: [' Pfizer Inc. ', 'Pfizer', 'pfizer', ''],
          period: { start: '2023-04-01', end: '2023-06-30', fiscal_year: 2023 },
          kind: null,
        },
      })
      expect(res.status).toBe(200)
      const corrected = (await meta(tenant, id)).document_card
      expect(corrected).toMatchObject({
        title: 'Form 10-Q',
        subjects: ['Pfizer Inc.', 'Pfizer'],
        period: { label: '2023-04-01 – 2023-06-30', start: '2023-04-01', end: '2023-06-30', fiscal_year: 2023 },
        kind: null,
        card_type: 'manual',
      })
      // Re-indexed (the in-memory indexes reload the document's card), not processed again.
      expect(await t.ctx.store.search.indexVersion(tenant.companyId)).toBeGreaterThan(version)
      expect((await meta(tenant, id)).processing.embedding_state).toBe('PROCESSED')
      expect(await t.ctx.store.jobs.countOpen(tenant.companyId, id)).toBe(0)
      // Processing again keeps the user's card.
      await t.ctx.store.knowledgeBase.updateProcessing(tenant.companyId, id, 'any', { card: read })
      expect((await meta(tenant, id)).document_card).toEqual(corrected)
      // A new file in its place is read afresh.
      await uploadOk(t, tenant, 'filing-017.pdf', 'y', { fields: { path: '/reports/', overwrite: 'true' } })
      await t.ctx.store.knowledgeBase.updateProcessing(tenant.companyId, id, 'any', { card: read })
      expect((await meta(tenant, id)).document_card).toMatchObject({ kind: 'quarterly report', card_type: 'ai' })
    })

    it('reads the card when processing and opens the generated description with it, following corrections', async () => {
      const tenant = await createTenant(t)
      const text = [
        'Globex Corporation',
        'Quarterly report for the quarterly period ended June 30, 2023',
        '',
        'In this report, “Globex,” “we” and “the Company” refer to Globex Corporation and its subsidiaries.',
        'Net sales of the quarter rose to 4,210 million as demand for industrial lanterns grew in every region.',
        'Research and development expenses grew with the new lantern programs and the hiring of engineers.',
      ].join('\n')
      const id = await uploadOk(t, tenant, 'filing-004.txt', text, { fields: { path: '/filings' } })
      await processNow(t, tenant, id)
      const read = await meta(tenant, id)
      expect(read.document_card).toMatchObject({
        subjects: ['Globex Corporation', 'Globex'],
        kind: 'quarterly report',
        period: { start: '2023-04-01', end: '2023-06-30' },
        card_type: 'ai',
      })
      expect(read.description).toMatch(/^[^.]*Globex Corporation[^.]*June 30, 2023/)
      const rest = read.description.slice(read.description.indexOf('2023.') + 5)
      expect(rest.length).toBeGreaterThan(20)

      await patch(tenant, id, { document_card: { subjects: ['Initech, Inc.'] } })
      const corrected = await meta(tenant, id)
      // The opening sentence follows the card; the rest, read from the text, stays.
      expect(corrected.description).toMatch(
        /^Quarterly report of Initech, Inc\. for the quarter ended June 30, 2023\. /,
      )
      expect(corrected.description.endsWith(rest)).toBe(true)
      expect(corrected.description_type).toBe('ai')
    })

    it('reprocesses a whole company on demand: processed and failed documents queued, still searchable meanwhile', async () => {
      const tenant = await createTenant(t)
      const done = await uploadOk(t, tenant, 'done.txt', 'Employees get 25 days of paid leave per year.')
      await processNow(t, tenant, done)
      const failed = await uploadOk(t, tenant, 'failed.txt', 'x')
      await t.ctx.store.knowledgeBase.updateProcessing(tenant.companyId, failed, 'any', { state: 'ERROR' })
      await t.ctx.store.jobs.cancelQueued(tenant.companyId, failed, t.ctx.clock.now())
      const waiting = await uploadOk(t, tenant, 'waiting.txt', 'y')
      expect(await t.ctx.services.knowledgeBase.reprocessCompany(tenant.companyId)).toBe(2)
      for (const id of [done, failed, waiting]) expect(await t.ctx.store.jobs.countOpen(tenant.companyId, id)).toBe(1)
      expect((await meta(tenant, done)).processing.embedding_state).toBe('PROCESSED')
      const search = await t.request('POST', kbPath(tenant, '/search'), {
        token: tenant.token,
        json: { query: 'paid leave' },
      })
      expect(search.body.hits.map((hit: { document_id: string }) => hit.document_id)).toEqual([done])
    })

    it('rejects malformed card corrections with 400 naming the field', async () => {
      const tenant = await createTenant(t)
      const id = await uploadOk(t, tenant, 'd.txt', 'x')
      for (const document_card of [
        'Pfizer',
        { subjects: 'Pfizer' },
        { subjects: [5] },
        { title: 5 },
        { period: '2023' },
        { period: { start: '2023-04-01' } },
        { period: { start: '2023-04-01', end: '2023-06-30', fiscal_quarter: 5 } },
      ]) {
        expectProblem(await patch(tenant, id, { document_card }), 400, 'validation_failed')
      }
      for (const [period, path] of [
        [{ start: '2023-02-30', end: '2023-06-30' }, 'body/document_card/period/start'],
        [{ start: '2023-04-01', end: 'June 30' }, 'body/document_card/period/end'],
        [{ start: '2023-07-01', end: '2023-06-30' }, 'body/document_card/period/end'],
      ] as const) {
        const res = await patch(tenant, id, { document_card: { period } })
        expectProblem(res, 400, 'validation_failed')
        expect(res.body.errors[0].path).toBe(path)
      }
      expect((await meta(tenant, id)).document_card).toBeNull()
    })

    it('rejects a folder with 400 not_a_file and bad fields with 400', async () => {
      const tenant = await createTenant(t)
      const folder = await mkdir(t, tenant, '/f')
      expectProblem(await patch(tenant, folder, { description: 'x' }), 400, 'not_a_file')
      const id = await uploadOk(t, tenant, 'd.txt', 'x')
      for (const body of [
        { loader_type: 'FAST' },
        { auto_description: 'yes' },
        { description: 5 },
        { csv_delimiter: 'pipe' },
        { image_min_size_ratio: 1.5 },
        { image_min_size_ratio: '0.5' },
        { tags: 'abc' },
        { tags: [5] },
      ]) {
        expectProblem(await patch(tenant, id, body), 400, 'validation_failed')
      }
      const res = await patch(tenant, id, { tags: ['00000000-0000-4000-8000-000000000000'] })
      expectProblem(res, 400, 'invalid_reference')
      expect(res.body.errors[0].path).toBe('body/tags/0')
      expectProblem(await patch(tenant, '00000000-0000-4000-8000-000000000000', {}), 404, 'not_found')
    })
  })

  describe('DELETE …/knowledge-base/<object_id>', () => {
    it('deletes a document: row, tag links, queued job and blob', async () => {
      const tenant = await createTenant(t)
      const tag = await createTag(t, tenant, 't')
      const id = await uploadOk(t, tenant, 'd.txt', 'x', { fields: { tags: tag } })
      const { blobKey } = await documentOf(t, tenant, id)
      const res = await t.request('DELETE', kbPath(tenant, `/${id}`), { token: tenant.token })
      expect(res.status).toBe(204)
      expect(res.text).toBe('')
      expectProblem(await t.request('GET', kbPath(tenant, `/${id}`), { token: tenant.token }), 404, 'not_found')
      expect(await t.ctx.store.jobs.countOpen(tenant.companyId, id)).toBe(0)
      expect(await t.ctx.blobs.open(blobKey)).toBeUndefined()
      expect((await t.ctx.store.tags.tagIdsOf(tenant.companyId, [id])).get(id)).toEqual([])
      expectProblem(await t.request('DELETE', kbPath(tenant, `/${id}`), { token: tenant.token }), 404, 'not_found')
    })

    it('deletes a folder with its whole subtree, leaving look-alike siblings, and cleans bots', async () => {
      const tenant = await createTenant(t)
      const folder = await mkdir(t, tenant, '/a')
      const d1 = await uploadOk(t, tenant, 'one.txt', '1', { fields: { path: '/a' } })
      const d2 = await uploadOk(t, tenant, 'two.txt', '2', { fields: { path: '/a/b/c' } })
      const sibling = await uploadOk(t, tenant, 'keep.txt', 'k', { fields: { path: '/a-b' } })
      // Byte-wise neighbours of the `/a/` prefix: '.' sorts just before '/', '0' just after it.
      const outside = await uploadOk(t, tenant, 'a.txt', 'dot')
      await uploadOk(t, tenant, 'a0.txt', 'zero')
      const blobs = [(await documentOf(t, tenant, d1)).blobKey, (await documentOf(t, tenant, d2)).blobKey]
      const bot = await t.ctx.store.bots.findById(tenant.companyId, tenant.defaultBotId)
      if (!bot) throw new Error('no default bot')
      await t.ctx.store.bots.replace({
        ...bot,
        filters: {
          ...bot.filters,
          paths: ['/a/'],
          defaultDocuments: ['/a/one.txt', '/a-b/keep.txt'],
          defaultAutoDocuments: ['/a/b/c/two.txt'],
        },
      })

      expect((await t.request('DELETE', kbPath(tenant, `/${folder}`), { token: tenant.token })).status).toBe(204)
      const rest = await t.request('GET', kbPath(tenant, '?recursive=true'), { token: tenant.token })
      expect(names(rest.body)).toEqual(['/a-b/', '/a-b/keep.txt', '/a.txt', '/a0.txt'])
      for (const id of [d1, d2]) expect(await t.ctx.store.knowledgeBase.findById(tenant.companyId, id)).toBeUndefined()
      for (const key of blobs) expect(await t.ctx.blobs.open(key)).toBeUndefined()
      expect(await t.ctx.store.jobs.countOpen(tenant.companyId, d2)).toBe(0)
      expect(await t.ctx.store.jobs.countOpen(tenant.companyId, sibling)).toBe(1)
      expect(await t.ctx.store.jobs.countOpen(tenant.companyId, outside)).toBe(1)
      const cleaned = await t.ctx.store.bots.findById(tenant.companyId, tenant.defaultBotId)
      expect(cleaned?.filters).toEqual({
        paths: ['/a/'],
        tags: [],
        defaultDocuments: ['/a-b/keep.txt'],
        defaultAutoDocuments: [],
      })
      const usage = await t.request('GET', '/auth/company/usage', { token: tenant.token })
      expect(usage.body.knowledge_base_size_bytes).toBe(1 + 3 + 4)
    })
  })

  describe('GET …/knowledge-base/<object_id>/file', () => {
    it('streams the original bytes with type, length and a UTF-8 attachment name', async () => {
      const tenant = await createTenant(t)
      const bytes = Buffer.from('Über "quoted" naïve text\n')
      const id = await uploadOk(t, tenant, "Résumé final (1)'s;.txt", bytes, { fields: { path: '/cv' } })
      const res = await fetch(`${t.origin}/apif/v2${kbPath(tenant, `/${id}/file`)}`, {
        headers: { authorization: `Bearer ${tenant.token}` },
      })
      expect(res.status).toBe(200)
      expect(res.headers.get('content-type')).toBe('text/plain')
      expect(res.headers.get('content-length')).toBe(String(bytes.length))
      expect(res.headers.get('content-disposition')).toBe(
        `attachment; filename="R_sum_ final (1)'s_.txt"; filename*=UTF-8''R%C3%A9sum%C3%A9%20final%20%281%29%27s%3B.txt`,
      )
      expect(res.headers.get('x-content-type-options')).toBe('nosniff')
      expect(res.headers.get('content-security-policy')).toContain('sandbox')
      expect(Buffer.from(await res.arrayBuffer()).equals(bytes)).toBe(true)
    })

    it('streams a file larger than one storage chunk intact', async () => {
      const tenant = await createTenant(t)
      const bytes = Buffer.alloc(2.5 * 1024 * 1024)
      for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 31 + (i >> 11)) & 0xff
      const id = await uploadOk(t, tenant, 'big.bin', bytes)
      const res = await fetch(`${t.origin}/apif/v2${kbPath(tenant, `/${id}/file`)}`, {
        headers: { authorization: `Bearer ${tenant.token}` },
      })
      expect(res.headers.get('content-type')).toBe('application/octet-stream')
      expect(Buffer.from(await res.arrayBuffer()).equals(bytes)).toBe(true)
    })

    it('answers 400 not_a_file for a folder and 404 for an unknown id', async () => {
      const tenant = await createTenant(t)
      const folder = await mkdir(t, tenant, '/f')
      expectProblem(
        await t.request('GET', kbPath(tenant, `/${folder}/file`), { token: tenant.token }),
        400,
        'not_a_file',
      )
      expectProblem(
        await t.request('GET', kbPath(tenant, '/00000000-0000-4000-8000-000000000000/file'), { token: tenant.token }),
        404,
        'not_found',
      )
    })
  })

  describe('tenant isolation', () => {
    it("answers another company's ids and paths with 404 on every endpoint, changing nothing", async () => {
      const owner = await createTenant(t)
      const intruder = await createTenant(t)
      const folder = await mkdir(t, owner, '/secret')
      const doc = await uploadOk(t, owner, 's.txt', 'secret', { fields: { path: '/secret' } })
      const as = intruder.token
      const foreign = (suffix: string) => `/company/${intruder.companyId}/knowledge-base${suffix}`
      for (const id of [folder, doc]) {
        expectProblem(await t.request('GET', foreign(`/${id}`), { token: as }), 404, 'not_found')
        expectProblem(await t.request('GET', foreign(`/${id}/file`), { token: as }), 404, 'not_found')
        for (const json of [{ description: 'x' }, { document_card: { subjects: ['Intruder Inc.'] } }]) {
          expectProblem(await t.request('PATCH', foreign(`/${id}/metadata`), { token: as, json }), 404, 'not_found')
        }
        expectProblem(await t.request('DELETE', foreign(`/${id}`), { token: as }), 404, 'not_found')
      }
      expectProblem(await t.request('GET', foreign('?path=/secret/'), { token: as }), 404, 'not_found')
      // The owner's company id in the path is refused outright.
      const theirs = kbPath(owner)
      expectProblem(await t.request('GET', theirs, { token: as }), 404, 'not_found')
      expectProblem(await t.request('GET', `${theirs}/${doc}`, { token: as }), 404, 'not_found')
      expectProblem(await t.request('GET', `${theirs}/${doc}/file`, { token: as }), 404, 'not_found')
      expectProblem(
        await t.request('PATCH', `${theirs}/${doc}/metadata`, { token: as, json: { description: 'x' } }),
        404,
        'not_found',
      )
      expectProblem(await t.request('DELETE', `${theirs}/${doc}`, { token: as }), 404, 'not_found')
      expectProblem(await t.request('POST', `${theirs}/folders`, { token: as, json: { path: '/x' } }), 404, 'not_found')
      const meta = await t.request('GET', kbPath(owner, `/${doc}`), { token: owner.token })
      expect(meta.body.description).toBe('')
      expect(names((await t.request('GET', kbPath(owner, '?recursive=true'), { token: owner.token })).body)).toEqual([
        '/secret/',
        '/secret/s.txt',
      ])
    })

    it('answers 401 without a token on every endpoint', async () => {
      const tenant = await createTenant(t)
      const id = '00000000-0000-4000-8000-000000000000'
      for (const [method, suffix] of [
        ['GET', ''],
        ['GET', `/${id}`],
        ['GET', `/${id}/file`],
        ['PATCH', `/${id}/metadata`],
        ['DELETE', `/${id}`],
        ['POST', '/folders'],
      ] as const) {
        const options = method === 'PATCH' || method === 'POST' ? { json: {} } : {}
        expectProblem(await t.request(method, kbPath(tenant, suffix), options), 401, 'unauthenticated')
      }
    })
  })
})
