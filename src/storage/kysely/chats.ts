import type { Kysely } from 'kysely'
import type { Database } from '../schema.js'

// Skeleton: the chats helper replaces this file.
export class KyselyChatsRepository {
  constructor(readonly db: Kysely<Database>) {}
}
