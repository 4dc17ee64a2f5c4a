import type { Clock } from '../../lib/clock.js'
import { errors } from '../../lib/errors.js'
import { newId } from '../../lib/ids.js'
import type { ChatRecord } from '../../storage/ports/chats.js'
import type { Store } from '../../storage/store.js'
import type { BotService } from '../bots/bots.js'
import type { Principal } from '../principal.js'

/** Longest chat title, in characters. */
export const TITLE_MAX = 500

export interface NewChat {
  readonly title: string
  /** Unset or null: the company's default bot. */
  readonly botId?: string | null
}

export interface ChatChanges {
  readonly title?: string
  readonly archived?: boolean
  /** Null rebinds the chat to the company's default bot. */
  readonly botId?: string | null
}

export interface ChatListQuery {
  readonly archived: boolean
  readonly offset: number
  readonly limit: number
}

function checkTitle(title: string): string {
  const trimmed = title.trim()
  if (trimmed.length === 0 || trimmed.length > TITLE_MAX) {
    throw errors.field('body/title', `must be 1 to ${TITLE_MAX} characters, not blank`)
  }
  return trimmed
}

export interface ChatServiceDeps {
  readonly store: Store
  readonly clock: Clock
  readonly bots: BotService
}

/**
 * Chats of one client: a client sees, edits and deletes only the chats of its company it is a
 * member of; anything else is not_found, exactly like an unknown id.
 */
export class ChatService {
  constructor(private readonly deps: ChatServiceDeps) {}

  /** Creates a chat whose only member is the caller, bound to the given bot or the default one. */
  async create(principal: Principal, input: NewChat): Promise<ChatRecord> {
    const title = checkTitle(input.title)
    const botId = await this.resolveBot(principal.companyId, input.botId)
    const now = this.deps.clock.now()
    const chat: ChatRecord = {
      id: newId(),
      companyId: principal.companyId,
      title,
      botId,
      archived: false,
      members: [principal.clientId],
      createdAt: now,
      updatedAt: now,
    }
    await this.deps.store.transaction((tx) => tx.chats.insert(chat))
    return chat
  }

  /** The caller's chats in the requested archived state, most recently updated first. */
  async list(principal: Principal, query: ChatListQuery): Promise<ChatRecord[]> {
    return this.deps.store.chats.listVisible(
      principal.companyId,
      principal.clientId,
      query.archived,
      query.offset,
      query.limit,
    )
  }

  /** A chat the caller may see, or not_found. */
  async require(principal: Principal, chatId: string): Promise<ChatRecord> {
    const chat = await this.deps.store.chats.findVisible(principal.companyId, principal.clientId, chatId)
    if (!chat) throw errors.notFound('chat', chatId)
    return chat
  }

  /** Applies the given fields; any given field, even unchanged, moves `update_at`. */
  async update(principal: Principal, chatId: string, changes: ChatChanges): Promise<ChatRecord> {
    const current = await this.require(principal, chatId)
    const given = changes.title !== undefined || changes.archived !== undefined || changes.botId !== undefined
    if (!given) return current
    const title = changes.title === undefined ? undefined : checkTitle(changes.title)
    const botId = changes.botId === undefined ? undefined : await this.resolveBot(principal.companyId, changes.botId)
    const updatedAt = this.deps.clock.now()
    await this.deps.store.chats.update(principal.companyId, chatId, {
      title,
      archived: changes.archived,
      botId,
      updatedAt,
    })
    return {
      ...current,
      title: title ?? current.title,
      archived: changes.archived ?? current.archived,
      botId: botId ?? current.botId,
      updatedAt,
    }
  }

  /** Deletes a chat the caller may see, with everything stored under it. */
  async delete(principal: Principal, chatId: string): Promise<void> {
    await this.require(principal, chatId)
    await this.deps.store.chats.delete(principal.companyId, chatId)
  }

  private async resolveBot(companyId: string, botId: string | null | undefined): Promise<string> {
    if (botId !== undefined && botId !== null) {
      return (await this.deps.bots.requireReference(companyId, botId, 'body/bot_id')).id
    }
    const company = await this.deps.store.companies.findById(companyId)
    if (!company) throw errors.notFound('company', companyId)
    return company.defaultBotId
  }
}
