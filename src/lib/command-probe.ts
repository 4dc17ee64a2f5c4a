import { type SpawnSyncReturns, spawnSync } from 'node:child_process'

const answers = new Map<string, boolean>()

/**
 * Whether `command args` runs here and its output passes `works`, asked once per process and
 * command line: the tools Lantern can use when installed (mutool, soffice) are probed at start.
 */
export function commandWorks(
  command: string,
  args: readonly string[],
  timeoutMs: number,
  works: (probe: SpawnSyncReturns<string>) => boolean,
): boolean {
  const key = [command, ...args].join('\u0000')
  let answer = answers.get(key)
  if (answer === undefined) {
    const probe = spawnSync(command, args, { encoding: 'utf8', timeout: timeoutMs, windowsHide: true })
    answer = !probe.error && works(probe)
    answers.set(key, answer)
  }
  return answer
}
