import { type Kysely, type Selectable, sql } from 'kysely'
import type { Timestamp } from '../../lib/clock.js'
import { translateUnique } from '../errors.js'
import type { TagRecord, TagsRepository } from '../ports/tags.js'
import type { Database, TagsTable } from '../schema.js'
import { containsPattern } from './like.js'

/** Case-insensitive identity of a tag name; the unique key of a company's tags. */
export function tagNameKey(name: string): string {
  return name.normalize('NFC').toLowerCase()
}

function toRecord(row: Selectable<TagsTable>): TagRecord {
  return { id: row.id, companyId: row.company_id, name: row.name, createdAt: row.created_at, updatedAt: row.updated_at }
}

export class KyselyTagsRepository implements TagsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(tag: TagRecord): Promise<void> {
    await translateUnique('tag', tag.name, () =>
      this.db
        .insertInto('tags')
        .values({
          id: tag.id,
          company_id: tag.companyId,
          name: tag.name,
          name_key: tagNameKey(tag.name),
          created_at: tag.createdAt,
          updated_at: tag.updatedAt,
        })
        .execute(),
    )
  }

  async findById(companyId: string, id: string): Promise<TagRecord | undefined> {
    const row = await this.db
      .selectFrom('tags')
      .selectAll()
      .where('company_id', '=', companyId)
      .where('id', '=', id)
      .executeTakeFirst()
    return row && toRecord(row)
  }

  async findByIds(companyId: string, ids: readonly string[]): Promise<TagRecord[]> {
    if (ids.length === 0) return []
    const rows = await this.db
      .selectFrom('tags')
      .selectAll()
      .where('company_id', '=', companyId)
      .where('id', 'in', [...new Set(ids)])
      .orderBy('name_key')
      .orderBy('id')
      .execute()
    return rows.map(toRecord)
  }

  async list(companyId: string, search: string | undefined, offset: number, limit: number): Promise<TagRecord[]> {
    let query = this.db.selectFrom('tags').selectAll().where('company_id', '=', companyId)
    if (search) query = query.where(sql<boolean>`name_key like ${containsPattern(tagNameKey(search))} escape '\\'`)
    const rows = await query.orderBy('name_key').orderBy('id').offset(offset).limit(limit).execute()
    return rows.map(toRecord)
  }

  async rename(companyId: string, id: string, name: string, updatedAt: Timestamp): Promise<void> {
    await translateUnique('tag', name, () =>
      this.db
        .updateTable('tags')
        .set({ name, name_key: tagNameKey(name), updated_at: updatedAt })
        .where('company_id', '=', companyId)
        .where('id', '=', id)
        .execute(),
    )
  }

  async delete(companyId: string, id: string): Promise<boolean> {
    // The foreign key cascades too; deleting the links explicitly keeps this independent of it.
    await this.db.deleteFrom('document_tags').where('company_id', '=', companyId).where('tag_id', '=', id).execute()
    const result = await this.db
      .deleteFrom('tags')
      .where('company_id', '=', companyId)
      .where('id', '=', id)
      .executeTakeFirst()
    return Number(result.numDeletedRows) > 0
  }

  async tagIdsOf(companyId: string, documentIds: readonly string[]): Promise<Map<string, string[]>> {
    const result = new Map<string, string[]>(documentIds.map((id) => [id, []]))
    if (documentIds.length === 0) return result
    const rows = await this.db
      .selectFrom('document_tags as dt')
      .innerJoin('tags as t', 't.id', 'dt.tag_id')
      .select(['dt.document_id', 'dt.tag_id'])
      .where('dt.company_id', '=', companyId)
      .where('t.company_id', '=', companyId)
      .where('dt.document_id', 'in', [...new Set(documentIds)])
      .orderBy('t.name_key')
      .orderBy('t.id')
      .execute()
    for (const row of rows) result.get(row.document_id)?.push(row.tag_id)
    return result
  }

  async setDocumentTags(companyId: string, documentId: string, tagIds: readonly string[]): Promise<void> {
    await this.db
      .deleteFrom('document_tags')
      .where('company_id', '=', companyId)
      .where('document_id', '=', documentId)
      .execute()
    const unique = [...new Set(tagIds)]
    if (unique.length === 0) return
    await this.db
      .insertInto('document_tags')
      .values(unique.map((tagId) => ({ document_id: documentId, tag_id: tagId, company_id: companyId })))
      .execute()
  }
}
