import type { Kysely } from 'kysely'
import type { Database } from '../schema.js'

// Skeleton: the tags helper replaces this file.
export class KyselyTagsRepository {
  constructor(readonly db: Kysely<Database>) {}
}
