import { type Config, ConfigError } from '../../config.js'
import { newId } from '../../lib/ids.js'

export const WORKER_USAGE = `usage: lantern worker

  Runs ingestion workers only, for scale-out: any number of lantern worker and lantern serve
  processes share one PostgreSQL job queue (LANTERN_DATABASE_URL). With the embedded SQLite store
  it refuses to start (exit code 5): there lantern serve runs the workers itself. Refuses to start
  while migrations are pending, like serve.
  Reads LANTERN_WORKERS documents at a time and takes twice as many jobs. On SIGTERM or SIGINT it
  claims nothing more, lets documents in progress finish within LANTERN_SHUTDOWN_GRACE_MS, hands
  the others back to the queue and exits 0.
  Takes no arguments: every setting comes from the environment (docs/configuration.md).`

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
  // The ingestion stack loads here rather than with this file, so that `lantern worker --help` does not load it.
  const { default: pino } = await import('pino')
  const { buildAppContext } = await import('../../app-context.js')
  const { assertMigrated, logPdfTextReader, stopOnSignals } = await import('../process-lifecycle.js')
  const logger = pino({ level: config.logLevel })
  await assertMigrated(config)
  const ctx = await buildAppContext(config, { migrate: false })
  const owner = `worker-${newId()}`
  const runner = ctx.createJobRunner({ owner, logger })

  stopOnSignals(logger, config.shutdownGraceMs + 5000, async (signal) => {
    logger.info({ signal, running: runner.running }, 'shutting down: finishing documents in progress')
    const released = await runner.stop(config.shutdownGraceMs)
    if (released > 0) logger.info({ released }, 'released job leases')
    await ctx.close()
    logger.info('stopped')
  })

  runner.start()
  logger.info({ owner, concurrency: config.workers, leaseMs: config.jobLeaseMs }, 'lantern worker is running')
  logPdfTextReader(logger, config, ctx.ingestion)
}
