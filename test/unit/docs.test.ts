import { readdirSync, readFileSync, statSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join, relative, resolve } from 'node:path'
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

  it('docs/architecture.md names every folder of src/, its rooms in the order of the dependency rule', () => {
    const tree = /```\nsrc\/\n([\s\S]*?)```/.exec(read('docs/architecture.md'))?.[1] ?? ''
    const rooms = [...tree.matchAll(/^ {2}(\S+)/gm)].map((m) => (m[1] ?? '').replace(/\/$/, ''))
    const top = readdirSync(resolve(root, 'src')).filter((name) => name.endsWith('.ts') || !name.includes('.'))
    expect([...rooms].sort()).toEqual([...top].sort())
    const layers = (createRequire(import.meta.url)(resolve(root, '.dependency-rooms.cjs')) as { layers: string[][] })
      .layers
    const rank = new Map(layers.flatMap((rooms, index) => rooms.map((room) => [room, index] as const)))
    const ranks = rooms.map((room) => rank.get(room) ?? -1)
    expect(ranks).not.toContain(-1)
    expect(ranks).toEqual([...ranks].sort((a, b) => a - b))
    const folders = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true })
        .filter((entry) => entry.isDirectory())
        .flatMap((entry) => [join(dir, entry.name), ...folders(join(dir, entry.name))])
    const unnamed = folders(resolve(root, 'src'))
      .map((dir) => relative(resolve(root, 'src'), dir))
      .filter((path) => !path.startsWith('http/routes/'))
      .filter((path) => !tree.includes(`${path.split('/').at(-1)}/`))
    expect(unnamed).toEqual([])
  })
})
