import { randomUUID } from 'node:crypto'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { build } from 'vite'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { JobRunner } from '../../src/jobs/runner.js'
import { chromiumAvailable, launchChromium } from '../support/chromium.js'
import { createTenant, type Tenant } from '../support/factories.js'
import { tinyPdf } from '../support/knowledge-base.js'
import { startTestApp, type TestApp } from '../support/test-app.js'

const root = resolve(import.meta.dirname, '../..')
/** Screenshots of every page at both widths, for a person to look at (ignored by git). */
const SHOTS = join(root, '.tmp/screenshots')
const WIDTHS = [1440, 360] as const
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8')

interface AxeViolation {
  id: string
  impact: string | null
  nodes: { target: string[] }[]
}

interface FocusedElement {
  getAttribute(name: string): string | null
  readonly labels?: readonly { readonly textContent: string | null }[] | null
  readonly textContent: string | null
}

interface BrowserDom {
  readonly document: { readonly activeElement: FocusedElement | null; readonly body: unknown }
  getComputedStyle(element: FocusedElement): { readonly outlineStyle: string; readonly outlineWidth: string }
}

/** axe-core's serious and critical violations on the page as it is now. */
async function seriousViolations(page: Page): Promise<string[]> {
  // Evaluated through the DevTools protocol, which the page's Content-Security-Policy does not govern.
  await page.evaluate(axeSource)
  const violations = await page.evaluate(async () => {
    const axe = (globalThis as unknown as { axe: { run(): Promise<{ violations: AxeViolation[] }> } }).axe
    return (await axe.run()).violations
  })
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)
}

describe.skipIf(!chromiumAvailable)('the web console in headless Chromium', () => {
  let t: TestApp
  let runner: JobRunner
  let tenant: Tenant
  let browser: Browser
  let consoleDir: string
  const cspViolations: string[] = []
  const axeFindings: string[] = []

  beforeAll(async () => {
    consoleDir = mkdtempSync(join(tmpdir(), 'lantern-console-'))
    await build({
      configFile: join(root, 'web/vite.config.ts'),
      build: { outDir: consoleDir, emptyOutDir: true },
      logLevel: 'silent',
    })
    t = await startTestApp('sqlite', { consoleDir })
    runner = t.ctx.createJobRunner({ owner: `test-${randomUUID()}`, concurrency: 2 })
    runner.start()
    tenant = await createTenant(t)
    browser = await launchChromium()
    mkdirSync(SHOTS, { recursive: true })
  }, 120_000)

  afterAll(async () => {
    await browser?.close()
    await runner?.stop(0)
    await t?.close()
    rmSync(consoleDir, { recursive: true, force: true })
  })

  async function newPage(width: number = WIDTHS[0]): Promise<{ context: BrowserContext; page: Page }> {
    const context = await browser.newContext({ viewport: { width, height: 900 }, acceptDownloads: true })
    const page = await context.newPage()
    page.on('console', (message) => {
      if (/Content.Security.Policy/i.test(message.text())) cspViolations.push(message.text())
    })
    page.on('dialog', (dialog) => void dialog.accept())
    return { context, page }
  }

  async function signIn(page: Page, secret = tenant.credentials.clientSecret, as: Tenant = tenant): Promise<void> {
    await page.goto(t.origin)
    await page.getByLabel('App name').fill(as.credentials.appName)
    await page.getByLabel('Client id').fill(as.credentials.clientId)
    await page.getByLabel('Client secret').fill(secret)
    await page.getByRole('button', { name: 'Sign in' }).click()
  }

  /** Screenshots at both widths, and axe-core's findings, of the page at `hash`. */
  async function lookAt(page: Page, name: string): Promise<void> {
    axeFindings.push(...(await seriousViolations(page)).map((finding) => `${name}: ${finding}`))
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 900 })
      await page.screenshot({ path: join(SHOTS, `${name}-${width}.png`), fullPage: true })
    }
    await page.setViewportSize({ width: WIDTHS[0], height: 900 })
  }

  it('is served at / with a Content-Security-Policy that allows no inline script or other origin', async () => {
    const response = await fetch(`${t.origin}/`)
    expect(response.status).toBe(200)
    const csp = response.headers.get('content-security-policy') ?? ''
    expect(csp).toContain("script-src 'self'")
    expect(csp).toContain("frame-ancestors 'none'")
    expect(csp).not.toContain('unsafe-inline')
    expect(response.headers.get('x-content-type-options')).toBe('nosniff')
    const html = await response.text()
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/)
    expect(html).not.toMatch(/https?:\/\//)
  })

  it('walks sign-in, folder, uploads, bot, a cited answer opened at its page, export, delete and sign-out', async () => {
    const { context, page } = await newPage()
    await page.goto(t.origin)
    await lookAt(page, '01-sign-in')
    await signIn(page)
    await expect.poll(() => page.getByRole('navigation', { name: 'main' }).isVisible()).toBe(true)

    // Knowledge base: a folder, then a PDF and a spreadsheet uploaded into it, watched until ready.
    await page.getByRole('link', { name: 'Knowledge base' }).click()
    await page.getByLabel('Folder name').fill('reports')
    await page.getByRole('button', { name: 'New folder' }).click()
    // The new folder appears in the folder tree, which opens it.
    const tree = page.getByRole('navigation', { name: 'Folders' })
    await tree.getByRole('button', { name: 'reports/', exact: true }).click()
    await expect.poll(() => page.locator('.path code').textContent()).toBe('/reports/')
    expect(await tree.locator('[aria-current="location"]').textContent()).toBe('reports/')
    const files = mkdtempSync(join(tmpdir(), 'lantern-console-files-'))
    writeFileSync(join(files, 'policy.pdf'), tinyPdf('Annual leave is 25 days per year for every employee.'))
    writeFileSync(join(files, 'sales.csv'), 'region,amount\nNorth,1250\nSouth,980\n')
    await page.getByLabel('Upload files').setInputFiles([join(files, 'policy.pdf'), join(files, 'sales.csv')])
    const rows = page.locator('tbody tr')
    await expect.poll(() => rows.count(), { timeout: 30_000 }).toBe(2)
    await expect.poll(() => page.locator('td.state.PROCESSED').count(), { timeout: 60_000, interval: 500 }).toBe(2)
    await lookAt(page, '02-knowledge-base')

    // A tag, attached to the PDF in its panel (with its chunks shown), then used as a filter.
    await page.getByLabel('Tag name').fill('policies')
    await page.getByRole('button', { name: 'New tag' }).click()
    await expect.poll(() => page.getByLabel('Show documents tagged').locator('option').count()).toBe(2)
    await page.getByRole('button', { name: 'policy.pdf' }).click()
    const panel = page.getByRole('dialog')
    await panel.getByLabel('policies').check()
    await panel.getByRole('button', { name: 'Save' }).click()
    await expect.poll(() => panel.getByRole('status').textContent()).toBe('Saved.')
    await panel.getByRole('button', { name: 'Chunks' }).click()
    await expect.poll(() => panel.locator('.chunks li').first().textContent()).toContain('Annual leave is 25 days')
    await lookAt(page, '02b-document')
    await panel.getByRole('button', { name: 'Close' }).click()
    await page.getByLabel('Show documents tagged').selectOption({ label: 'policies' })
    await expect.poll(() => page.locator('tbody tr').count()).toBe(1)
    await page.getByLabel('Show documents tagged').selectOption({ label: 'all' })

    // A bot scoped to the folder.
    await page.getByRole('link', { name: 'Bots' }).click()
    await page.getByLabel('Label').fill('Policies')
    await page.getByLabel('Description', { exact: true }).fill('Answers from the reports folder')
    await page.getByLabel('Prompt', { exact: true }).fill('Answer from the documents.')
    // Folders are chosen from the knowledge base, found by name.
    const folders = page.locator('fieldset', { hasText: 'Folders (scope)' })
    await folders.getByLabel('Find a folder').fill('repo')
    await folders.getByRole('checkbox', { name: '/reports/' }).check()
    expect(await folders.getByRole('list', { name: 'Chosen' }).textContent()).toContain('/reports/')
    await page.getByLabel('Data analysis').check()
    await page.getByRole('button', { name: 'Save' }).click()
    await expect.poll(() => page.getByRole('heading', { name: 'Policies' }).isVisible()).toBe(true)
    // Edited: every field is in the form, filled with the bot's values.
    await page.locator('.cards li', { hasText: 'Policies' }).getByRole('button', { name: 'Edit' }).click()
    expect(await folders.getByRole('list', { name: 'Chosen' }).textContent()).toContain('/reports/')
    const guides = page.locator('fieldset', { hasText: 'Documents that guide automatic selection' })
    await guides.getByLabel('Find a document').fill('policy')
    await guides.getByRole('checkbox', { name: '/reports/policy.pdf' }).check()
    await page.getByLabel('Description', { exact: true }).fill('Leave and sales, from the reports folder')
    await page.getByLabel('Users may narrow the scope').check()
    await page.getByRole('button', { name: 'Save' }).click()
    await expect
      .poll(() => page.locator('.cards li', { hasText: 'Policies' }).textContent())
      .toContain('Leave and sales, from the reports folder')
    const saved = await fetch(`${t.origin}/apif/v2/company/${tenant.companyId}/bot`, {
      headers: { authorization: `Bearer ${tenant.token}` },
    }).then((response) => response.json() as Promise<{ label: string; filters: Record<string, string[]> }[]>)
    expect(saved.find((bot) => bot.label === 'Policies')?.filters).toMatchObject({
      paths: ['/reports/'],
      default_auto_documents: ['/reports/policy.pdf'],
    })
    await page.locator('.cards li', { hasText: 'Policies' }).getByRole('button', { name: 'Edit' }).click()
    // With nothing typed, the folders are offered from the root.
    await expect.poll(() => folders.getByRole('checkbox').count()).toBe(2)
    expect(await folders.getByRole('checkbox', { name: '/reports/' }).isChecked()).toBe(true)
    await lookAt(page, '03-bots')
    await page.getByRole('button', { name: 'Cancel' }).click()

    // A chat with that bot: the answer streams in, cites the PDF's page, and the source opens.
    await page.getByRole('link', { name: 'Chat' }).click()
    await page.getByLabel('Bot').selectOption({ label: 'Policies' })
    await page.getByLabel('Title').fill('Leave')
    await page.getByRole('button', { name: 'Start chat' }).click()
    await page.getByLabel('Ask a question').fill('How many days of annual leave does an employee get?')
    await page.getByRole('button', { name: 'Ask', exact: true }).click()
    const answer = page.locator('article.message.assistant:not(.streaming)')
    await expect.poll(() => answer.count(), { timeout: 30_000 }).toBe(1)
    expect(await answer.locator('.answer-text').textContent()).toContain('25 days')
    const source = answer.locator('.sources li').first()
    expect(await source.locator('.source-name').textContent()).toBe('/reports/policy.pdf')
    expect(await source.locator('.source-where').textContent()).toBe('page 1')
    await lookAt(page, '04-chat')
    await source.getByRole('button', { name: 'Open' }).click()
    const viewer = page.getByRole('dialog')
    expect(await viewer.locator('.quoted').textContent()).toContain('Annual leave is 25 days')
    // The cited page itself, drawn by pdf.js from the stored file.
    await expect
      .poll(() => viewer.locator('canvas.pdf-page[data-rendered="true"]').count(), { timeout: 20_000 })
      .toBe(1)
    // The quoted passage is marked where it is printed on the page.
    await expect.poll(() => viewer.locator('.textLayer .quote-mark').count(), { timeout: 20_000 }).toBeGreaterThan(0)
    expect(await viewer.locator('.textLayer .quote-mark').first().textContent()).toContain('Annual leave')
    await lookAt(page, '05-source')
    await viewer.getByRole('button', { name: 'Close' }).click()

    // A question over the spreadsheet is computed from its rows, which are cited.
    // The bot allows manual filters: its documents are offered to narrow a question to.
    const narrow = page.locator('fieldset', { hasText: 'Only these documents' })
    await expect.poll(() => narrow.getByRole('checkbox').count()).toBe(2)
    const tables = page.locator('fieldset', { hasText: 'Compute the answer' })
    await tables.getByLabel('Compute the answer from these tables').check()
    await tables.getByRole('checkbox', { name: '/reports/sales.csv', exact: true }).check()
    await page.getByLabel('Ask a question').fill('What is the total amount?')
    await page.getByRole('button', { name: 'Ask', exact: true }).click()
    await expect.poll(() => answer.count(), { timeout: 30_000 }).toBe(2)
    const computed = answer.nth(1)
    expect(await computed.locator('.answer-text strong').first().textContent()).toBe('2230')
    expect(await computed.locator('.answer-text code').first().textContent()).toContain('sum("amount")')
    expect(await computed.locator('.sources li .source-name').first().textContent()).toBe('/reports/sales.csv')
    expect(await computed.locator('.sources li .source-where').first().textContent()).toMatch(/^rows? /)
    await lookAt(page, '04b-data-analysis')

    // After a reload the session holds, and the chat's history shows the answers with their sources.
    await page.reload()
    await page.locator('.chat-list').getByRole('button', { name: 'Leave' }).click()
    await expect.poll(() => page.locator('article.message').count()).toBe(4)
    expect(await page.locator('article.message.assistant .source-name').first().textContent()).toBe('policy.pdf')
    // A chat picked from the list brings its bot's switches, as one just created does.
    expect(await page.locator('fieldset', { hasText: 'Compute the answer' }).isVisible()).toBe(true)

    // Export, then delete the chat.
    const download = page.waitForEvent('download')
    await page.getByRole('button', { name: 'Markdown' }).click()
    expect((await download).suggestedFilename()).toBe('Leave.md')
    await page.locator('.chat-list li', { hasText: 'Leave' }).getByRole('button', { name: 'Delete' }).click()
    await expect.poll(() => page.locator('.chat-list li', { hasText: 'Leave' }).count()).toBe(0)

    await page.getByRole('link', { name: 'Company' }).click()
    await expect.poll(() => page.locator('.facts').isVisible()).toBe(true)
    const facts = await page.locator('.facts').textContent()
    expect(facts).toContain('Licence')
    expect(facts).toMatch(/Expires\s*never/)
    expect(facts).toMatch(/Questions\s*\d+ \/ \d+/)
    await lookAt(page, '06-company')

    await page.getByRole('button', { name: 'Sign out' }).click()
    expect(await page.getByRole('status').textContent()).toBe('You are signed out.')
    await context.close()
    rmSync(files, { recursive: true, force: true })

    expect(cspViolations).toEqual([])
    expect(axeFindings).toEqual([])
  }, 180_000)

  it('shows a wrong secret, an ended session and a failed upload as readable messages', async () => {
    const { context, page } = await newPage()
    await signIn(page, 'not-the-secret')
    await expect.poll(() => page.getByRole('alert').textContent()).toMatch(/credentials|client/i)

    // A token the service no longer accepts: the first call sends the user back to sign in.
    await page.evaluate(() =>
      (globalThis as unknown as { sessionStorage: { setItem(k: string, v: string): void } }).sessionStorage.setItem(
        'lantern.session',
        JSON.stringify({ token: 'lantern_revoked', expiresAt: Date.now() + 3_600_000, appName: 'x' }),
      ),
    )
    await page.reload()
    await expect.poll(() => page.getByRole('status').textContent()).toBe('Your session has ended. Sign in again.')

    await signIn(page)
    await page.getByRole('link', { name: 'Knowledge base' }).click()
    const files = mkdtempSync(join(tmpdir(), 'lantern-console-files-'))
    writeFileSync(join(files, 'broken.pdf'), '%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n<<>>\n%%EOF\n')
    await page.getByLabel('Upload files').setInputFiles(join(files, 'broken.pdf'))
    const failed = page.locator('td.state.ERROR')
    await expect.poll(() => failed.count(), { timeout: 60_000, interval: 500 }).toBe(1)
    expect((await failed.locator('.problem').textContent())?.length).toBeGreaterThan(10)
    await lookAt(page, '07-upload-error')

    // An answer the console cannot draw (here a list that is not one) fails its page, not the console.
    await page.route('**/apif/v2/company/*/bot?*', (route) =>
      route.fulfill({ status: 200, contentType: 'application/json', body: '{"not":"a list"}' }),
    )
    await page.getByRole('link', { name: 'Bots' }).click()
    await expect.poll(() => page.getByRole('button', { name: 'Try again' }).isVisible()).toBe(true)
    expect(await page.locator('.failed-page [role="alert"]').textContent()).not.toBe('')
    await page.unroute('**/apif/v2/company/*/bot?*')
    await page.getByRole('link', { name: 'Knowledge base' }).click()
    await expect.poll(() => page.getByRole('heading', { name: 'Knowledge base' }).isVisible()).toBe(true)
    await context.close()
    rmSync(files, { recursive: true, force: true })
    expect(cspViolations).toEqual([])
    expect(axeFindings).toEqual([])
  }, 120_000)

  it('pages through a long list of chats', async () => {
    const busy = await createTenant(t)
    for (let n = 1; n <= 23; n++) {
      const response = await fetch(`${t.origin}/apif/v2/chat`, {
        method: 'POST',
        headers: { authorization: `Bearer ${busy.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ title: `Chat ${String(n).padStart(2, '0')}` }),
      })
      expect(response.status).toBe(201)
    }
    const { context, page } = await newPage()
    await signIn(page, busy.credentials.clientSecret, busy)
    const titles = page.locator('.chat-list li .chat-title')
    await expect.poll(() => titles.count()).toBe(20)
    const pager = page.getByRole('navigation', { name: 'Pages' })
    expect(await pager.getByRole('button', { name: 'Previous' }).isDisabled()).toBe(true)
    await pager.getByRole('button', { name: 'Next' }).click()
    await expect.poll(() => titles.count()).toBe(3)
    expect(await pager.getByRole('button', { name: 'Next' }).isDisabled()).toBe(true)
    const seen = new Set(await titles.allTextContents())
    await pager.getByRole('button', { name: 'Previous' }).click()
    await expect.poll(() => titles.count()).toBe(20)
    for (const title of await titles.allTextContents()) seen.add(title)
    expect(seen.size).toBe(23)
    await lookAt(page, '08-chat-pages')
    await context.close()
    expect(cspViolations).toEqual([])
    expect(axeFindings).toEqual([])
  }, 60_000)

  it('is used from the keyboard alone, with the focus always visible', async () => {
    const { context, page } = await newPage()
    await page.goto(t.origin)
    /** Tab until the control labelled `label` has the focus, checking that every control on the way shows it. */
    async function tabTo(label: string): Promise<void> {
      for (let presses = 0; presses < 40; presses++) {
        await page.keyboard.press('Tab')
        const focused = await page.evaluate(() => {
          // The browser's DOM, typed as far as this check reads it (the tests compile without the DOM library).
          const dom = globalThis as unknown as BrowserDom
          const element = dom.document.activeElement
          if (!element || element === dom.document.body) return null
          const style = dom.getComputedStyle(element)
          const name =
            element.getAttribute('aria-label') ??
            element.labels?.[0]?.textContent?.trim() ??
            element.textContent?.trim() ??
            ''
          return { name, ring: style.outlineStyle !== 'none' && Number.parseFloat(style.outlineWidth) > 0 }
        })
        if (focused) expect(focused.ring, `focus ring on ${focused.name}`).toBe(true)
        if (focused?.name.startsWith(label)) return
      }
      throw new Error(`Tab never reached ${label}`)
    }
    await tabTo('App name')
    await page.keyboard.type(tenant.credentials.appName)
    await tabTo('Client id')
    await page.keyboard.type(tenant.credentials.clientId)
    await tabTo('Client secret')
    await page.keyboard.type(tenant.credentials.clientSecret)
    await page.keyboard.press('Enter')
    await expect.poll(() => page.getByRole('navigation', { name: 'main' }).isVisible()).toBe(true)
    await tabTo('Knowledge base')
    await page.keyboard.press('Enter')
    await expect.poll(() => page.getByRole('heading', { name: 'Knowledge base' }).isVisible()).toBe(true)
    await tabTo('Bots')
    await page.keyboard.press('Enter')
    await expect.poll(() => page.getByRole('heading', { name: 'Bots' }).isVisible()).toBe(true)
    await tabTo('Label')
    await page.keyboard.type('Keyboard bot')
    await context.close()
  }, 60_000)

  it('uploads files dropped on the upload area', async () => {
    const dropper = await createTenant(t)
    const { context, page } = await newPage()
    await signIn(page, dropper.credentials.clientSecret, dropper)
    await page.getByRole('link', { name: 'Knowledge base' }).click()
    // A drop as the browser delivers it: a DataTransfer holding two files.
    const dropped = await page.evaluateHandle(() => {
      const dom = globalThis as unknown as {
        DataTransfer: new () => { items: { add(file: unknown): void } }
        File: new (parts: string[], name: string, options: { type: string }) => unknown
      }
      const transfer = new dom.DataTransfer()
      transfer.items.add(
        new dom.File(['Dropped notes about the quarterly review.'], 'notes.txt', { type: 'text/plain' }),
      )
      transfer.items.add(new dom.File(['region,amount\nEast,10\n'], 'east.csv', { type: 'text/csv' }))
      return transfer
    })
    await page.locator('.dropzone label').dispatchEvent('drop', { dataTransfer: dropped })
    await expect.poll(() => page.locator('td.state.PROCESSED').count(), { timeout: 60_000, interval: 500 }).toBe(2)
    expect((await page.locator('tbody tr button.link').allTextContents()).sort()).toEqual(['east.csv', 'notes.txt'])
    expect(await page.locator('.uploads').textContent()).toContain('notes.txt: 100 %')
    await context.close()
    expect(cspViolations).toEqual([])
  }, 90_000)
})
