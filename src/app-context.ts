import type { Config } from './config.js'
import { TokenService } from './domain/auth/tokens.js'
import { CompanyService } from './domain/companies/companies.js'
import type { Services } from './domain/services.js'
import { type Clock, systemClock } from './lib/clock.js'
import { openDatabase } from './storage/database.js'
import { createKyselyStore } from './storage/kysely/store.js'
import { migrateToLatest } from './storage/migrate.js'
import type { Store } from './storage/store.js'

/** The object graph shared by the HTTP server, the CLI and the tests. */
export interface AppContext {
  readonly config: Config
  readonly clock: Clock
  readonly store: Store
  readonly services: Services
  close(): Promise<void>
}

export interface BuildOptions {
  /** Apply pending migrations before returning (embedded mode and tests). */
  readonly migrate: boolean
  readonly clock?: Clock
}

/** The composition root: the only place that chooses adapters from the configuration. */
export async function buildAppContext(config: Config, options: BuildOptions): Promise<AppContext> {
  const clock = options.clock ?? systemClock
  const handle = openDatabase(config)
  try {
    if (options.migrate) await migrateToLatest(handle.db, handle.dialect)
  } catch (error) {
    await handle.close()
    throw error
  }
  const store = createKyselyStore(handle)
  const services: Services = {
    tokens: new TokenService({ store, clock, tokenTtlSeconds: config.tokenTtlSeconds }),
    companies: new CompanyService({ store, clock }),
  }
  return { config, clock, store, services, close: () => store.close() }
}
