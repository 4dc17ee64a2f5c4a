import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { freePort, type ProcessEnv, runCli } from '../support/processes.js'

/** Long enough for tsx to start on a busy machine; a server that started would run far past it. */
const PROMPTLY_MS = 20_000

/**
 * Every command and subcommand of src/cli, with the words its usage line starts with. A group
 * (`admin company`) answers with the usage of each of its commands.
 */
const COMMANDS: ReadonlyArray<readonly [args: string[], usage: string]> = [
  [[], 'usage: lantern <command>'],
  [['serve'], 'usage: lantern serve'],
  [['worker'], 'usage: lantern worker'],
  [['ingest'], 'usage: lantern ingest <dir>'],
  [['admin'], 'usage: lantern admin <command>'],
  [['admin', 'migrate'], 'usage: lantern admin migrate'],
  [['admin', 'company'], 'usage: lantern admin company create'],
  [['admin', 'company', 'create'], 'usage: lantern admin company create --name N'],
  [['admin', 'company', 'list'], 'usage: lantern admin company list'],
  [['admin', 'company', 'update'], 'usage: lantern admin company update --id ID'],
  [['admin', 'client'], 'usage: lantern admin client create'],
  [['admin', 'client', 'create'], 'usage: lantern admin client create --company ID'],
  [['admin', 'client', 'list'], 'usage: lantern admin client list --company ID'],
  [['admin', 'client', 'rotate'], 'usage: lantern admin client rotate --client-id C'],
  [['admin', 'client', 'disable'], 'usage: lantern admin client disable --client-id C'],
  [['admin', 'documents'], 'usage: lantern admin documents reprocess'],
  [['admin', 'documents', 'reprocess'], 'usage: lantern admin documents reprocess --company ID'],
]

describe('`lantern … --help` as a real process', () => {
  const root = mkdtempSync(join(tmpdir(), 'lantern-cli-help-'))
  // A store that the command would create if it ran: help must leave it absent.
  const dataDir = join(root, 'data')
  afterAll(() => rmSync(root, { recursive: true, force: true }))

  async function help(args: readonly string[], env: ProcessEnv = {}) {
    const result = await runCli(args, { LANTERN_DATA_DIR: dataDir, ...env }, { timeoutMs: PROMPTLY_MS })
    expect(result.timedOut, `lantern ${args.join(' ')} still running after ${PROMPTLY_MS} ms`).toBe(false)
    return result
  }

  it.each(COMMANDS)('lantern %j --help and -h print the usage with exit 0', async (args, usage) => {
    const [long, short] = await Promise.all([help([...args, '--help']), help([...args, '-h'])])
    for (const result of [long, short]) {
      expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: '' })
      expect(result.stdout.startsWith(usage)).toBe(true)
    }
    expect(short.stdout).toBe(long.stdout)
    expect(existsSync(dataDir)).toBe(false)
  })

  it('serve and worker --help open no port and start nothing, whatever the environment', async () => {
    const port = await freePort()
    const env: ProcessEnv = { PORT: String(port), HOST: '127.0.0.1', LANTERN_LOG_LEVEL: 'info' }
    const [serve, worker, badSetting] = await Promise.all([
      help(['serve', '--help'], env),
      // Would connect to PostgreSQL (unreachable here: exit 7) if it ran.
      help(['worker', '--help'], { ...env, LANTERN_DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none' }),
      // Help is answered before the configuration is read.
      help(['serve', '--help'], { PORT: 'abc', LANTERN_FOO: '1' }),
    ])
    for (const result of [serve, worker, badSetting]) {
      expect(result.code).toBe(0)
      expect(result.stdout).not.toMatch(/listening|lantern worker is running/)
    }
    expect(serve.stdout).toBe(badSetting.stdout)
    const listening = await fetch(`http://127.0.0.1:${port}/health`).then(
      () => true,
      () => false,
    )
    expect(listening).toBe(false)
    expect(existsSync(dataDir)).toBe(false)
  })

  it('answers help wherever the flag is, and for `lantern help <command>`', async () => {
    const [afterFlags, badValues, viaHelp, ingest] = await Promise.all([
      help(['admin', 'company', 'create', '--name', 'Acme', '--json', '--help']),
      // Flag values are not checked when help is asked for.
      help(['admin', 'company', 'update', '--id', 'x', '--kb-max', 'lots', '-h']),
      help(['help', 'admin', 'client', 'rotate']),
      help(['ingest', join(root, 'missing'), '--tags', 'a', '--help']),
    ])
    expect([afterFlags.code, badValues.code, viaHelp.code, ingest.code]).toEqual([0, 0, 0, 0])
    expect(afterFlags.stdout).toMatch(/^usage: lantern admin company create /)
    expect(badValues.stdout).toMatch(/^usage: lantern admin company update /)
    expect(viaHelp.stdout).toMatch(/^usage: lantern admin client rotate /)
    expect(ingest.stdout).toMatch(/^usage: lantern ingest <dir> /)
    expect(existsSync(dataDir)).toBe(false)
  })

  it('lists every admin command in `lantern admin --help`, with the synopsis its own help gives', async () => {
    const overview = (await help(['admin', '--help'])).stdout
    const commands = COMMANDS.filter(([args]) => args[0] === 'admin' && (args.length === 3 || args[1] === 'migrate'))
    const usages = await Promise.all(commands.map(([args]) => help([...args, '--help'])))
    for (const result of usages) {
      // `usage: lantern admin company create --name N [--app-name A] …` → `company create --name N`
      const synopsis = result.stdout
        .split('\n')[0]
        ?.replace(/^usage: lantern admin /, '')
        .replace(/ \[.*$/, '')
      expect(overview).toContain(`  ${synopsis}`)
    }
  })

  it('refuses an unknown command with exit 2 even with --help, and arguments to serve and worker', async () => {
    const results = await Promise.all([
      help(['admin', 'frobnicate', '--help']),
      help(['admin', 'company', 'frobnicate', '-h']),
      help(['serve', '--port', '9000']),
      help(['worker', 'now']),
    ])
    expect(results.map((r) => [r.code, r.stdout])).toEqual([
      [2, ''],
      [2, ''],
      [2, ''],
      [2, ''],
    ])
    expect(results[0]?.stderr).toMatch(/^lantern: unknown command "admin frobnicate"/)
    expect(results[1]?.stderr).toMatch(/^lantern: unknown command "admin company frobnicate"/)
    expect(results[2]?.stderr).toMatch(/^lantern: unexpected argument "--port"\n\nusage: lantern serve/)
    expect(results[3]?.stderr).toMatch(/^lantern: unexpected argument "now"\n\nusage: lantern worker/)
    expect(existsSync(dataDir)).toBe(false)
  })
})
