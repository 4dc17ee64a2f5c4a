import { existsSync } from 'node:fs'
import { type Browser, chromium } from 'playwright-core'

/** Debian's headless Chromium, which `.ci/run` installs (playwright-core downloads no browser). */
export const CHROMIUM = '/usr/bin/chromium'

export const chromiumAvailable = existsSync(CHROMIUM)
if (!chromiumAvailable) {
  console.log(`Chromium (${CHROMIUM}) not installed: the console tests are SKIPPED; .ci/run installs it`)
}

/** Chromium without a sandbox, a GPU or any background network traffic. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  })
}
