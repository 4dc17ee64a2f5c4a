#!/usr/bin/env node
import { loadConfig } from '../config.js'
import { AppError } from '../lib/errors.js'
import { CommandError, EXIT, exitCodeOf, UsageError } from './exit-codes.js'
import { asksForHelp, expectNoArguments } from './help.js'

const COMMANDS = `usage: lantern <command>

  serve            run the HTTP API (embedded mode also runs ingestion workers)
  worker           run ingestion workers only (PostgreSQL; scale-out)
  admin …          provisioning: companies, licences, API clients, migrations
  ingest <dir>     upload a directory tree through the HTTP API and wait for processing

  lantern <command> --help (or -h, or lantern help <command>) shows a command's usage and changes
  nothing.`

/** The whole help of `lantern --help`: the commands, then those of admin and ingest in full. */
async function usage(): Promise<string> {
  const { ADMIN_USAGE } = await import('./commands/admin.js')
  const { INGEST_USAGE } = await import('./commands/ingest.js')
  return `${COMMANDS}\n\n${ADMIN_USAGE}\n\n${INGEST_USAGE}`
}

function print(text: string): void {
  process.stdout.write(`${text}\n`)
}

/**
 * Runs one command. Each command's usage is in its own module, with the command; `--help` or `-h`
 * prints it before the configuration is read, so help needs no valid environment and touches
 * nothing. Commands load their modules on demand: an admin call need not load the HTTP stack.
 */
async function main(argv: readonly string[]): Promise<void> {
  const [command, ...rest] = argv
  const help = asksForHelp(rest)
  switch (command) {
    case 'serve': {
      const { runServe, SERVE_USAGE } = await import('./commands/serve.js')
      if (help) return print(SERVE_USAGE)
      expectNoArguments(rest, SERVE_USAGE)
      return runServe(loadConfig())
    }
    case 'worker': {
      const { runWorker, WORKER_USAGE } = await import('./commands/worker.js')
      if (help) return print(WORKER_USAGE)
      expectNoArguments(rest, WORKER_USAGE)
      return runWorker(loadConfig())
    }
    case 'admin': {
      const { adminHelp, runAdmin } = await import('./commands/admin.js')
      if (help) return print(adminHelp(rest))
      return runAdmin(loadConfig(), rest, print)
    }
    case 'ingest': {
      const { runIngest, INGEST_USAGE } = await import('./commands/ingest.js')
      if (help) return print(INGEST_USAGE)
      const config = loadConfig()
      process.exitCode = await runIngest(rest, { dataDir: config.dataDir, env: process.env, stdout: process.stdout })
      return
    }
    case 'help':
      // `lantern help admin company create` is `lantern admin company create --help`.
      if (rest.length > 0) return main([...rest, '--help'])
      return print(await usage())
    case undefined:
    case '--help':
    case '-h':
      return print(await usage())
    default:
      throw new UsageError(`unknown command "${command}"\n\n${await usage()}`)
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  const message =
    error instanceof AppError || error instanceof UsageError || error instanceof Error ? error.message : String(error)
  const code = exitCodeOf(error)
  process.stderr.write(`lantern: ${message}\n`)
  // A system error (port in use, permission denied) says all in its message; anything else is a bug.
  const systemError = typeof (error as { syscall?: unknown } | null)?.syscall === 'string'
  const explained = error instanceof AppError || error instanceof CommandError
  if (code === EXIT.failure && !systemError && !explained && error instanceof Error && error.stack) {
    process.stderr.write(`${error.stack}\n`)
  }
  process.exitCode = code
})
