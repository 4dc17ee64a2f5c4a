import type { Clock } from '../../lib/clock.js'
import { AppError, errors } from '../../lib/errors.js'
import { hashSecret } from '../../lib/hashing.js'
import { newId, newSecret } from '../../lib/ids.js'
import type { ApiClientRecord } from '../../storage/ports/clients.js'
import type { CompanyRecord } from '../../storage/ports/companies.js'
import type { EmbeddingState } from '../../storage/ports/knowledge-base.js'
import type { Store } from '../../storage/store.js'
import { defaultBot } from '../bots/default-bot.js'
import type { Principal } from '../principal.js'
import { isLicenceExpired, LICENCE_DEFAULTS } from './licence.js'

export interface NewCompany {
  readonly name: string
  readonly appName?: string
  readonly idpId?: string
  readonly licenseType?: string
  readonly kbMaxBytes?: number
  readonly questionsMax?: number
  readonly licenseExpiration?: string
}

export type CompanyUpdate = Partial<Omit<NewCompany, 'appName'>>

/** Credentials of an API client; the plain secret exists only in this value, never at rest. */
export interface ClientCredentials {
  readonly companyId: string
  readonly appName: string
  readonly clientId: string
  readonly clientSecret: string
}

export interface CompanyUsage {
  readonly questionsUsed: number
  readonly questionsMax: number
  readonly storedBytes: number
  readonly kbMaxBytes: number
  readonly documents: Record<EmbeddingState, number>
  readonly licenseExpired: boolean
}

const SECRET_PREFIX = 'lsk_'
const DEFAULT_APP_NAME = 'lantern'

function validateName(name: string): string {
  const trimmed = name.trim()
  if (trimmed.length === 0 || trimmed.length > 200) throw errors.field('name', 'must be 1 to 200 characters')
  return trimmed
}

export interface CompanyServiceDeps {
  readonly store: Store
  readonly clock: Clock
}

/** Tenants, their licences and their API clients. */
export class CompanyService {
  constructor(private readonly deps: CompanyServiceDeps) {}

  /** Creates a company with its default bot and a first API client, in one transaction. */
  async create(input: NewCompany): Promise<{ company: CompanyRecord; credentials: ClientCredentials }> {
    const now = this.deps.clock.now()
    const company: CompanyRecord = {
      id: newId(),
      name: validateName(input.name),
      idpId: input.idpId ?? '',
      defaultBotId: newId(),
      licenseType: input.licenseType ?? LICENCE_DEFAULTS.licenseType,
      licenseExpiration: input.licenseExpiration ?? LICENCE_DEFAULTS.expiration,
      kbMaxBytes: input.kbMaxBytes ?? LICENCE_DEFAULTS.kbMaxBytes,
      questionsMax: input.questionsMax ?? LICENCE_DEFAULTS.questionsMax,
      questionsUsed: 0,
      createdAt: now,
      updatedAt: now,
    }
    const issued = await this.newClient(company.id, input.appName ?? DEFAULT_APP_NAME)
    await this.deps.store.transaction(async (tx) => {
      await tx.companies.insert(company)
      await tx.bots.insert(defaultBot(company.defaultBotId, company.id, now))
      await tx.clients.insert(issued.record)
    })
    return { company, credentials: issued.credentials }
  }

  async list(): Promise<CompanyRecord[]> {
    return this.deps.store.companies.list()
  }

  /** The company of the caller. */
  async get(principal: Principal): Promise<CompanyRecord> {
    return this.require(principal.companyId)
  }

  async require(companyId: string): Promise<CompanyRecord> {
    const company = await this.deps.store.companies.findById(companyId)
    if (!company) throw errors.notFound('company', companyId)
    return company
  }

  async update(companyId: string, changes: CompanyUpdate): Promise<CompanyRecord> {
    await this.require(companyId)
    const updated = await this.deps.store.companies.update(companyId, {
      ...changes,
      name: changes.name === undefined ? undefined : validateName(changes.name),
      updatedAt: this.deps.clock.now(),
    })
    if (!updated) throw errors.notFound('company', companyId)
    return updated
  }

  async usage(principal: Principal): Promise<CompanyUsage> {
    const company = await this.require(principal.companyId)
    const { knowledgeBase } = this.deps.store
    return {
      questionsUsed: company.questionsUsed,
      questionsMax: company.questionsMax,
      storedBytes: await knowledgeBase.storedBytes(company.id),
      kbMaxBytes: company.kbMaxBytes,
      documents: await knowledgeBase.countByState(company.id),
      licenseExpired: isLicenceExpired(company, this.deps.clock),
    }
  }

  async createClient(companyId: string, appName = DEFAULT_APP_NAME): Promise<ClientCredentials> {
    await this.require(companyId)
    const issued = await this.newClient(companyId, appName)
    await this.deps.store.clients.insert(issued.record)
    return issued.credentials
  }

  /** New secret for a client; every token issued under the old one stops working at once. */
  async rotateSecret(clientId: string): Promise<ClientCredentials> {
    const client = await this.requireClient(clientId)
    const secret = newSecret(SECRET_PREFIX)
    const secretHash = await hashSecret(secret)
    await this.deps.store.transaction(async (tx) => {
      await tx.clients.update(client.id, {
        secretHash,
        secretVersion: client.secretVersion + 1,
        updatedAt: this.deps.clock.now(),
      })
      await tx.tokens.deleteForClient(client.id)
    })
    return { companyId: client.companyId, appName: client.appName, clientId: client.clientId, clientSecret: secret }
  }

  /** Disables a client and revokes its tokens. */
  async disableClient(clientId: string): Promise<void> {
    const client = await this.requireClient(clientId)
    await this.deps.store.transaction(async (tx) => {
      await tx.clients.update(client.id, { disabled: true, updatedAt: this.deps.clock.now() })
      await tx.tokens.deleteForClient(client.id)
    })
  }

  async listClients(companyId: string): Promise<ApiClientRecord[]> {
    await this.require(companyId)
    return this.deps.store.clients.listByCompany(companyId)
  }

  private async requireClient(clientId: string): Promise<ApiClientRecord> {
    const client = await this.deps.store.clients.findByClientId(clientId)
    if (!client) throw new AppError('not_found', `client ${clientId} was not found`)
    return client
  }

  private async newClient(
    companyId: string,
    appName: string,
  ): Promise<{ record: ApiClientRecord; credentials: ClientCredentials }> {
    const trimmedAppName = appName.trim()
    if (trimmedAppName.length === 0 || trimmedAppName.length > 200) {
      throw errors.field('app_name', 'must be 1 to 200 characters')
    }
    const now = this.deps.clock.now()
    const clientId = newId()
    const secret = newSecret(SECRET_PREFIX)
    const record: ApiClientRecord = {
      id: newId(),
      companyId,
      appName: trimmedAppName,
      clientId,
      secretHash: await hashSecret(secret),
      secretVersion: 1,
      disabled: false,
      createdAt: now,
      updatedAt: now,
    }
    return { record, credentials: { companyId, appName: trimmedAppName, clientId, clientSecret: secret } }
  }
}
