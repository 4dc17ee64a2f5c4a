import { readFileSync, statSync } from 'node:fs'
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { statusOf } from '../../src/http/plugins/errors.js'
import { ERROR_CODES } from '../../src/lib/errors.js'

const root = resolve(import.meta.dirname, '../..')
const read = (path: string) => readFileSync(resolve(root, path), 'utf8')

describe('documentation stays in step with the code', () => {
  it('docs/errors.md lists every error code with its HTTP status', () => {
    const docs = read('docs/errors.md')
    const rows = new Map(
      [...docs.matchAll(/^\| `([a-z_]+)` +\| (\d{3}) +\|/gm)].map((m) => [m[1] ?? '', Number(m[2])] as const),
    )
    expect(Object.fromEntries(rows)).toEqual(Object.fromEntries(ERROR_CODES.map((code) => [code, statusOf(code)])))
  })

  it('the README shows both commands, and CI runs the README test command', () => {
    const readme = read('README.md')
    expect(readme).toContain('npm install && npm start')
    expect(readme).toMatch(/^npm test$/m)
    const ci = read('.ci/run')
    expect(ci).toMatch(/^set -euo pipefail$/m)
    expect(ci).toMatch(/^npm test 2>&1 \| tee /m)
    expect(statSync(resolve(root, '.ci/run')).mode & 0o111).not.toBe(0)
  })
})
