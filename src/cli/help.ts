import { UsageError } from './exit-codes.js'

/**
 * True when a command line asks for help: `--help` or `-h` anywhere before a `--`. Checked before
 * the configuration is read and before anything else is parsed, so help works whatever else the
 * line or the environment holds, and changes nothing.
 */
export function asksForHelp(args: readonly string[]): boolean {
  for (const arg of args) {
    if (arg === '--') return false
    if (arg === '--help' || arg === '-h') return true
  }
  return false
}

/** Refuses any argument to a command that takes none, so a mistyped flag never starts a process. */
export function expectNoArguments(args: readonly string[], usage: string): void {
  const [first] = args
  if (first !== undefined) throw new UsageError(`unexpected argument "${first}"\n\n${usage}`)
}
