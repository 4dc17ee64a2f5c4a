import type { Timestamp } from '../../lib/clock.js'

export interface ApiClientRecord {
  readonly id: string
  readonly companyId: string
  readonly appName: string
  /** The public identifier a client sends to the token endpoint. */
  readonly clientId: string
  readonly secretHash: string
  /** Bumped on every rotation; tokens minted under an older version are dead. */
  readonly secretVersion: number
  readonly disabled: boolean
  readonly createdAt: Timestamp
  readonly updatedAt: Timestamp
}

export interface ApiClientsRepository {
  insert(client: ApiClientRecord): Promise<void>
  findByClientId(clientId: string): Promise<ApiClientRecord | undefined>
  listByCompany(companyId: string): Promise<ApiClientRecord[]>
  update(
    id: string,
    changes: Partial<Pick<ApiClientRecord, 'secretHash' | 'secretVersion' | 'disabled'>> & { updatedAt: Timestamp },
  ): Promise<void>
}

export interface AccessTokenRecord {
  readonly tokenHash: string
  readonly apiClientId: string
  readonly companyId: string
  readonly secretVersion: number
  readonly expiresAt: Timestamp
  readonly createdAt: Timestamp
}

/** Who a live token speaks for. */
export interface TokenOwner {
  readonly companyId: string
  readonly apiClientId: string
  readonly clientId: string
}

export interface AccessTokensRepository {
  insert(token: AccessTokenRecord): Promise<void>
  /**
   * The owner of a token that is unexpired at `now`, whose client is enabled and whose secret
   * has not been rotated since it was issued; undefined otherwise.
   */
  findLive(tokenHash: string, now: Timestamp): Promise<TokenOwner | undefined>
  deleteForClient(apiClientId: string): Promise<void>
  deleteExpired(now: Timestamp): Promise<number>
}
