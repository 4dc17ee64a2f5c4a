import type { Kysely, Selectable } from 'kysely'
import type { CompaniesRepository, CompanyChanges, CompanyRecord } from '../ports/companies.js'
import type { CompaniesTable, Database } from '../schema.js'

function toRecord(row: Selectable<CompaniesTable>): CompanyRecord {
  return {
    id: row.id,
    name: row.name,
    idpId: row.idp_id,
    defaultBotId: row.default_bot_id,
    licenseType: row.license_type,
    licenseExpiration: row.license_expiration,
    kbMaxBytes: Number(row.kb_max_bytes),
    questionsMax: Number(row.questions_max),
    questionsUsed: Number(row.questions_used),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  }
}

export class KyselyCompaniesRepository implements CompaniesRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(c: CompanyRecord): Promise<void> {
    await this.db
      .insertInto('companies')
      .values({
        id: c.id,
        name: c.name,
        idp_id: c.idpId,
        default_bot_id: c.defaultBotId,
        license_type: c.licenseType,
        license_expiration: c.licenseExpiration,
        kb_max_bytes: c.kbMaxBytes,
        questions_max: c.questionsMax,
        questions_used: c.questionsUsed,
        created_at: c.createdAt,
        updated_at: c.updatedAt,
      })
      .execute()
  }

  async findById(id: string): Promise<CompanyRecord | undefined> {
    const row = await this.db.selectFrom('companies').selectAll().where('id', '=', id).executeTakeFirst()
    return row && toRecord(row)
  }

  async list(): Promise<CompanyRecord[]> {
    const rows = await this.db.selectFrom('companies').selectAll().orderBy('created_at').orderBy('id').execute()
    return rows.map(toRecord)
  }

  async count(): Promise<number> {
    const row = await this.db
      .selectFrom('companies')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow()
    return Number(row.n)
  }

  async update(id: string, changes: CompanyChanges): Promise<CompanyRecord | undefined> {
    await this.db
      .updateTable('companies')
      .set({
        name: changes.name,
        idp_id: changes.idpId,
        license_type: changes.licenseType,
        license_expiration: changes.licenseExpiration,
        kb_max_bytes: changes.kbMaxBytes,
        questions_max: changes.questionsMax,
        updated_at: changes.updatedAt,
      })
      .where('id', '=', id)
      .execute()
    return this.findById(id)
  }

  async incrementQuestionsUsed(id: string): Promise<boolean> {
    const result = await this.db
      .updateTable('companies')
      .set((eb) => ({ questions_used: eb('questions_used', '+', 1) }))
      .where('id', '=', id)
      .whereRef('questions_used', '<', 'questions_max')
      .executeTakeFirst()
    return Number(result.numUpdatedRows) > 0
  }

  async lockForLimits(id: string): Promise<void> {
    // A write that changes nothing still takes the row lock (PostgreSQL) or the write lock (SQLite).
    await this.db
      .updateTable('companies')
      .set((eb) => ({ kb_max_bytes: eb.ref('kb_max_bytes') }))
      .where('id', '=', id)
      .execute()
  }
}
