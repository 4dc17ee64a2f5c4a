import type { Timestamp } from '../../lib/clock.js'

export interface TagRecord {
  readonly id: string
  readonly companyId: string
  readonly name: string
  readonly createdAt: Timestamp
  readonly updatedAt: Timestamp
}

export interface TagsRepository {
  /** Throws already_exists (via the store) when the company has a tag of that name, ignoring case. */
  insert(tag: TagRecord): Promise<void>
  findById(companyId: string, id: string): Promise<TagRecord | undefined>
  /** Those of `ids` that exist in the company. */
  findByIds(companyId: string, ids: readonly string[]): Promise<TagRecord[]>
  /** Tags by name (case-insensitive), optionally whose name contains `search` ignoring case. */
  list(companyId: string, search: string | undefined, offset: number, limit: number): Promise<TagRecord[]>
  rename(companyId: string, id: string, name: string, updatedAt: Timestamp): Promise<void>
  /** Deletes the tag and detaches it from every document. */
  delete(companyId: string, id: string): Promise<boolean>
  /** Tag ids per document id, each list ordered by tag name. */
  tagIdsOf(companyId: string, documentIds: readonly string[]): Promise<Map<string, string[]>>
  /** Makes `tagIds` exactly the tags of a document. */
  setDocumentTags(companyId: string, documentId: string, tagIds: readonly string[]): Promise<void>
}
