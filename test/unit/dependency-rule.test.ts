import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { cruise, type ICruiseResult } from 'dependency-cruiser'
import extractDepcruiseOptions from 'dependency-cruiser/config-utl/extract-depcruise-options'
import { afterAll, describe, expect, it } from 'vitest'

const root = resolve(import.meta.dirname, '../..')
const options = await extractDepcruiseOptions(join(root, '.dependency-cruiser.cjs'))

async function violations(baseDir: string): Promise<string[]> {
  const { output } = await cruise(['src'], { ...options, baseDir })
  return (output as ICruiseResult).summary.violations.map(
    (v) => `${v.rule.name}: ${v.from} → ${v.cycle?.map((step) => step.name).join(' → ') ?? v.to}`,
  )
}

describe('the dependency rule of docs/architecture.md', () => {
  const planted = mkdtemp(join(tmpdir(), 'lantern-rooms-'))
  afterAll(async () => rm(await planted, { recursive: true, force: true }))

  async function plant(files: Record<string, string>): Promise<string> {
    const dir = await mkdtemp(join(await planted, 'tree-'))
    for (const [path, text] of Object.entries(files)) {
      await mkdir(dirname(join(dir, path)), { recursive: true })
      await writeFile(join(dir, path), text)
    }
    return dir
  }

  it('holds in src/: no import points to a room above its own, and no import cycle', async () => {
    expect(await violations(root)).toEqual([])
  }, 60_000)

  it('fails on an upward import planted in a lower room', async () => {
    const dir = await plant({
      'src/domain/bots.ts': 'export const botName = "Lantern"\n',
      'src/lib/greeting.ts': "import { botName } from '../domain/bots.js'\nexport const hello = 'hi ' + botName\n",
    })
    expect(await violations(dir)).toEqual(['no-upward-from-lib: src/lib/greeting.ts → src/domain/bots.ts'])
  }, 60_000)

  it('fails on an import between two rooms of the same rank', async () => {
    const dir = await plant({
      'src/http/routes.ts': "import { tool } from '../mcp/tools.js'\nexport const route = tool\n",
      'src/mcp/tools.ts': 'export const tool = 1\n',
    })
    expect(await violations(dir)).toEqual(['no-upward-from-http: src/http/routes.ts → src/mcp/tools.ts'])
  }, 60_000)

  it('fails on an import cycle inside one room, and on a folder with no rank', async () => {
    const dir = await plant({
      'src/text/a.ts': "import { b } from './b.js'\nexport const a = () => b\n",
      'src/text/b.ts': "import { a } from './a.js'\nexport const b = () => a\n",
      'src/utils/helpers.ts': "import { a } from '../text/a.js'\nexport const helper = a\n",
    })
    expect((await violations(dir)).sort()).toEqual([
      'no-cycle: src/text/a.ts → src/text/b.ts → src/text/a.ts',
      'no-unknown-room: src/utils/helpers.ts → src/text/a.ts',
    ])
  }, 60_000)
})
