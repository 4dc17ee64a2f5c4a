import type { Kysely } from 'kysely'
import type { DatabaseHandle, RowInserter } from '../database.js'
import type { Dialect } from '../dialect.js'
import type { Database } from '../schema.js'
import type { Repositories, Store } from '../store.js'
import { KyselyBotsRepository } from './bots.js'
import { KyselyChatsRepository } from './chats.js'
import { KyselyChunkVectorsRepository } from './chunk-vectors.js'
import { KyselyChunksRepository } from './chunks.js'
import { KyselyAccessTokensRepository, KyselyApiClientsRepository } from './clients.js'
import { KyselyCompaniesRepository } from './companies.js'
import { KyselyJobsRepository } from './jobs.js'
import { KyselyKnowledgeBaseRepository } from './knowledge-base.js'
import { KyselyMessagesRepository } from './messages.js'
import { KyselySearchRepository } from './search.js'
import { KyselyTagsRepository } from './tags.js'

function repositories(db: Kysely<Database>, dialect: Dialect, insertRows: RowInserter | undefined): Repositories {
  return {
    companies: new KyselyCompaniesRepository(db),
    clients: new KyselyApiClientsRepository(db),
    tokens: new KyselyAccessTokensRepository(db),
    bots: new KyselyBotsRepository(db),
    chats: new KyselyChatsRepository(db),
    knowledgeBase: new KyselyKnowledgeBaseRepository(db),
    tags: new KyselyTagsRepository(db),
    jobs: new KyselyJobsRepository(db, dialect),
    chunks: new KyselyChunksRepository(db, insertRows),
    chunkVectors: new KyselyChunkVectorsRepository(db),
    messages: new KyselyMessagesRepository(db),
    search: new KyselySearchRepository(db),
  }
}

/** The Store over either dialect: the SQL is shared through Kysely. */
export function createKyselyStore(handle: DatabaseHandle): Store {
  const root = repositories(handle.db, handle.dialect, handle.insertRows)
  return {
    ...root,
    dialect: handle.dialect,
    transaction: (work) =>
      handle.db.transaction().execute((trx) => work(repositories(trx, handle.dialect, handle.insertRows))),
    ping: () => handle.ping(),
    close: () => handle.close(),
  }
}
