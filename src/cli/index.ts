#!/usr/bin/env node
import { loadConfig } from '../config.js'
import { AppError } from '../domain/errors.js'
import { EXIT, exitCodeOf, UsageError } from './exit-codes.js'
import { ADMIN_USAGE } from './usage.js'

const USAGE = `usage: lantern <command>

  serve            run the HTTP API (embedded mode also runs ingestion workers)
  admin …          provisioning: companies, licences, API clients, migrations

${ADMIN_USAGE}`

async function main(argv: readonly string[]): Promise<void> {
  const [command, ...rest] = argv
  switch (command) {
    // Commands load their modules on demand: an admin call need not load the HTTP stack.
    case 'serve': {
      const config = loadConfig()
      const { runServe } = await import('./commands/serve.js')
      return runServe(config)
    }
    case 'admin': {
      const config = loadConfig()
      const { runAdmin } = await import('./commands/admin.js')
      return runAdmin(config, rest, (text) => process.stdout.write(`${text}\n`))
    }
    case undefined:
    case 'help':
    case '--help':
    case '-h':
      process.stdout.write(`${USAGE}\n`)
      return
    default:
      throw new UsageError(`unknown command "${command}"\n\n${USAGE}`)
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  const message =
    error instanceof AppError || error instanceof UsageError || error instanceof Error ? error.message : String(error)
  const code = exitCodeOf(error)
  process.stderr.write(`lantern: ${message}\n`)
  // A system error (port in use, permission denied) says all in its message; anything else is a bug.
  const systemError = typeof (error as { syscall?: unknown } | null)?.syscall === 'string'
  if (code === EXIT.failure && !systemError && !(error instanceof AppError) && error instanceof Error && error.stack) {
    process.stderr.write(`${error.stack}\n`)
  }
  process.exitCode = code
})
