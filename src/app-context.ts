import { join } from 'node:path'
import type { Config } from './config.js'
import { TokenService } from './domain/auth/tokens.js'
import { BotService } from './domain/bots/bots.js'
import { ChatService } from './domain/chats/chats.js'
import { CompanyService } from './domain/companies/companies.js'
import { KnowledgeBaseService } from './domain/knowledge-base/knowledge-base.js'
import type { Services } from './domain/services.js'
import { TagService } from './domain/tags/tags.js'
import { IngestJobHandler, ingestSettings } from './ingestion/ingest-job.js'
import type { JobLogger } from './jobs/handler.js'
import { JobRunner } from './jobs/runner.js'
import { type Clock, systemClock } from './lib/clock.js'
import { DatabaseBlobStore } from './storage/blobs/database-blob-store.js'
import { FileBlobStore } from './storage/blobs/file-blob-store.js'
import { openDatabase } from './storage/database.js'
import { createKyselyStore } from './storage/kysely/store.js'
import { migrateToLatest } from './storage/migrate.js'
import type { BlobStore } from './storage/ports/blobs.js'
import type { Store } from './storage/store.js'

/** The object graph shared by the HTTP server, the CLI and the tests. */
export interface AppContext {
  readonly config: Config
  readonly clock: Clock
  readonly store: Store
  /** Original bytes of documents: files under the data dir, or rows in PostgreSQL. */
  readonly blobs: BlobStore
  readonly services: Services
  /**
   * A runner for the durable jobs (ingestion) over this context's store; nothing runs until the
   * caller starts it. `concurrency` defaults to LANTERN_WORKERS.
   */
  createJobRunner(options: JobRunnerFactoryOptions): JobRunner
  close(): Promise<void>
}

export interface JobRunnerFactoryOptions {
  /** Unique per runner: `worker-<uuid>`, `api-<uuid>`. */
  readonly owner: string
  readonly concurrency?: number
  readonly logger?: JobLogger
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
  const blobs: BlobStore = config.databaseUrl
    ? new DatabaseBlobStore(handle.db)
    : new FileBlobStore(join(config.dataDir, 'blobs'))
  const bots = new BotService({ store, clock })
  const services: Services = {
    tokens: new TokenService({ store, clock, tokenTtlSeconds: config.tokenTtlSeconds }),
    companies: new CompanyService({ store, clock }),
    knowledgeBase: new KnowledgeBaseService({ store, blobs, clock }),
    tags: new TagService({ store, clock }),
    bots,
    chats: new ChatService({ store, clock, bots }),
  }
  const createJobRunner = (options: JobRunnerFactoryOptions): JobRunner =>
    new JobRunner(
      {
        store,
        clock,
        logger: options.logger,
        handlers: { ingest: new IngestJobHandler({ store, blobs, clock, settings: ingestSettings(config) }) },
      },
      { owner: options.owner, concurrency: options.concurrency ?? config.workers, leaseMs: config.jobLeaseMs },
    )
  return { config, clock, store, blobs, services, createJobRunner, close: () => store.close() }
}
