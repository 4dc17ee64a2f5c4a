import { type ChildProcess, spawn } from 'node:child_process'
import { type LogLine, lanternEnv, type ProcessEnv, ROOT } from '../support/processes.js'

/** A spawned `lantern worker` with its JSON log captured. */
export class WorkerProcess {
  stdout = ''
  stderr = ''
  exitCode: number | null | undefined
  exitSignal: NodeJS.Signals | null | undefined
  private readonly child: ChildProcess
  private readonly exited: Promise<number | null>

  private constructor(env: ProcessEnv) {
    this.child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/index.ts', 'worker'], {
      cwd: ROOT,
      env: lanternEnv({ LANTERN_LOG_LEVEL: 'info', ...env }),
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    this.child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      this.stdout += chunk
    })
    this.child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
      this.stderr += chunk
    })
    this.exited = new Promise((resolve) => {
      this.child.on('close', (code, signal) => {
        this.exitCode = code
        this.exitSignal = signal
        resolve(code)
      })
    })
  }

  /** Spawns `lantern worker` and waits until it says it runs. */
  static async start(env: ProcessEnv, timeoutMs = 30_000): Promise<WorkerProcess> {
    const worker = new WorkerProcess(env)
    await worker.waitForLog((line) => line.msg === 'lantern worker is running', timeoutMs)
    return worker
  }

  /** The runner's owner id, as written on the leases it takes. */
  get owner(): string {
    return String(this.logLines().find((line) => line.msg === 'lantern worker is running')?.owner)
  }

  logLines(): LogLine[] {
    const lines: LogLine[] = []
    for (const text of this.stdout.split('\n')) {
      if (!text.startsWith('{')) continue
      try {
        lines.push(JSON.parse(text) as LogLine)
      } catch {
        // a line still being written
      }
    }
    return lines
  }

  async waitForLog(match: (line: LogLine) => boolean, timeoutMs = 15_000): Promise<LogLine> {
    const deadline = Date.now() + timeoutMs
    for (;;) {
      const found = this.logLines().find(match)
      if (found) return found
      if (this.exitCode !== undefined) throw new Error(`worker exited (${this.exitCode}):\n${this.output()}`)
      if (Date.now() > deadline) throw new Error(`timed out waiting for a log line:\n${this.output()}`)
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
  }

  output(): string {
    return `--- stdout ---\n${this.stdout}\n--- stderr ---\n${this.stderr}`
  }

  signal(signal: NodeJS.Signals): void {
    this.child.kill(signal)
  }

  waitForExit(): Promise<number | null> {
    return this.exited
  }

  /** SIGTERM, then the exit code; SIGKILL if it has not ended within `timeoutMs`. */
  async stop(timeoutMs = 20_000): Promise<number | null> {
    if (this.exitCode !== undefined) return this.exitCode
    this.child.kill('SIGTERM')
    const timer = setTimeout(() => this.child.kill('SIGKILL'), timeoutMs)
    try {
      return await this.exited
    } finally {
      clearTimeout(timer)
    }
  }
}
