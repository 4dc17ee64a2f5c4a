import { randomUUID } from 'node:crypto'
import { join } from 'node:path'
import pino from 'pino'
import { LlmSummarizer, offlineSummarizer } from './answering/export.js'
import { ExtractiveAnswerer } from './answering/extractive-answerer.js'
import { LlmAnswerer } from './answering/llm-answerer.js'
import { chatModelFromConfig } from './answering/providers/from-config.js'
import type { Answerer } from './answering/types.js'
import type { Config } from './config.js'
import { DataAnalysis } from './data-analysis/data-analysis.js'
import { createOfflinePlanner } from './data-analysis/offline-planner/index.js'
import { choosePlanner } from './data-analysis/planners.js'
import { TableCache } from './data-analysis/table-cache.js'
import { TablePreparation } from './data-analysis/table-preparation.js'
import { TokenService } from './domain/auth/tokens.js'
import { BotService } from './domain/bots/bots.js'
import { AnalysisTurns } from './domain/chats/analysis-turns.js'
import { ChatService } from './domain/chats/chats.js'
import { Conversation } from './domain/chats/conversation.js'
import { ChatExportService } from './domain/chats/export.js'
import { MessageService } from './domain/chats/messages.js'
import { CompanyService } from './domain/companies/companies.js'
import { KnowledgeBaseService } from './domain/knowledge-base/knowledge-base.js'
import { SearchService } from './domain/search/search.js'
import type { Services } from './domain/services.js'
import { TagService } from './domain/tags/tags.js'
import { EmbedJobHandler, enqueueEmbeddingBackfill } from './ingestion/jobs/embed-job.js'
import { IngestJobHandler, type ProcessedFile } from './ingestion/jobs/ingest-job.js'
import { type IngestSettings, ingestSettings } from './ingestion/jobs/settings.js'
import type { JobLogger } from './jobs/handler.js'
import { JobRunner } from './jobs/runner.js'
import { type Clock, systemClock } from './lib/clock.js'
import { AppError } from './lib/errors.js'
import { processDirectory, removeOrphanedDirectories } from './lib/process-directories.js'
import { embedderFromConfig } from './retrieval/embeddings/from-config.js'
import { HybridRetriever } from './retrieval/hybrid-retriever.js'
import { lexicalRetrieverFromConfig } from './retrieval/lexical-from-config.js'
import type { ExplainingRetriever } from './retrieval/types.js'
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
  /** How this process's workers process documents, with the tools found here (computed once). */
  readonly ingestion: IngestSettings
  /** Ranked chunks within a scope: what the search extension and the conversation pipeline use. */
  readonly retriever: ExplainingRetriever
  /**
   * A runner for the durable jobs (ingestion) over this context's store; nothing runs until the
   * caller starts it. `concurrency` (processing threads) defaults to LANTERN_WORKERS; the runner
   * takes twice as many jobs (`jobsInFlight`).
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
  const chats = new ChatService({ store, clock, bots })
  // Set when LANTERN_LLM_BASE_URL is: answers and summaries then come from the LLM, offline on failure.
  const chatModel = chatModelFromConfig(config.llm)
  const answeringLogger = pino({ level: config.logLevel, name: 'answering' })
  const summarizer = chatModel ? new LlmSummarizer(chatModel, answeringLogger) : offlineSummarizer
  // Set when LANTERN_EMBEDDINGS is not `none`: chunk vectors at ingestion, fused with BM25 at search.
  const embedder = embedderFromConfig(config.embeddings)
  // In-memory index per company (LANTERN_SEARCH_INDEX_MB), kept fresh from the store's change log.
  const lexical = lexicalRetrieverFromConfig(config, store.search, (companyId, bytes) =>
    answeringLogger.warn(
      { companyId, mib: Math.round(bytes / 2 ** 20) },
      'lexical index over LANTERN_SEARCH_INDEX_MB; searching the store',
    ),
  )
  const retriever: ExplainingRetriever = embedder
    ? new HybridRetriever({
        lexical,
        embedder,
        vectors: store.chunkVectors,
        search: store.search,
        onEmbeddingError: (error) =>
          answeringLogger.warn({ err: (error as Error).message }, 'query embedding failed; lexical ranking only'),
      })
    : lexical
  const offlineAnswerer: Answerer = new ExtractiveAnswerer()
  const answerer: Answerer = chatModel
    ? new LlmAnswerer({ model: chatModel, fallback: offlineAnswerer, logger: answeringLogger })
    : offlineAnswerer
  // Data-analysis mode: tables loaded into DuckDB files private to this process; the LLM writes the
  // query when configured (the offline question parser when it cannot be reached), else the offline parser.
  const workDir = join(config.dataDir, 'tmp')
  const ingestion = ingestSettings(config)
  // Left by processes that crashed; a failure here only leaves disk space unreclaimed.
  void removeOrphanedDirectories(workDir, ['analysis', 'tables']).catch(() => {})
  const tableFileSettings = {
    maxCells: config.analysisMaxCells,
    engine: { memoryLimit: `${config.analysisMemoryMb}MB`, threads: 2 },
    ingestLimits: ingestion.limits,
    soffice: ingestion.soffice,
  }
  const tableCache = new TableCache(blobs, {
    ...tableFileSettings,
    directory: processDirectory(workDir, 'analysis', randomUUID().slice(0, 8)),
    maxBytes: config.analysisCacheMb * 1024 * 1024,
  })
  const analysisLogger = pino({ level: config.logLevel, name: 'analysis' })
  // Workers load each table document into a typed DuckDB file as they process it, stored beside
  // the document, so the first question in any process does not wait for the load.
  const tablePreparation = new TablePreparation(blobs, {
    ...tableFileSettings,
    directory: processDirectory(workDir, 'tables', randomUUID().slice(0, 8)),
  })
  const prepareTables = (document: ProcessedFile): Promise<void> =>
    tablePreparation.prepare(document.blobKey, document.run, document).catch((error) => {
      // Too large or not readable as a table: data-analysis mode says so when asked.
      const expected = error instanceof AppError
      analysisLogger[expected ? 'info' : 'warn'](
        { err: (error as Error).message, documentId: document.documentId },
        'tables not prepared',
      )
    })
  const dataAnalysis = new DataAnalysis({
    cache: tableCache,
    planner: choosePlanner(createOfflinePlanner(), chatModel, {
      timeoutMs: config.llm?.timeoutMs,
      onError: (error) =>
        analysisLogger.warn({ err: (error as Error).message }, 'LLM planner failed; offline planner used'),
    }),
    limits: {
      memoryLimit: `${config.analysisMemoryMb}MB`,
      threads: 2,
      timeoutMs: config.analysisTimeoutMs,
      rowLimit: 10_000,
    },
    onError: (error, what) => analysisLogger.warn({ err: (error as Error).message }, what),
  })
  const services: Services = {
    tokens: new TokenService({ store, clock, tokenTtlSeconds: config.tokenTtlSeconds }),
    companies: new CompanyService({ store, clock }),
    knowledgeBase: new KnowledgeBaseService({ store, blobs, clock }),
    tags: new TagService({ store, clock }),
    bots,
    chats,
    chatExport: new ChatExportService({ store, clock, chats, summarizer }),
    search: new SearchService({ store, retriever }),
    messages: new MessageService({
      store,
      clock,
      chats,
      conversation: new Conversation({ retriever, answerer }),
      analysis: new AnalysisTurns(dataAnalysis, (error) =>
        analysisLogger.warn({ err: (error as Error).message }, 'automatic routing failed; answered from retrieval'),
      ),
    }),
  }
  const createJobRunner = (options: JobRunnerFactoryOptions): JobRunner => {
    const threads = options.concurrency ?? config.workers
    const ingest = new IngestJobHandler({
      store,
      blobs,
      clock,
      settings: ingestion,
      embedder,
      afterProcessing: prepareTables,
      processingThreads: threads,
    })
    const runner = new JobRunner(
      {
        store,
        clock,
        logger: options.logger,
        handlers: embedder ? { ingest, embed: new EmbedJobHandler({ store, embedder }) } : { ingest },
      },
      { owner: options.owner, concurrency: jobsInFlight(threads), leaseMs: config.jobLeaseMs },
    )
    if (embedder && threads > 0) {
      // Documents processed before this embedding model was configured get their vectors in the background.
      enqueueEmbeddingBackfill(store, embedder, clock).then(
        (queued) => {
          if (queued > 0) options.logger?.info({ queued, model: embedder.name }, 'embedding backfill queued')
        },
        (error: unknown) => options.logger?.warn({ err: (error as Error).message }, 'embedding backfill not queued'),
      )
    }
    return runner
  }
  const close = async (): Promise<void> => {
    await tableCache.close()
    await tablePreparation.close()
    await store.close()
  }
  return { config, clock, store, blobs, services, ingestion, retriever, createJobRunner, close }
}

/**
 * Jobs a runner takes at once for `threads` processing threads: two per thread, so that every
 * thread that has handed its document's last batch to the store reads its next document while
 * that batch and the document's index are written, instead of waiting for them (with one job
 * more than threads, the threads still waited whenever the store fell behind by two documents).
 */
export function jobsInFlight(threads: number): number {
  return threads > 0 ? 2 * threads : 0
}
