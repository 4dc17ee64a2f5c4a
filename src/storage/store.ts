import type { Dialect } from './dialect.js'
import type { BotsRepository } from './ports/bots.js'
import type { ChatsRepository } from './ports/chats.js'
import type { ChunkVectorsRepository } from './ports/chunk-vectors.js'
import type { ChunksRepository } from './ports/chunks.js'
import type { AccessTokensRepository, ApiClientsRepository } from './ports/clients.js'
import type { CompaniesRepository } from './ports/companies.js'
import type { JobsRepository } from './ports/jobs.js'
import type { KnowledgeBaseRepository } from './ports/knowledge-base.js'
import type { MessagesRepository } from './ports/messages.js'
import type { SearchRepository } from './ports/search.js'
import type { TagsRepository } from './ports/tags.js'

/** Every repository over one connection (or one transaction). What the domain persists through. */
export interface Repositories {
  readonly companies: CompaniesRepository
  readonly clients: ApiClientsRepository
  readonly tokens: AccessTokensRepository
  readonly bots: BotsRepository
  readonly chats: ChatsRepository
  readonly knowledgeBase: KnowledgeBaseRepository
  readonly tags: TagsRepository
  readonly jobs: JobsRepository
  /** Chunks of processed documents and their postings (the lexical index). */
  readonly chunks: ChunksRepository
  /** Dense vectors of chunks (LANTERN_EMBEDDINGS); deleted with their chunks. */
  readonly chunkVectors: ChunkVectorsRepository
  /** Reads of retrieval: scopes and lexical statistics over PROCESSED documents. */
  readonly search: SearchRepository
  /** Stored chat messages (user questions and assistant answers). */
  readonly messages: MessagesRepository
}

export interface Store extends Repositories {
  readonly dialect: Dialect
  /**
   * Runs `work` in one transaction: all of its writes commit together or none do. Inside a
   * transaction, a nested call joins the outer one.
   */
  transaction<T>(work: (tx: Repositories) => Promise<T>): Promise<T>
  ping(): Promise<void>
  close(): Promise<void>
}
