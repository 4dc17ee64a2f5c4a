import type { Insertable, Kysely, Selectable } from 'kysely'
import type { AutoDocumentSelector, BotRecord, BotsRepository } from '../ports/bots.js'
import type { BotsTable, Database } from '../schema.js'
import { fromFlag, fromJsonList, toFlag, toJsonList } from './booleans.js'

function toRow(b: BotRecord): Insertable<BotsTable> {
  return {
    id: b.id,
    company_id: b.companyId,
    label: b.label,
    description: b.description,
    prompt_name: b.prompt.name,
    prompt_text: b.prompt.prompt,
    auto_document_selector: b.autoDocumentSelector,
    manual_filters: toFlag(b.manualFilters),
    data_scientist_mode: toFlag(b.dataScientistMode),
    icon_name: b.icon.name,
    icon_type: b.icon.type,
    locale: b.locale,
    filter_paths: toJsonList(b.filters.paths),
    filter_tags: toJsonList(b.filters.tags),
    default_documents: toJsonList(b.filters.defaultDocuments),
    default_auto_documents: toJsonList(b.filters.defaultAutoDocuments),
    created_at: b.createdAt,
    updated_at: b.updatedAt,
  }
}

function toRecord(row: Selectable<BotsTable>): BotRecord {
  return {
    id: row.id,
    companyId: row.company_id,
    label: row.label,
    description: row.description,
    prompt: { name: row.prompt_name, prompt: row.prompt_text },
    autoDocumentSelector: row.auto_document_selector as AutoDocumentSelector,
    manualFilters: fromFlag(Number(row.manual_filters)),
    dataScientistMode: fromFlag(Number(row.data_scientist_mode)),
    icon: { name: row.icon_name, type: row.icon_type },
    locale: row.locale,
    filters: {
      paths: fromJsonList(row.filter_paths),
      tags: fromJsonList(row.filter_tags),
      defaultDocuments: fromJsonList(row.default_documents),
      defaultAutoDocuments: fromJsonList(row.default_auto_documents),
    },
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  }
}

export class KyselyBotsRepository implements BotsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(bot: BotRecord): Promise<void> {
    await this.db.insertInto('bots').values(toRow(bot)).execute()
  }

  async findById(companyId: string, id: string): Promise<BotRecord | undefined> {
    const row = await this.db
      .selectFrom('bots')
      .selectAll()
      .where('company_id', '=', companyId)
      .where('id', '=', id)
      .executeTakeFirst()
    return row && toRecord(row)
  }

  async list(companyId: string, offset: number, limit: number): Promise<BotRecord[]> {
    const rows = await this.db
      .selectFrom('bots')
      .selectAll()
      .where('company_id', '=', companyId)
      .orderBy('created_at')
      .orderBy('id')
      .offset(offset)
      .limit(limit)
      .execute()
    return rows.map(toRecord)
  }

  async replace(bot: BotRecord): Promise<void> {
    const { id, company_id, created_at, ...changes } = toRow(bot)
    await this.db.updateTable('bots').set(changes).where('company_id', '=', company_id).where('id', '=', id).execute()
  }

  async delete(companyId: string, id: string): Promise<boolean> {
    const result = await this.db
      .deleteFrom('bots')
      .where('company_id', '=', companyId)
      .where('id', '=', id)
      .executeTakeFirst()
    return Number(result.numDeletedRows) > 0
  }

  async listUsingTag(companyId: string, tagId: string): Promise<BotRecord[]> {
    // Tag ids are UUIDs, so a quoted substring match on the JSON text is exact; it is re-checked anyway.
    const rows = await this.db
      .selectFrom('bots')
      .selectAll()
      .where('company_id', '=', companyId)
      .where('filter_tags', 'like', `%"${tagId}"%`)
      .execute()
    return rows.map(toRecord).filter((bot) => bot.filters.tags.includes(tagId))
  }
}
