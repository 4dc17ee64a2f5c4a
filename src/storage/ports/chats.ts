import type { Timestamp } from '../../lib/clock.js'

export interface ChatRecord {
  readonly id: string
  readonly companyId: string
  readonly title: string
  /** Always set: a chat created without a bot is bound to the company's default bot. */
  readonly botId: string
  readonly archived: boolean
  /** Client ids (or e-mail addresses) that may see the chat. */
  readonly members: readonly string[]
  readonly createdAt: Timestamp
  readonly updatedAt: Timestamp
}

export interface ChatsRepository {
  /** Inserts the chat and its members; run it in a transaction so neither exists without the other. */
  insert(chat: ChatRecord): Promise<void>
  /** The chat if it belongs to the company and `member` is one of its members. */
  findVisible(companyId: string, member: string, id: string): Promise<ChatRecord | undefined>
  /** Chats of `member` with the given archived state, most recently updated first. */
  listVisible(
    companyId: string,
    member: string,
    archived: boolean,
    offset: number,
    limit: number,
  ): Promise<ChatRecord[]>
  update(
    companyId: string,
    id: string,
    changes: Partial<Pick<ChatRecord, 'title' | 'archived' | 'botId'>> & { updatedAt: Timestamp },
  ): Promise<void>
  delete(companyId: string, id: string): Promise<boolean>
  /** Rebinds every chat of a bot that is going away to another bot. */
  rebindBot(companyId: string, fromBotId: string, toBotId: string): Promise<void>
}
