import { readdirSync, readFileSync } from 'node:fs'

/** Clock ticks per second of /proc times (USER_HZ: 100 on every Linux build Node supports). */
const TICKS_PER_SECOND = 100

/** CPU seconds of a process so far, from /proc (Linux); undefined when it is gone or not Linux. */
export interface CpuTimes {
  /** User + system time of all its threads. */
  readonly processSeconds: number
  /** User + system time of its main thread (the thread whose id is the pid). */
  readonly mainThreadSeconds: number
  /**
   * User + system time of its child processes: those that ended and were waited for, and those
   * still running (the processing threads' mutool shells) with the mutool runs they waited for.
   */
  readonly childSeconds: number
}

/** Fields of a /proc stat line from field 3 (state) on: the command name may hold spaces. */
function statFields(path: string): string[] | undefined {
  try {
    const line = readFileSync(path, 'utf8')
    return line.slice(line.lastIndexOf(')') + 2).split(' ')
  } catch {
    return undefined
  }
}

const seconds = (...ticks: (string | undefined)[]) =>
  ticks.reduce((sum, value) => sum + Number(value ?? 0), 0) / TICKS_PER_SECOND

/** User + system time of the running children of `pid`, with that of the children they waited for. */
function runningChildrenSeconds(pid: number): number {
  let total = 0
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/u.test(entry)) continue
    const fields = statFields(`/proc/${entry}/stat`)
    // Field 4 (ppid) is at 1 counting from field 3.
    if (fields && Number(fields[1]) === pid) total += seconds(fields[11], fields[12], fields[13], fields[14])
  }
  return total
}

export function cpuTimes(pid: number): CpuTimes | undefined {
  const process = statFields(`/proc/${pid}/stat`)
  const main = statFields(`/proc/${pid}/task/${pid}/stat`)
  if (!process || !main) return undefined
  // Fields 14–17 (utime, stime, cutime, cstime) are at 11–14 counting from field 3.
  return {
    processSeconds: seconds(process[11], process[12]),
    mainThreadSeconds: seconds(main[11], main[12]),
    childSeconds: seconds(process[13], process[14]) + runningChildrenSeconds(pid),
  }
}
