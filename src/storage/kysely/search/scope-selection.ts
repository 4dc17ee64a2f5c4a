import { type Expression, type ExpressionBuilder, type Kysely, type SqlBool, sql } from 'kysely'
import type { DocumentSelection, ScopeSelection } from '../../ports/search.js'
import type { Database } from '../../schema.js'
import { PROCESSED } from './searchable.js'

type DocumentExpressions = ExpressionBuilder<Database, 'kb_objects'>

/** Entries strictly below a folder: a byte-wise range on object_name (`0` is the byte after `/`), so the index applies. */
function below(eb: DocumentExpressions, folder: string): Expression<SqlBool> {
  if (folder === '/') return sql<SqlBool>`1 = 1`
  return eb.and([eb('object_name', '>', folder), eb('object_name', '<', `${folder.slice(0, -1)}0`)])
}

/** The documents a scope selects, by folder, tag or id. */
export class KyselyScopeSelection implements ScopeSelection {
  constructor(private readonly db: Kysely<Database>) {}

  async processedDocumentIds(companyId: string, selection: DocumentSelection): Promise<string[]> {
    const { folders, tagIds, documentIds } = selection
    if (folders.length === 0 && tagIds.length === 0 && documentIds.length === 0) return []
    const rows = await this.db
      .selectFrom('kb_objects')
      .select('id')
      .where('company_id', '=', companyId)
      .where('is_folder', '=', 0)
      .where('embedding_state', '=', PROCESSED)
      .where((eb) => {
        const any: Expression<SqlBool>[] = folders.map((folder) => below(eb, folder))
        if (documentIds.length > 0) any.push(eb('id', 'in', [...documentIds]))
        if (tagIds.length > 0) {
          any.push(
            eb(
              'id',
              'in',
              eb
                .selectFrom('document_tags')
                .select('document_id')
                .where('company_id', '=', companyId)
                .where('tag_id', 'in', [...tagIds]),
            ),
          )
        }
        return eb.or(any)
      })
      .execute()
    return rows.map((row) => row.id).sort()
  }
}
