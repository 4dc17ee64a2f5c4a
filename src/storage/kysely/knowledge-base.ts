import type { Kysely } from 'kysely'
import type { Database } from '../schema.js'

// Skeleton: the knowledge-base helper replaces this file.
export class KyselyKnowledgeBaseRepository {
  constructor(readonly db: Kysely<Database>) {}
}
