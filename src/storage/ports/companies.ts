import type { Timestamp } from '../../lib/clock.js'

export interface CompanyRecord {
  readonly id: string
  readonly name: string
  readonly idpId: string
  readonly defaultBotId: string
  readonly licenseType: string
  readonly licenseExpiration: Timestamp
  readonly kbMaxBytes: number
  readonly questionsMax: number
  readonly questionsUsed: number
  readonly createdAt: Timestamp
  readonly updatedAt: Timestamp
}

export type CompanyChanges = Partial<
  Pick<CompanyRecord, 'name' | 'idpId' | 'licenseType' | 'licenseExpiration' | 'kbMaxBytes' | 'questionsMax'>
> & { readonly updatedAt: Timestamp }

export interface CompaniesRepository {
  insert(company: CompanyRecord): Promise<void>
  findById(id: string): Promise<CompanyRecord | undefined>
  /** All companies, oldest first. */
  list(): Promise<CompanyRecord[]>
  count(): Promise<number>
  update(id: string, changes: CompanyChanges): Promise<CompanyRecord | undefined>
  /**
   * Counts one more question, only while `questions_used` is below `questions_max` (one
   * conditional UPDATE, so concurrent questions never overshoot); true when it counted.
   */
  incrementQuestionsUsed(id: string): Promise<boolean>
  /**
   * Inside a transaction: holds the company's row until it ends, so concurrent writes that check a
   * company-wide limit (the knowledge base size) see each other's results instead of both passing.
   */
  lockForLimits(id: string): Promise<void>
}
