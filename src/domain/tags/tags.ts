import type { Clock } from '../../lib/clock.js'
import { AppError, errors } from '../../lib/errors.js'
import { newId } from '../../lib/ids.js'
import type { TagRecord } from '../../storage/ports/tags.js'
import type { Repositories, Store } from '../../storage/store.js'
import type { Principal } from '../principal.js'

const MAX_NAME_LENGTH = 100

/** A tag name as stored: NFC, trimmed, 1 to 100 characters; invalid names fail on `body/name`. */
export function validateTagName(name: string): string {
  const trimmed = name.normalize('NFC').trim()
  if (trimmed.length === 0 || trimmed.length > MAX_NAME_LENGTH) {
    throw errors.field('body/name', `must be 1 to ${MAX_NAME_LENGTH} characters after trimming`)
  }
  return trimmed
}

/**
 * The distinct tag ids of `ids`, in first-seen order, after checking that each is a tag of the
 * company; an unknown (or another company's) id fails as invalid_reference at `<field>/<index>`.
 */
export async function resolveTagIds(
  repos: Repositories,
  companyId: string,
  ids: readonly string[],
  field: string,
): Promise<string[]> {
  const wanted = [...new Set(ids)]
  if (wanted.length === 0) return []
  const found = new Set((await repos.tags.findByIds(companyId, wanted)).map((tag) => tag.id))
  const missing = ids.findIndex((id) => !found.has(id))
  if (missing !== -1) throw errors.invalidReference(`${field}/${missing}`, 'tag', ids[missing] ?? '')
  return wanted
}

export interface TagListQuery {
  readonly search?: string | undefined
  readonly offset: number
  readonly limit: number
}

export interface TagServiceDeps {
  readonly store: Store
  readonly clock: Clock
}

/** The company's tags: names unique ignoring case, attachable to documents and bot filters. */
export class TagService {
  constructor(private readonly deps: TagServiceDeps) {}

  /** Tags by name ignoring case, optionally those whose name contains `search` ignoring case. */
  async list(principal: Principal, query: TagListQuery): Promise<TagRecord[]> {
    return this.deps.store.tags.list(principal.companyId, query.search || undefined, query.offset, query.limit)
  }

  /** Throws already_exists when the company has a tag of that name, ignoring case. */
  async create(principal: Principal, name: string): Promise<TagRecord> {
    const now = this.deps.clock.now()
    const tag: TagRecord = {
      id: newId(),
      companyId: principal.companyId,
      name: validateTagName(name),
      createdAt: now,
      updatedAt: now,
    }
    await this.deps.store.tags.insert(tag)
    return tag
  }

  /** Renames a tag; another tag with that name (ignoring case) is already_exists. */
  async rename(principal: Principal, id: string, name: string): Promise<TagRecord> {
    const tag = await this.require(principal.companyId, id)
    const renamed: TagRecord = { ...tag, name: validateTagName(name), updatedAt: this.deps.clock.now() }
    await this.deps.store.tags.rename(tag.companyId, tag.id, renamed.name, renamed.updatedAt)
    return renamed
  }

  /** Deletes a tag and, in the same transaction, detaches it from every document and bot filter. */
  async delete(principal: Principal, id: string): Promise<void> {
    const companyId = principal.companyId
    const now = this.deps.clock.now()
    await this.deps.store.transaction(async (tx) => {
      if (!(await tx.tags.findById(companyId, id))) throw errors.notFound('tag', id)
      const bots = await tx.bots.listUsingTag(companyId, id)
      // A bot with no filters sees the whole knowledge base, so silently dropping a bot's only
      // scope would widen what it can quote; the operator must re-scope such bots first.
      const onlyScope = bots.filter((bot) => bot.filters.paths.length === 0 && bot.filters.tags.length === 1)
      if (onlyScope.length > 0) {
        throw new AppError(
          'tag_in_use',
          `tag ${id} is the only scope of bot(s) ${onlyScope.map((b) => b.id).join(', ')}; change their filters first`,
        )
      }
      for (const bot of bots) {
        const tags = bot.filters.tags.filter((tagId) => tagId !== id)
        await tx.bots.replace({ ...bot, filters: { ...bot.filters, tags }, updatedAt: now })
      }
      await tx.tags.delete(companyId, id)
    })
  }

  private async require(companyId: string, id: string): Promise<TagRecord> {
    const tag = await this.deps.store.tags.findById(companyId, id)
    if (!tag) throw errors.notFound('tag', id)
    return tag
  }
}
