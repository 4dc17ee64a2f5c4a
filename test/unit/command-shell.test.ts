import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { afterEach, describe, expect, it } from 'vitest'
import { CommandFailure, CommandShell, type CommandShellLimits } from '../../src/lib/command-shell.js'

const LIMITS: CommandShellLimits = {
  addressSpaceKib: 2 * 1024 * 1024,
  maxOutputBytes: 1024 * 1024,
  maxStderrChars: 100,
  label: 'tool',
}

const shells: CommandShell[] = []
afterEach(async () => {
  await Promise.all(shells.splice(0).map((shell) => shell.close()))
})

function shell(limits: Partial<CommandShellLimits> = {}): CommandShell {
  const created = new CommandShell({ ...LIMITS, ...limits })
  shells.push(created)
  return created
}

/** The process state letter (R, S, Z…), or null once the process is gone. */
function state(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3)
  } catch {
    return null
  }
}

async function gone(pid: number): Promise<boolean> {
  for (let attempt = 0; attempt < 50 && state(pid) !== null; attempt++) await sleep(100)
  return state(pid) === null
}

describe.skipIf(process.platform === 'win32')('command shell', () => {
  it('runs a command line with its arguments as given, and returns stdout, stderr and the exit status', async () => {
    const tricky = [`it's "quoted"`, '$HOME `date` \\n', '  spaced  ', '']
    const output = await shell().run({
      script: `printf '%s|' "$1" "$2" "$3" "$4"; printf 'no line break at the end'; echo warned >&2; exit 3`,
      args: tricky,
      timeoutMs: 5_000,
    })
    expect({ ...output, stdout: output.stdout.toString() }).toEqual({
      stdout: `${tricky.join('|')}|no line break at the end`,
      stderr: 'warned\n',
      code: 3,
    })
  })

  it('runs one command at a time in one shell, each with empty stdin', async () => {
    const tool = shell()
    const runs = await Promise.all(
      [1, 2, 3].map((n) => tool.run({ script: `cat; sleep 0.1; echo "$$ $1"`, args: [String(n)], timeoutMs: 5_000 })),
    )
    const lines = runs.map((run) => run.stdout.toString().trim().split(' '))
    expect(lines.map(([, n]) => n)).toEqual(['1', '2', '3'])
    expect(new Set(lines.map(([pid]) => pid)).size).toBe(1)
  })

  it('gives every command the address-space limit', async () => {
    const output = await shell().run({ script: 'ulimit -v', args: [], timeoutMs: 5_000 })
    expect(output.stdout.toString().trim()).toBe(String(LIMITS.addressSpaceKib))
  })

  it('kills a command that runs past its time, with its shell, and runs the next one in a new shell', async () => {
    const tool = shell()
    const first = await tool.run({ script: 'echo $$', args: [], timeoutMs: 5_000 })
    const shellPid = Number(first.stdout.toString().trim())
    const pidFile = join(mkdtempSync(join(tmpdir(), 'lantern-shell-')), 'pid')
    // The command's own pid, which `exec` keeps for sleep.
    const slow = tool.run({
      script: `exec sh -c 'echo $$ >"$1"; exec sleep 30' sh "$1"`,
      args: [pidFile],
      timeoutMs: 500,
    })
    await expect(slow).rejects.toThrow(new CommandFailure('tool took more than 500 ms'))
    expect(await gone(shellPid)).toBe(true)
    expect(await gone(Number(readFileSync(pidFile, 'utf8')))).toBe(true)
    const next = await tool.run({ script: 'echo $$', args: [], timeoutMs: 5_000 })
    expect(Number(next.stdout.toString().trim())).not.toBe(shellPid)
  })

  it('gives the time from the first line of output on by what that line says', async () => {
    const output = await shell().run({
      // The first line may take up to 1.5 s (a loaded machine); the run then takes 2 s more.
      script: 'echo 6000; sleep 2; echo done',
      args: [],
      timeoutMs: 1_500,
      retime: (line) => Number(line),
    })
    expect(output.stdout.toString()).toBe('6000\ndone\n')
  })

  it('kills a command that writes more than the output cap', async () => {
    const tool = shell({ maxOutputBytes: 100_000 })
    await expect(tool.run({ script: 'head -c 10000000 /dev/zero', args: [], timeoutMs: 5_000 })).rejects.toThrow(
      'tool wrote more than one run may hold',
    )
    expect((await tool.run({ script: 'echo fine', args: [], timeoutMs: 5_000 })).stdout.toString()).toBe('fine\n')
  })

  it('keeps only the start of a long stderr', async () => {
    const output = await shell().run({
      script: 'i=0; while [ $i -lt 2000 ]; do echo "warning $i" >&2; i=$((i+1)); done; echo ok',
      args: [],
      timeoutMs: 10_000,
    })
    expect(output.stdout.toString()).toBe('ok\n')
    expect(output.stderr).toHaveLength(LIMITS.maxStderrChars)
    expect(output.stderr.startsWith('warning 0\nwarning 1\n')).toBe(true)
  })

  it('refuses a line break in the script or an argument, and runs the next command', async () => {
    const tool = shell()
    await expect(tool.run({ script: 'echo "$1"', args: ['a\nb'], timeoutMs: 5_000 })).rejects.toThrow(CommandFailure)
    expect((await tool.run({ script: 'echo "$1"', args: ['a b'], timeoutMs: 5_000 })).stdout.toString()).toBe('a b\n')
  })

  it('fails a command whose shell is killed from outside, and starts a new shell for the next', async () => {
    const tool = shell()
    const pid = Number((await tool.run({ script: 'echo $$', args: [], timeoutMs: 5_000 })).stdout.toString().trim())
    const killed = tool.run({ script: 'kill -9 $$', args: [], timeoutMs: 5_000 })
    await expect(killed).rejects.toThrow(/the tool shell ended/u)
    expect(await gone(pid)).toBe(true)
    expect((await tool.run({ script: 'echo again', args: [], timeoutMs: 5_000 })).stdout.toString()).toBe('again\n')
  })

  it('leaves no process behind once closed, not even a zombie', async () => {
    const tool = new CommandShell(LIMITS)
    const pid = Number((await tool.run({ script: 'echo $$', args: [], timeoutMs: 5_000 })).stdout.toString().trim())
    expect(state(pid)).not.toBeNull()
    await tool.close()
    expect(state(pid)).toBeNull()
  })
})
