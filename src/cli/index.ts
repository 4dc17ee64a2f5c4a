#!/usr/bin/env node
import { loadConfig } from '../config.js'
import { AppError } from '../domain/errors.js'
import { CommandError, EXIT, exitCodeOf, UsageError } from './exit-codes.js'
import { ADMIN_USAGE, INGEST_USAGE } from './usage.js'

const USAGE = `usage: lantern <command>

  serve            run the HTTP API (embedded mode also runs ingestion workers)
  worker           run ingestion workers only (PostgreSQL; scale-out)
  admin …          provisioning: companies, licences, API clients, migrations
  ingest <dir>     upload a directory tree through the HTTP API and wait for processing

${ADMIN_USAGE}

${INGEST_USAGE}`

async function main(argv: readonly string[]): Promise<void> {
  const [command, ...rest] = argv
  switch (command) {
    // Commands load their modules on demand: an admin call need not load the HTTP stack.
    case 'serve': {
      const config = loadConfig()
      const { runServe } = await import('./commands/serve.js')
      return runServe(config)
    }
    case 'worker': {
      const config = loadConfig()
      const { runWorker } = await import('./commands/worker.js')
      return runWorker(config)
    }
    case 'admin': {
      const config = loadConfig()
      const { runAdmin } = await import('./commands/admin.js')
      return runAdmin(config, rest, (text) => process.stdout.write(`${text}\n`))
    }
    case 'ingest': {
      const config = loadConfig()
      const { runIngest } = await import('./commands/ingest.js')
      process.exitCode = await runIngest(rest, { dataDir: config.dataDir, env: process.env, stdout: process.stdout })
      return
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
  const explained = error instanceof AppError || error instanceof CommandError
  if (code === EXIT.failure && !systemError && !explained && error instanceof Error && error.stack) {
    process.stderr.write(`${error.stack}\n`)
  }
  process.exitCode = code
})
