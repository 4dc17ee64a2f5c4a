import type { Logger } from 'pino'
import type { Config } from '../config.js'
import { openDatabase } from '../storage/database.js'
import { pendingMigrations } from '../storage/migrate.js'

/** Refuses to start a PostgreSQL process on a schema that `lantern admin migrate` has not brought up to date. */
export async function assertMigrated(config: Config): Promise<void> {
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
 * Runs `stop` once on the first SIGTERM or SIGINT, and exits with status 1 if it has not finished
 * `forceAfterMs` later (a stuck shutdown must not keep the process alive).
 */
export function stopOnSignals(
  logger: Logger,
  forceAfterMs: number,
  stop: (signal: string) => Promise<void>,
): { readonly stopping: () => boolean } {
  let stopping = false
  const onSignal = (signal: string) => {
    if (stopping) return
    stopping = true
    const force = setTimeout(() => {
      logger.error('shutdown grace period over; exiting')
      process.exit(1)
    }, forceAfterMs)
    force.unref()
    stop(signal).catch((error: unknown) => {
      logger.error({ err: error }, 'shutdown failed')
      process.exitCode = 1
    })
  }
  process.once('SIGTERM', () => onSignal('SIGTERM'))
  process.once('SIGINT', () => onSignal('SIGINT'))
  return { stopping: () => stopping }
}
