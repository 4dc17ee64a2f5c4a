import type { Timestamp } from '../../lib/clock.js'

export type AutoDocumentSelector = 'hidden' | 'choose' | 'always'

export interface BotFilters {
  /** Folder paths (`/hr/`) whose documents are in scope. */
  readonly paths: readonly string[]
  /** Tag ids whose documents are in scope (OR with paths). */
  readonly tags: readonly string[]
  /** File paths given whole to every answer. */
  readonly defaultDocuments: readonly string[]
  /** File paths that guide automatic document selection. */
  readonly defaultAutoDocuments: readonly string[]
}

export interface BotRecord {
  readonly id: string
  readonly companyId: string
  readonly label: string
  readonly description: string
  readonly prompt: { readonly name: string; readonly prompt: string }
  readonly autoDocumentSelector: AutoDocumentSelector
  readonly manualFilters: boolean
  readonly dataScientistMode: boolean
  readonly icon: { readonly name: string; readonly type: string }
  /** ISO 639-1 code or `AUTOMATIC`. */
  readonly locale: string
  readonly filters: BotFilters
  readonly createdAt: Timestamp
  readonly updatedAt: Timestamp
}

export interface BotsRepository {
  insert(bot: BotRecord): Promise<void>
  findById(companyId: string, id: string): Promise<BotRecord | undefined>
  /** Bots of a company in creation order. */
  list(companyId: string, offset: number, limit: number): Promise<BotRecord[]>
  /** Replaces the stored bot with `bot` (same id and company). */
  replace(bot: BotRecord): Promise<void>
  delete(companyId: string, id: string): Promise<boolean>
  /** Bots whose filters name this tag id (to detach a deleted tag). */
  listUsingTag(companyId: string, tagId: string): Promise<BotRecord[]>
}
