import type { Kysely, Selectable } from 'kysely'
import type { Timestamp } from '../../lib/clock.js'
import type {
  AccessTokenRecord,
  AccessTokensRepository,
  ApiClientRecord,
  ApiClientsRepository,
  TokenOwner,
} from '../ports/clients.js'
import type { ApiClientsTable, Database } from '../schema.js'
import { fromFlag, toFlag } from './booleans.js'

function toRecord(row: Selectable<ApiClientsTable>): ApiClientRecord {
  return {
    id: row.id,
    companyId: row.company_id,
    appName: row.app_name,
    clientId: row.client_id,
    secretHash: row.secret_hash,
    secretVersion: Number(row.secret_version),
    disabled: fromFlag(Number(row.disabled)),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  }
}

export class KyselyApiClientsRepository implements ApiClientsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(c: ApiClientRecord): Promise<void> {
    await this.db
      .insertInto('api_clients')
      .values({
        id: c.id,
        company_id: c.companyId,
        app_name: c.appName,
        client_id: c.clientId,
        secret_hash: c.secretHash,
        secret_version: c.secretVersion,
        disabled: toFlag(c.disabled),
        created_at: c.createdAt,
        updated_at: c.updatedAt,
      })
      .execute()
  }

  async findByClientId(clientId: string): Promise<ApiClientRecord | undefined> {
    const row = await this.db.selectFrom('api_clients').selectAll().where('client_id', '=', clientId).executeTakeFirst()
    return row && toRecord(row)
  }

  async listByCompany(companyId: string): Promise<ApiClientRecord[]> {
    const rows = await this.db
      .selectFrom('api_clients')
      .selectAll()
      .where('company_id', '=', companyId)
      .orderBy('created_at')
      .execute()
    return rows.map(toRecord)
  }

  async update(
    id: string,
    changes: Partial<Pick<ApiClientRecord, 'secretHash' | 'secretVersion' | 'disabled'>> & { updatedAt: Timestamp },
  ): Promise<void> {
    await this.db
      .updateTable('api_clients')
      .set({
        secret_hash: changes.secretHash,
        secret_version: changes.secretVersion,
        disabled: changes.disabled === undefined ? undefined : toFlag(changes.disabled),
        updated_at: changes.updatedAt,
      })
      .where('id', '=', id)
      .execute()
  }
}

export class KyselyAccessTokensRepository implements AccessTokensRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(t: AccessTokenRecord): Promise<void> {
    await this.db
      .insertInto('access_tokens')
      .values({
        token_hash: t.tokenHash,
        api_client_id: t.apiClientId,
        company_id: t.companyId,
        secret_version: t.secretVersion,
        expires_at: t.expiresAt,
        created_at: t.createdAt,
      })
      .execute()
  }

  async findLive(tokenHash: string, now: Timestamp): Promise<TokenOwner | undefined> {
    const row = await this.db
      .selectFrom('access_tokens as t')
      .innerJoin('api_clients as c', 'c.id', 't.api_client_id')
      .select(['t.company_id', 't.api_client_id', 'c.client_id'])
      .where('t.token_hash', '=', tokenHash)
      .where('t.expires_at', '>', now)
      .where('c.disabled', '=', 0)
      .whereRef('c.secret_version', '=', 't.secret_version')
      .whereRef('c.company_id', '=', 't.company_id')
      .executeTakeFirst()
    return row && { companyId: row.company_id, apiClientId: row.api_client_id, clientId: row.client_id }
  }

  async deleteForClient(apiClientId: string): Promise<void> {
    await this.db.deleteFrom('access_tokens').where('api_client_id', '=', apiClientId).execute()
  }

  async deleteExpired(now: Timestamp): Promise<number> {
    const result = await this.db.deleteFrom('access_tokens').where('expires_at', '<=', now).executeTakeFirst()
    return Number(result.numDeletedRows)
  }
}
