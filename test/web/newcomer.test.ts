import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { chromiumAvailable, launchChromium } from '../support/chromium.js'
import { tinyPdf } from '../support/knowledge-base.js'
import { ROOT, ServeProcess, storeEnv } from '../support/processes.js'

/** What `npm install` builds (`prepare`) and `lantern serve` serves at `/`. */
const BUILT_CONSOLE = join(ROOT, 'dist/web/index.html')

describe.skipIf(!chromiumAvailable)('a newcomer: `lantern serve` on an empty data dir, then the console', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'lantern-newcomer-'))
  const files = mkdtempSync(join(tmpdir(), 'lantern-newcomer-files-'))
  let server: ServeProcess
  let browser: Browser

  beforeAll(async () => {
    // The embedded default: SQLite in the data dir, ingestion workers in the same process.
    server = await ServeProcess.start({ ...storeEnv(dataDir), LANTERN_WORKERS: undefined })
    browser = await launchChromium()
  }, 60_000)

  afterAll(async () => {
    await browser?.close()
    await server?.stop()
    rmSync(dataDir, { recursive: true, force: true })
    rmSync(files, { recursive: true, force: true })
  })

  it('signs in with the printed credentials, uploads a PDF and gets an answer citing its page', async () => {
    expect(existsSync(BUILT_CONSOLE), 'the console is built by `npm install` (prepare) or `npm run build`').toBe(true)
    await server.waitForOutput(/First start: company "Default" created/)
    const credentials = JSON.parse(readFileSync(join(dataDir, 'credentials.json'), 'utf8')) as Record<string, string>

    const page = await browser.newPage()
    const blocked: string[] = []
    page.on('console', (message) => {
      if (/Content.Security.Policy/i.test(message.text())) blocked.push(message.text())
    })
    page.on('request', (request) => {
      if (!request.url().startsWith(server.origin) && !request.url().startsWith('blob:')) blocked.push(request.url())
    })
    await page.goto(server.origin)
    await page.getByLabel('App name').fill(credentials.app_name ?? '')
    await page.getByLabel('Client id').fill(credentials.client_id ?? '')
    await page.getByLabel('Client secret').fill(credentials.client_secret ?? '')
    await page.getByRole('button', { name: 'Sign in' }).click()
    await expect.poll(() => page.getByRole('navigation', { name: 'main' }).isVisible()).toBe(true)

    await page.getByRole('link', { name: 'Knowledge base' }).click()
    writeFileSync(join(files, 'handbook.pdf'), tinyPdf('Remote work is allowed two days per week.'))
    await page.getByLabel('Upload files').setInputFiles(join(files, 'handbook.pdf'))
    await expect.poll(() => page.locator('td.state.PROCESSED').count(), { timeout: 60_000, interval: 500 }).toBe(1)

    await page.getByRole('link', { name: 'Chat' }).click()
    await page.getByRole('button', { name: 'Start chat' }).click()
    await page.getByLabel('Ask a question').fill('How many days of remote work are allowed per week?')
    await page.getByRole('button', { name: 'Ask', exact: true }).click()
    const answer = page.locator('article.message.assistant:not(.streaming)')
    await expect.poll(() => answer.count(), { timeout: 30_000 }).toBe(1)
    expect(await answer.locator('.answer-text').textContent()).toContain('two days per week')
    expect(await answer.locator('.sources li .source-name').first().textContent()).toBe('/handbook.pdf')
    expect(await answer.locator('.sources li .source-where').first().textContent()).toBe('page 1')
    expect(blocked).toEqual([])
  }, 120_000)
})
