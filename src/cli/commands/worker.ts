import pino from 'pino'
import { buildAppContext } from '../../app-context.js'
import { type Config, ConfigError } from '../../config.js'
import { newId } from '../../lib/ids.js'
import { openDatabase } from '../../storage/database.js'
import { pendingMigrations } from '../../storage/migrate.js'

async function assertMigrated(config: Config): Promise<void> {
  const handle = openDatabase(config)
  try {
    const pending = await pendingMigrations(handle.db, handle.dialect)
    if (pending.length > 0) {
      throw new Error(`the database needs migrations (${pending.join(', ')}): run "lantern admin migrate" first`)
    }
  } finally {
    await handle.close()
  }
}

/**
 * `lantern worker`: ingestion only, for scale-out on PostgreSQL; any number of workers and API
 * processes share the job queue there. The embedded SQLite store belongs to one process, whose
 * `lantern serve` runs the workers itself, so this refuses it (exit code 5). On SIGTERM or SIGINT
 * it claims nothing more, lets documents in progress finish within LANTERN_SHUTDOWN_GRACE_MS, and
 * hands the others back to the queue so another worker takes them at once.
 */
export async function runWorker(config: Config): Promise<void> {
  if (!config.databaseUrl) {
    throw new ConfigError(
      'lantern worker needs PostgreSQL (set LANTERN_DATABASE_URL): the embedded SQLite store is used by one process only, and there `lantern serve` runs the ingestion workers itself',
    )
  }
  if (config.workers < 1) throw new ConfigError('LANTERN_WORKERS must be at least 1 for lantern worker')
  const logger = pino({ level: config.logLevel })
  await assertMigrated(config)
  const ctx = await buildAppContext(config, { migrate: false })
  const owner = `worker-${newId()}`
  const runner = ctx.createJobRunner({ owner, logger })

  let stopping = false
  const stop = async (signal: string) => {
    if (stopping) return
    stopping = true
    logger.info({ signal, running: runner.running }, 'shutting down: finishing documents in progress')
    const force = setTimeout(() => {
      logger.error('shutdown grace period over; exiting')
      process.exit(1)
    }, config.shutdownGraceMs + 5000)
    force.unref()
    const released = await runner.stop(config.shutdownGraceMs)
    if (released > 0) logger.info({ released }, 'released job leases')
    await ctx.close()
    logger.info('stopped')
  }
  const stopOn = (signal: string) => {
    stop(signal).catch((error: unknown) => {
      logger.error({ err: error }, 'shutdown failed')
      process.exitCode = 1
    })
  }
  process.once('SIGTERM', () => stopOn('SIGTERM'))
  process.once('SIGINT', () => stopOn('SIGINT'))

  runner.start()
  logger.info({ owner, concurrency: config.workers, leaseMs: config.jobLeaseMs }, 'lantern worker is running')
}
