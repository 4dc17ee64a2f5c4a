import { readFileSync } from 'node:fs'

/** `VmRSS` / `VmHWM` of /proc/<pid>/status in bytes, or undefined when the process is gone (or not Linux). */
function statusBytes(pid: number, field: 'VmRSS' | 'VmHWM'): number | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8')
    const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)
    return match?.[1] ? Number(match[1]) * 1024 : undefined
  } catch {
    return undefined
  }
}

/** Child processes of `pid`, recursively (the service normally has none: workers are threads). */
function descendants(pid: number): number[] {
  const found: number[] = []
  let tasks: string[] = []
  try {
    tasks = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean)
  } catch {
    return found
  }
  for (const child of tasks.map(Number)) found.push(child, ...descendants(child))
  return found
}

/**
 * Samples the resident memory of a process and its child processes every `intervalMs`. The
 * kernel's `VmHWM` (peak resident set of the process, worker threads included) is the number to
 * report; the sampled maximum also covers child processes, if any.
 */
export class RssSampler {
  /** Largest VmHWM seen (the kernel's own peak of the main process). */
  peakHwmBytes = 0
  /** Largest sampled VmRSS of the process plus its descendants. */
  peakTreeRssBytes = 0
  /** Largest sampled VmRSS of the main process, and when it was seen (ms since epoch). */
  peakRssBytes = 0
  peakRssAt = 0
  samples = 0
  private timer: NodeJS.Timeout | undefined

  constructor(
    readonly pid: number,
    readonly intervalMs = 250,
  ) {}

  /** True when /proc is readable for this process (Linux). */
  get available(): boolean {
    return this.samples > 0 && this.peakHwmBytes > 0
  }

  start(): void {
    this.timer ??= setInterval(() => this.sampleNow(), this.intervalMs)
    this.timer.unref()
  }

  sampleNow(): void {
    const hwm = statusBytes(this.pid, 'VmHWM')
    if (hwm === undefined) return
    this.samples++
    this.peakHwmBytes = Math.max(this.peakHwmBytes, hwm)
    const rss = statusBytes(this.pid, 'VmRSS') ?? 0
    if (rss > this.peakRssBytes) {
      this.peakRssBytes = rss
      this.peakRssAt = Date.now()
    }
    let tree = rss
    for (const child of descendants(this.pid)) tree += statusBytes(child, 'VmRSS') ?? 0
    this.peakTreeRssBytes = Math.max(this.peakTreeRssBytes, tree)
  }

  stop(): void {
    clearInterval(this.timer)
    this.timer = undefined
  }
}

/** `812 MiB`. */
export function mib(bytes: number): string {
  return `${Math.round(bytes / 1024 / 1024)} MiB`
}
