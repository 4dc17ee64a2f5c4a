import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { FastifyInstance } from 'fastify'
import type { Logger } from 'pino'
import type { AppContext } from '../../app-context.js'
import type { Config } from '../../config.js'
import { bootstrapFirstCompany } from '../../domain/companies/bootstrap.js'
import type { JobRunner } from '../../jobs/runner.js'
import { newId } from '../../lib/ids.js'
import { credentialsJson } from './admin.js'

export const SERVE_USAGE = `usage: lantern serve

  Runs the HTTP API on HOST:PORT (default 127.0.0.1:8080) until SIGTERM or SIGINT, then lets
  in-flight requests finish (LANTERN_SHUTDOWN_GRACE_MS) and exits 0.
  Embedded store (no LANTERN_DATABASE_URL): applies pending migrations, runs LANTERN_WORKERS
  ingestion workers, and on the first start creates company "Default" and prints its credentials
  once (also written to $LANTERN_DATA_DIR/credentials.json).
  PostgreSQL: refuses to start while migrations are pending (run "lantern admin migrate" first) and
  never creates a company.
  Takes no arguments: every setting comes from the environment (docs/configuration.md). On Linux,
  start it with MALLOC_ARENA_MAX=2, as npm start does.`

async function announceFirstCompany(ctx: AppContext, logger: Logger, baseUrl: string): Promise<void> {
  const credentials = await bootstrapFirstCompany(
    ctx.services.companies,
    async () => (await ctx.store.companies.count()) === 0,
  )
  if (!credentials) return
  const file = join(ctx.config.dataDir, 'credentials.json')
  const content = { ...credentialsJson(credentials), base_url: `${baseUrl}/apif/v2` }
  await writeFile(file, `${JSON.stringify(content, null, 2)}\n`, { mode: 0o600 })
  logger.info({ file }, 'created company "Default"; its credentials are shown once below and saved to the file')
  // One write: pino writes to the same descriptor on its own schedule and must not split the banner.
  process.stdout.write(
    `\nFirst start: company "Default" created. API credentials (also in ${file}):\n` +
      `${JSON.stringify(content, null, 2)}\n\n`,
  )
}

/**
 * `lantern serve`: the HTTP API. Embedded mode migrates on start and creates the first company;
 * on PostgreSQL the schema must have been migrated by `lantern admin migrate`.
 */
export async function runServe(config: Config): Promise<void> {
  // The service loads here rather than with this file, so that `lantern serve --help` does not load it.
  const { default: pino } = await import('pino')
  const { buildAppContext } = await import('../../app-context.js')
  const { buildServer } = await import('../../http/server.js')
  const { assertMigrated, logPdfTextReader, stopOnSignals } = await import('../process-lifecycle.js')
  const logger = pino({ level: config.logLevel })
  const embedded = !config.databaseUrl
  if (!embedded) await assertMigrated(config)
  const ctx = await buildAppContext(config, { migrate: embedded })
  let app: FastifyInstance | undefined
  let started: Promise<void> | undefined
  const workerId = `api-${newId()}`
  // Embedded ingestion workers (LANTERN_WORKERS of them, none when 0), started once listening.
  let runner: JobRunner | undefined

  // Registered before listening, so a signal during start-up still shuts down cleanly.
  const signals = stopOnSignals(logger, config.shutdownGraceMs, async (signal) => {
    logger.info({ signal }, 'shutting down: finishing in-flight requests')
    const deadline = Date.now() + config.shutdownGraceMs
    runner?.stopClaiming()
    // A signal during start-up lets it finish first, so nothing is left half-done or listening.
    await started?.catch(() => undefined)
    if (app) {
      app.lanternState.closing = true
      await app.close()
    }
    // Documents in progress may finish in what is left of the grace period (a second is kept for
    // closing); the others go back to the queue at once, for another process to take.
    const released = runner
      ? await runner.stop(Math.max(0, deadline - Date.now() - 1000))
      : await ctx.store.jobs.releaseLeases(workerId, ctx.clock.now())
    if (released > 0) logger.info({ released }, 'released job leases')
    await ctx.close()
    logger.info('stopped')
  })

  try {
    started = (async () => {
      app = await buildServer(ctx, logger)
      const address = await app.listen({ host: config.host, port: config.port })
      logger.info({ address, store: ctx.store.dialect, dataDir: config.dataDir, workerId }, 'lantern is listening')
      if (config.workers > 0 && !signals.stopping()) {
        runner = ctx.createJobRunner({ owner: workerId, logger })
        runner.start()
        logPdfTextReader(logger, config, ctx.ingestion)
      }
      if (embedded) await announceFirstCompany(ctx, logger, address)
    })()
    await started
  } catch (error) {
    if (signals.stopping()) return
    // An open pool would keep the process alive after the error is reported.
    await runner?.stop(0)
    await app?.close()
    await ctx.close()
    throw error
  }
}
