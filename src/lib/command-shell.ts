import { type ChildProcessByStdio, spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import type { Readable, Writable } from 'node:stream'

/**
 * A small long-lived `/bin/sh` that starts command lines for the thread that owns it. Starting a
 * process from the service (hundreds of MiB, many threads) costs over 100 ms of fork and blocks
 * the other threads' page faults meanwhile; the shell forks in a few milliseconds. Each command
 * gets the shell's address-space limit, a time limit (the shell and its children are killed, and
 * the next command starts a new shell) and a cap on its output.
 */

export interface CommandShellLimits {
  /** `ulimit -v` of the shell and everything it starts, in KiB. */
  readonly addressSpaceKib: number
  /** A command writing more than this to stdout is killed. */
  readonly maxOutputBytes: number
  /** Only the start of stderr is kept (a broken input can make a program print millions of warnings). */
  readonly maxStderrChars: number
  /** What the failures name: `mutool took more than 5000 ms`. */
  readonly label: string
}

export interface CommandLine {
  /** One line of shell, whose `$1`, `$2`… are `args`; neither may hold a line break. */
  readonly script: string
  readonly args: readonly string[]
  readonly timeoutMs: number
  /** Given the first line of stdout as soon as it is complete: a new time limit from then on. */
  readonly retime?: (firstLine: string) => number
}

export interface CommandOutput {
  /** The bytes the command wrote, for the caller to decode. */
  readonly stdout: Buffer
  readonly stderr: string
  /** The exit status as the shell gives it (128 + n after signal n). */
  readonly code: number
}

/** A command that could not run, ran too long or wrote too much. */
export class CommandFailure extends Error {}

/**
 * Reads a request (the number of arguments, the arguments and the script, a line each), runs it in
 * a subshell with no stdin, then ends its stdout and its stderr with a line holding the marker (a
 * random string the command cannot know), so both streams say where the command's output stops.
 */
const SHELL_LOOP = `marker=$1
ulimit -v "$2" 2>/dev/null
while IFS= read -r count; do
  set --
  while [ "$#" -lt "$count" ]; do IFS= read -r arg || exit 0; set -- "$@" "$arg"; done
  IFS= read -r script || exit 0
  (eval "$script") </dev/null
  status=$?
  printf '\\n%s %s\\n' "$marker" "$status"
  printf '\\n%s\\n' "$marker" >&2
done`

type ShellProcess = ChildProcessByStdio<Writable, Readable, Readable>

interface Pending {
  readonly request: CommandLine
  readonly resolve: (output: CommandOutput) => void
  readonly reject: (error: Error) => void
  timer: NodeJS.Timeout
  readonly stdout: Buffer[]
  stdoutBytes: number
  /** The last bytes of stdout, where the marker line arrives. */
  stdoutTail: Buffer
  code: number | undefined
  retimed: boolean
  /** The first maxStderrChars characters of stderr, marker included if it came that early. */
  stderrHead: string
  stderrChars: number
  stderrTail: string
  stderrDone: boolean
}

class Shell {
  readonly marker = randomBytes(16).toString('hex')
  /** The end of a command's stdout: the marker and the exit status. */
  readonly stdoutEnd = new RegExp(`\\n${this.marker} (\\d+)\\n$`, 'u')
  readonly process: ShellProcess
  /** Resolves once the shell has exited and been waited for (or could not start). */
  readonly exited: Promise<void>
  pending: Pending | undefined
  ended = false

  constructor(limits: CommandShellLimits) {
    this.process = spawn('/bin/sh', ['-c', SHELL_LOOP, 'lantern-shell', this.marker, String(limits.addressSpaceKib)], {
      stdio: ['pipe', 'pipe', 'pipe'],
      // Its own process group, so a time limit kills the command it is running with it.
      detached: true,
      windowsHide: true,
    })
    // Idle, it keeps neither the thread nor the process alive; a running command's timer does.
    this.process.unref()
    for (const stream of [this.process.stdin, this.process.stdout, this.process.stderr]) {
      ;(stream as unknown as { unref?: () => void }).unref?.()
    }
    this.process.stderr.setEncoding('utf8')
    this.exited = new Promise((resolve) => {
      this.process.once('exit', () => resolve())
      this.process.once('error', () => resolve())
    })
  }
}

export class CommandShell {
  private shell: Shell | undefined
  private queue: Promise<unknown> = Promise.resolve()

  constructor(private readonly limits: CommandShellLimits) {}

  /** Runs `command` once the commands before it have ended. */
  run(command: CommandLine): Promise<CommandOutput> {
    const result = this.queue.then(() => this.start(command))
    this.queue = result.catch(() => undefined)
    return result
  }

  /**
   * Ends the shell (and a command it is running) and waits until it has exited: a process whose
   * owner (a worker thread's event loop) is gone before it exits is never waited for, and stays a
   * zombie until the service ends.
   */
  async close(): Promise<void> {
    const shell = this.shell
    if (!shell) return
    this.kill(shell, new CommandFailure(`the ${this.limits.label} shell was closed`))
    await shell.exited
  }

  private start(command: CommandLine): Promise<CommandOutput> {
    const lines = [command.script, ...command.args]
    if (lines.some((line) => /[\r\n]/u.test(line))) {
      return Promise.reject(new CommandFailure(`${this.limits.label} cannot be given a line break`))
    }
    const shell = this.liveShell()
    return new Promise<CommandOutput>((resolve, reject) => {
      shell.pending = {
        request: command,
        resolve,
        reject,
        timer: this.expire(shell, command.timeoutMs),
        stdout: [],
        stdoutBytes: 0,
        stdoutTail: Buffer.alloc(0),
        code: undefined,
        retimed: !command.retime,
        stderrHead: '',
        stderrChars: 0,
        stderrTail: '',
        stderrDone: false,
      }
      shell.process.stdin.write(`${[String(command.args.length), ...command.args, command.script].join('\n')}\n`)
    })
  }

  private liveShell(): Shell {
    if (this.shell && !this.shell.ended) return this.shell
    const shell = new Shell(this.limits)
    const { label } = this.limits
    shell.process.on('error', (error) =>
      this.kill(shell, new CommandFailure(`${label} could not be started: ${error.message}`)),
    )
    // A shell that died has nobody reading its stdin.
    shell.process.stdin.on('error', () => undefined)
    shell.process.on('close', (code, signal) => {
      this.kill(shell, new CommandFailure(`the ${label} shell ended (${signal ?? `exit code ${code}`})`))
    })
    shell.process.stdout.on('data', (chunk: Buffer) => this.onStdout(shell, chunk))
    shell.process.stderr.on('data', (text: string) => this.onStderr(shell, text))
    this.shell = shell
    return shell
  }

  private expire(shell: Shell, ms: number): NodeJS.Timeout {
    return setTimeout(() => this.kill(shell, new CommandFailure(`${this.limits.label} took more than ${ms} ms`)), ms)
  }

  private onStdout(shell: Shell, chunk: Buffer): void {
    const pending = shell.pending
    if (!pending) return
    pending.stdout.push(chunk)
    pending.stdoutBytes += chunk.length
    if (!pending.retimed && chunk.includes(0x0a)) {
      pending.retimed = true
      const firstLine = Buffer.concat(pending.stdout).toString('utf8').split('\n', 1)[0] ?? ''
      clearTimeout(pending.timer)
      pending.timer = this.expire(shell, pending.request.retime?.(firstLine) ?? pending.request.timeoutMs)
    }
    const tailBytes = shell.marker.length + 16
    pending.stdoutTail =
      chunk.length >= tailBytes
        ? chunk.subarray(-tailBytes)
        : Buffer.concat([pending.stdoutTail, chunk]).subarray(-tailBytes)
    const end = shell.stdoutEnd.exec(pending.stdoutTail.toString('latin1'))
    if (end) {
      pending.code = Number(end[1])
      // The marker line and the line break the shell put before it are not the command's.
      pending.stdoutBytes -= (end[0] as string).length
    }
    if (pending.stdoutBytes > this.limits.maxOutputBytes) {
      this.kill(shell, new CommandFailure(`${this.limits.label} wrote more than one run may hold`))
    } else {
      this.settle(shell)
    }
  }

  private onStderr(shell: Shell, text: string): void {
    const pending = shell.pending
    if (!pending) return
    pending.stderrChars += text.length
    if (pending.stderrHead.length < this.limits.maxStderrChars) pending.stderrHead += text
    pending.stderrTail = (pending.stderrTail + text).slice(-(shell.marker.length + 2))
    pending.stderrDone = pending.stderrTail === `\n${shell.marker}\n`
    this.settle(shell)
  }

  /** Resolves the command once both streams have ended with the marker. */
  private settle(shell: Shell): void {
    const pending = shell.pending
    if (!pending || pending.code === undefined || !pending.stderrDone) return
    shell.pending = undefined
    clearTimeout(pending.timer)
    const stderrChars = pending.stderrChars - (shell.marker.length + 2)
    pending.resolve({
      stdout: Buffer.concat(pending.stdout).subarray(0, pending.stdoutBytes),
      stderr: pending.stderrHead.slice(0, Math.min(stderrChars, this.limits.maxStderrChars)),
      code: pending.code,
    })
  }

  private kill(shell: Shell, error: CommandFailure): void {
    const pending = shell.pending
    shell.pending = undefined
    if (pending) {
      clearTimeout(pending.timer)
      pending.reject(error)
    }
    if (this.shell === shell) this.shell = undefined
    if (shell.ended) return
    shell.ended = true
    try {
      if (shell.process.pid) process.kill(-shell.process.pid, 'SIGKILL')
    } catch {
      // Already gone.
    }
  }
}
