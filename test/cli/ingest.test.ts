import { randomUUID } from 'node:crypto'
import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { NewCompany } from '../../src/domain/companies/companies.js'
import { UUID } from '../support/assertions.js'
import { createTenant, type Tenant } from '../support/factories.js'
import { createTag, kbPath, uploadOk } from '../support/knowledge-base.js'
import { type CliResult, freePort, type ProcessEnv, runCli } from '../support/processes.js'
import { storeModes } from '../support/store-modes.js'
import { startTestApp, type TestApp } from '../support/test-app.js'

type Tree = Record<string, string | Buffer>

interface Summary {
  directory: string
  path: string
  files: number
  uploaded: number
  replaced: number
  skipped: number
  processed: number
  errors: number
  unfinished: number
  waited: boolean
  failures: Array<{ file: string; object_name: string; stage: string; detail: string; status?: number; code?: string }>
}

const temps: string[] = []

function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix))
  temps.push(dir)
  return dir
}

/** Writes `tree` (relative path → content) under a new temporary directory. */
function writeTree(tree: Tree): string {
  const root = tempDir('lantern-ingest-src-')
  for (const [path, content] of Object.entries(tree)) {
    mkdirSync(dirname(join(root, path)), { recursive: true })
    writeFileSync(join(root, path), content)
  }
  return root
}

function parseSummary(result: CliResult): Summary {
  try {
    return JSON.parse(result.stdout) as Summary
  } catch {
    throw new Error(`not one JSON summary (exit ${result.code}):\n${result.stdout}\n${result.stderr}`)
  }
}

describe.each(storeModes())('%s: `lantern ingest` as a real process', (mode) => {
  let t: TestApp
  beforeAll(async () => {
    t = await startTestApp(mode)
  })
  afterAll(async () => {
    await t?.close()
    for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true })
  })

  /** The credentials file the server writes on its first start, for this tenant. */
  function credentialsFile(tenant: Tenant, secret = tenant.credentials.clientSecret): string {
    const file = join(tempDir('lantern-ingest-creds-'), 'credentials.json')
    const c = tenant.credentials
    writeFileSync(
      file,
      JSON.stringify({
        company_id: tenant.companyId,
        app_name: c.appName,
        client_id: c.clientId,
        client_secret: secret,
        base_url: `${t.origin}/apif/v2`,
      }),
    )
    return file
  }

  function ingest(tenant: Tenant, dir: string, args: string[] = [], env: ProcessEnv = {}): Promise<CliResult> {
    return runCli(['ingest', dir, '--credentials', credentialsFile(tenant), ...args], env)
  }

  async function ingestJson(tenant: Tenant, dir: string, args: string[] = [], exitCode = 0): Promise<Summary> {
    const result = await ingest(tenant, dir, [...args, '--json'])
    expect({ code: result.code, stderr: result.stderr }).toEqual({ code: exitCode, stderr: '' })
    return parseSummary(result)
  }

  /** object_name → list entry, for the whole knowledge base of the tenant. */
  async function tree(tenant: Tenant): Promise<Map<string, { id: string; tags: string[] }>> {
    const list = await t.request('GET', kbPath(tenant, '?path=/&recursive=true&limit=100'), { token: tenant.token })
    expect(list.status).toBe(200)
    return new Map(list.body.map((e: any) => [e.object_name, { id: e.id, tags: e.tags }]))
  }

  async function download(tenant: Tenant, id: string): Promise<string> {
    const response = await t.request('GET', kbPath(tenant, `/${id}/file`), { token: tenant.token })
    expect(response.status).toBe(200)
    return response.text
  }

  async function newTenant(input: Partial<NewCompany> = {}): Promise<Tenant> {
    return createTenant(t, input)
  }

  it('mirrors nested directories under --path, skipping dot files and symbolic links (--no-wait)', async () => {
    const tenant = await newTenant()
    const dir = writeTree({
      'top.txt': 'top level\n',
      'a/readme.md': '# Read me\n',
      'a/b/file.txt': 'deep file\n',
      'a/q"uote.txt': 'a quote in the name\n',
      // NFD on disk; the knowledge base keeps names in NFC.
      'cafe\u0301.txt': 'accent\n',
      '.hidden/secret.txt': 'not uploaded\n',
      'a/.env': 'not uploaded\n',
    })
    symlinkSync(join(dir, 'top.txt'), join(dir, 'link.txt'))
    symlinkSync(join(dir, 'a'), join(dir, 'a/b/loop'))

    const summary = await ingestJson(tenant, dir, ['--path', 'docs/in', '--no-wait'])
    expect(summary).toEqual({
      directory: dir,
      path: '/docs/in/',
      files: 5,
      uploaded: 5,
      replaced: 0,
      skipped: 0,
      processed: 0,
      errors: 0,
      unfinished: 5,
      waited: false,
      failures: [],
    })
    const entries = await tree(tenant)
    expect([...entries.keys()].sort()).toEqual([
      '/docs/',
      '/docs/in/',
      '/docs/in/a/',
      '/docs/in/a/b/',
      '/docs/in/a/b/file.txt',
      '/docs/in/a/q"uote.txt',
      '/docs/in/a/readme.md',
      '/docs/in/café.txt',
      '/docs/in/top.txt',
    ])
    expect(await download(tenant, entries.get('/docs/in/a/b/file.txt')?.id ?? '')).toBe('deep file\n')
    expect(await download(tenant, entries.get('/docs/in/a/q"uote.txt')?.id ?? '')).toBe('a quote in the name\n')
    expect(entries.get('/docs/in/top.txt')?.tags).toEqual([])
  }, 60_000)

  it('a second run skips what is there and uploads only new files; --overwrite re-uploads keeping the ids', async () => {
    const tenant = await newTenant()
    const dir = writeTree({ 'one.txt': 'one\n', 'sub/two.txt': 'two\n', 'cafe\u0301.txt': 'accent\n' })
    await ingestJson(tenant, dir, ['--no-wait'])
    const before = await tree(tenant)

    writeFileSync(join(dir, 'sub/three.txt'), 'three\n')
    writeFileSync(join(dir, 'one.txt'), 'one, changed\n')
    const resumed = await ingestJson(tenant, dir, ['--no-wait'])
    expect(resumed).toMatchObject({ files: 4, uploaded: 1, replaced: 0, skipped: 3, errors: 0, failures: [] })
    const after = await tree(tenant)
    expect(after.get('/sub/three.txt')?.id).toMatch(UUID)
    // Skipped means untouched: the changed file still has its first content.
    expect(await download(tenant, after.get('/one.txt')?.id ?? '')).toBe('one\n')

    const overwritten = await ingestJson(tenant, dir, ['--overwrite', '--no-wait'])
    expect(overwritten).toMatchObject({ files: 4, uploaded: 4, replaced: 4, skipped: 0, errors: 0, unfinished: 4 })
    const final = await tree(tenant)
    for (const name of ['/one.txt', '/sub/two.txt', '/café.txt']) expect(final.get(name)?.id).toBe(before.get(name)?.id)
    expect(final.get('/sub/three.txt')?.id).toBe(after.get('/sub/three.txt')?.id)
    expect(await download(tenant, final.get('/one.txt')?.id ?? '')).toBe('one, changed\n')
  }, 60_000)

  it('--tags attaches tags by name, reusing existing ones (ignoring case) and creating the missing ones', async () => {
    const tenant = await newTenant()
    const finance = await createTag(t, tenant, 'Finance')
    const dir = writeTree({ 'report.txt': 'numbers\n', 'q1/summary.md': '# Q1\n' })
    await ingestJson(tenant, dir, ['--tags', 'finance, Legal ,,LEGAL', '--no-wait'])

    const tags = await t.request('GET', kbPath(tenant, '/tags?limit=100'), { token: tenant.token })
    expect(tags.body.map((tag: any) => tag.name)).toEqual(['Finance', 'Legal'])
    const legal = tags.body.find((tag: any) => tag.name === 'Legal').id
    expect(tags.body[0].id).toBe(finance)
    const entries = await tree(tenant)
    for (const name of ['/report.txt', '/q1/summary.md']) expect(entries.get(name)?.tags).toEqual([finance, legal])

    // A re-run with other tags and --overwrite replaces the tags; without --tags an overwrite keeps them.
    await ingestJson(tenant, dir, ['--tags', 'Legal', '--overwrite', '--no-wait'])
    expect((await tree(tenant)).get('/report.txt')?.tags).toEqual([legal])
    await ingestJson(tenant, dir, ['--overwrite', '--no-wait'])
    expect((await tree(tenant)).get('/report.txt')?.tags).toEqual([legal])
  }, 60_000)

  it('reads credentials from LANTERN_CLIENT_ID / LANTERN_CLIENT_SECRET / LANTERN_APP_NAME with --url', async () => {
    const tenant = await newTenant({ appName: 'ingester' })
    const dir = writeTree({ 'env.txt': 'from the environment\n' })
    const c = tenant.credentials
    const result = await runCli(['ingest', dir, '--url', t.origin, '--no-wait', '--json'], {
      LANTERN_CLIENT_ID: c.clientId,
      LANTERN_CLIENT_SECRET: c.clientSecret,
      LANTERN_APP_NAME: 'ingester',
      LANTERN_DATA_DIR: tempDir('lantern-ingest-nodata-'),
    })
    expect(result.stderr).toBe('')
    expect(result.code).toBe(0)
    expect(parseSummary(result)).toMatchObject({ files: 1, uploaded: 1 })
    expect([...(await tree(tenant)).keys()]).toEqual(['/env.txt'])
  })

  it('lists every failure with its file and reason and exits 8; the other files are uploaded', async () => {
    const tenant = await newTenant({ kbMaxBytes: 2000 })
    // A document named like the local directory: the directory's files cannot go under it (409).
    await uploadOk(t, tenant, 'clash', 'a document, not a folder\n')
    const dir = writeTree({
      'ok.txt': 'fine\n',
      'big.txt': 'x'.repeat(5000),
      'back\\slash.txt': 'a name the knowledge base refuses\n',
      'clash/inner.txt': 'cannot be placed\n',
    })
    const summary = await ingestJson(tenant, dir, ['--no-wait'], 8)
    expect(summary).toMatchObject({ files: 4, uploaded: 1, skipped: 0, errors: 3 })
    expect(summary.failures).toEqual([
      {
        file: 'back\\slash.txt',
        object_name: '/back\\slash.txt',
        stage: 'name',
        detail: 'the name contains a backslash, which the knowledge base does not accept',
      },
      {
        file: 'big.txt',
        object_name: '/big.txt',
        stage: 'upload',
        status: 413,
        code: 'knowledge_base_full',
        detail: expect.stringMatching(/\S/),
      },
      {
        file: 'clash/inner.txt',
        object_name: '/clash/inner.txt',
        stage: 'upload',
        status: 409,
        code: 'already_exists',
        detail: expect.stringContaining('/clash'),
      },
    ])
    expect([...(await tree(tenant)).keys()].sort()).toEqual(['/clash', '/ok.txt'])

    // The human summary says the same, one line per failure; ok.txt is now skipped.
    const text = await ingest(tenant, dir, ['--no-wait'])
    expect(text.code).toBe(8)
    expect(text.stdout).toContain(
      `4 files from ${dir} into /: 0 uploaded, 1 skipped (already there), processing not waited for (--no-wait), 3 errors`,
    )
    expect(text.stdout).toMatch(/^ {2}big\.txt → \/big\.txt: upload failed \(413 knowledge_base_full\): \S/m)
    expect(text.stdout).toMatch(/^ {2}clash\/inner\.txt → \/clash\/inner\.txt: upload failed \(409 already_exists\): /m)
    expect(text.stdout).toMatch(
      /^ {2}back\\slash\.txt → \/back\\slash\.txt: not uploaded: the name contains a backslash/m,
    )
  }, 60_000)

  it.skipIf(process.getuid?.() === 0)('an unreadable file is an error with its path (exit 8)', async () => {
    const tenant = await newTenant()
    const dir = writeTree({ 'ok.txt': 'fine\n', 'locked.txt': 'no access\n' })
    chmodSync(join(dir, 'locked.txt'), 0)
    const summary = await ingestJson(tenant, dir, ['--no-wait'], 8)
    expect(summary).toMatchObject({ files: 2, uploaded: 1, errors: 1 })
    expect(summary.failures).toEqual([
      { file: 'locked.txt', object_name: '/locked.txt', stage: 'read', detail: expect.stringContaining('EACCES') },
    ])
  })

  it('waits for processing: PROCESSED and ERROR documents are counted, errors carry error_details (exit 8)', async () => {
    const tenant = await newTenant()
    const dir = writeTree({ 'good.txt': 'good text\n', 'data/bad.bin': Buffer.from([0, 159, 146, 150, 1, 2, 3, 255]) })
    const cli = ingest(tenant, dir, ['--timeout', '60'])
    // Stands in for the ingestion workers, which the test app does not run: finishes each document
    // the way a worker would (text processed, unknown bytes in ERROR).
    let done = false
    const finished = cli.finally(() => {
      done = true
    })
    const worker = (async () => {
      while (!done) {
        for (const document of await t.ctx.store.knowledgeBase.documentsUnder(tenant.companyId, '/')) {
          const bad = document.objectName.endsWith('.bin')
          await t.ctx.store.knowledgeBase.updateProcessing(tenant.companyId, document.id, 'unfinished', {
            state: bad ? 'ERROR' : 'PROCESSED',
            errorDetails: bad ? 'unsupported file type: application/octet-stream' : '',
          })
        }
        await new Promise((resolve) => setTimeout(resolve, 100))
      }
    })()
    const result = await finished
    await worker
    expect(result.stderr).toBe('')
    expect(result.code).toBe(8)
    // Not a terminal: plain progress lines, then the summary.
    expect(result.stdout).toContain(`2 files in ${dir} → / at ${t.origin}\n`)
    expect(result.stdout).toContain('uploading 2/2: 2 uploaded, 0 skipped, 0 errors\n')
    expect(result.stdout).toContain('processing 2/2: 1 processed, 1 errors\n')
    expect(result.stdout).toContain(
      `2 files from ${dir} into /: 2 uploaded, 0 skipped (already there), 1 processed, 1 error\nerrors:\n` +
        '  data/bad.bin → /data/bad.bin: processing ended in ERROR: unsupported file type: application/octet-stream\n',
    )
  }, 60_000)

  it.runIf(mode === 'sqlite')(
    '--timeout ends the wait and reports the unfinished documents (exit 8)',
    async () => {
      // SQLite only: its store is this test app's alone, so no worker of another test file can
      // process the document. Tokens live one second here, so the wait also outlives its token.
      const shortTokens = await startTestApp(mode, { config: { tokenTtlSeconds: 1 } })
      try {
        const tenant = await createTenant(shortTokens)
        const dir = writeTree({ 'slow.txt': 'never processed here\n' })
        const c = tenant.credentials
        const result = await runCli(['ingest', dir, '--url', shortTokens.origin, '--timeout', '3', '--json'], {
          LANTERN_CLIENT_ID: c.clientId,
          LANTERN_CLIENT_SECRET: c.clientSecret,
        })
        expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 8, stderr: '' })
        const summary = parseSummary(result)
        expect(summary).toMatchObject({ files: 1, uploaded: 1, processed: 0, errors: 1, unfinished: 0, waited: true })
        expect(summary.failures).toEqual([
          {
            file: 'slow.txt',
            object_name: '/slow.txt',
            stage: 'timeout',
            detail: 'still PENDING after 3 s (--timeout)',
            id: expect.stringMatching(UUID),
          },
        ])
      } finally {
        await shortTokens.close()
      }
    },
    60_000,
  )

  it('pages through folder listings: a folder of more than 100 files is skipped whole on the second run', async () => {
    const tenant = await newTenant()
    const files: Tree = {}
    for (let i = 0; i < 105; i++) files[`many/file-${String(i).padStart(3, '0')}.txt`] = `file ${i}\n`
    const dir = writeTree(files)
    const first = await ingestJson(tenant, dir, ['--no-wait', '--concurrency', '16'])
    expect(first).toMatchObject({ files: 105, uploaded: 105, skipped: 0, errors: 0 })
    const second = await ingestJson(tenant, dir, ['--no-wait'])
    expect(second).toMatchObject({ files: 105, uploaded: 0, skipped: 105, errors: 0 })
  }, 60_000)

  it.runIf(mode === 'sqlite')(
    'with real ingestion workers, documents end PROCESSED or ERROR',
    async () => {
      // SQLite only: a runner claims any queued job of its store, and the PostgreSQL one is shared by
      // every test file of the run.
      const runner = t.ctx.createJobRunner({ owner: `test-${randomUUID()}`, concurrency: 2 })
      runner.start()
      try {
        const tenant = await newTenant()
        const dir = writeTree({
          'notes.txt': 'Leave policy: 25 days a year.\n',
          'docs/guide.md': '# Guide\n\nSome text.\n',
          'docs/table.csv': 'name,days\nleave,25\n',
          'junk.bin': Buffer.from([0, 159, 146, 150, 1, 2, 3, 255]),
        })
        const summary = await ingestJson(tenant, dir, ['--timeout', '60'], 8)
        expect(summary).toMatchObject({ files: 4, uploaded: 4, processed: 3, errors: 1, waited: true })
        expect(summary.failures).toEqual([
          {
            file: 'junk.bin',
            object_name: '/junk.bin',
            stage: 'processing',
            detail: expect.stringMatching(/^unsupported file type/),
            id: expect.stringMatching(UUID),
          },
        ])
        // Resumed: everything is there, nothing to wait for.
        expect(await ingestJson(tenant, dir)).toMatchObject({ files: 4, uploaded: 0, skipped: 4, errors: 0 })
      } finally {
        await runner.stop(5000)
      }
    },
    90_000,
  )

  it('a wrong secret exits 1 with a clear message and no stack trace', async () => {
    const tenant = await newTenant()
    const dir = writeTree({ 'a.txt': 'a\n' })
    const result = await runCli(['ingest', dir, '--credentials', credentialsFile(tenant, 'lsk_wrong')])
    expect(result.code).toBe(1)
    expect(result.stderr).toMatch(
      /^lantern: http:\/\/127\.0\.0\.1:\d+ refused the credentials from .*credentials\.json/,
    )
    expect(result.stderr).toContain('invalid_client')
    expect(result.stderr).not.toMatch(/\n\s+at /)
    expect(await tree(tenant)).toEqual(new Map())
  })

  it('an unreachable server exits 7', async () => {
    const tenant = await newTenant()
    const dir = writeTree({ 'a.txt': 'a\n' })
    const port = await freePort()
    const result = await ingest(tenant, dir, ['--url', `http://127.0.0.1:${port}`])
    expect(result.code).toBe(7)
    expect(result.stderr).toMatch(new RegExp(`^lantern: cannot reach http://127\\.0\\.0\\.1:${port}: .*ECONNREFUSED`))
  })

  it('usage errors exit 2 before anything is sent', async () => {
    const tenant = await newTenant()
    const dir = writeTree({ 'a.txt': 'a\n' })
    const cases: Array<[string[], RegExp]> = [
      [['ingest'], /a directory is required/],
      [['ingest', join(dir, 'missing')], /does not exist/],
      [['ingest', join(dir, 'a.txt')], /is not a directory/],
      [['ingest', dir, '--concurrency', 'many'], /--concurrency must be a whole number/],
      [['ingest', dir, '--timeout', '0'], /--timeout must be a whole number/],
      [['ingest', dir, '--path', '/a/../b'], /--path must be a folder path/],
      [['ingest', dir, '--url', 'ftp://host'], /--url must use http/],
      [['ingest', dir, '--credentials', join(dir, 'none.json')], /credentials file .* does not exist/],
      [['ingest', dir, '--bogus'], /Unknown option '--bogus'/],
    ]
    const env = { LANTERN_DATA_DIR: tempDir('lantern-ingest-nodata-') }
    const results = await Promise.all(cases.map(([args]) => runCli(args, env)))
    results.forEach((result, index) => {
      const [args, message] = cases[index] ?? [[], /never/]
      expect({ args, code: result.code }).toEqual({ args, code: 2 })
      expect(result.stderr).toMatch(message)
    })
    const noCredentials = await runCli(['ingest', dir], { LANTERN_DATA_DIR: join(dir, 'nowhere') })
    expect(noCredentials.code).toBe(2)
    expect(noCredentials.stderr).toContain('no credentials: pass --credentials FILE, or set LANTERN_CLIENT_ID')
    expect(await tree(tenant)).toEqual(new Map())
  }, 60_000)
})
