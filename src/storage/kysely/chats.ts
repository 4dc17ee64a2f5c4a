import type { Kysely, Selectable } from 'kysely'
import type { Timestamp } from '../../lib/clock.js'
import type { ChatRecord, ChatsRepository } from '../ports/chats.js'
import type { ChatsTable, Database } from '../schema.js'
import { fromFlag, toFlag } from './booleans.js'

function toRecord(row: Selectable<ChatsTable>, members: readonly string[]): ChatRecord {
  return {
    id: row.id,
    companyId: row.company_id,
    title: row.title,
    botId: row.bot_id,
    archived: fromFlag(Number(row.archived)),
    members,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  }
}

export class KyselyChatsRepository implements ChatsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(chat: ChatRecord): Promise<void> {
    await this.db
      .insertInto('chats')
      .values({
        id: chat.id,
        company_id: chat.companyId,
        title: chat.title,
        bot_id: chat.botId,
        archived: toFlag(chat.archived),
        created_at: chat.createdAt,
        updated_at: chat.updatedAt,
      })
      .execute()
    if (chat.members.length > 0) {
      await this.db
        .insertInto('chat_members')
        .values(chat.members.map((member) => ({ chat_id: chat.id, company_id: chat.companyId, member })))
        .execute()
    }
  }

  async findVisible(companyId: string, member: string, id: string): Promise<ChatRecord | undefined> {
    const row = await this.visible(companyId, member).where('c.id', '=', id).executeTakeFirst()
    if (!row) return undefined
    const members = await this.membersOf(companyId, [row.id])
    return toRecord(row, members.get(row.id) ?? [])
  }

  async listVisible(
    companyId: string,
    member: string,
    archived: boolean,
    offset: number,
    limit: number,
  ): Promise<ChatRecord[]> {
    const rows = await this.visible(companyId, member)
      .where('c.archived', '=', toFlag(archived))
      .orderBy('c.updated_at', 'desc')
      .orderBy('c.id', 'desc')
      .offset(offset)
      .limit(limit)
      .execute()
    const members = await this.membersOf(
      companyId,
      rows.map((row) => row.id),
    )
    return rows.map((row) => toRecord(row, members.get(row.id) ?? []))
  }

  async update(
    companyId: string,
    id: string,
    changes: Partial<Pick<ChatRecord, 'title' | 'archived' | 'botId'>> & { updatedAt: Timestamp },
  ): Promise<void> {
    await this.db
      .updateTable('chats')
      .set({
        title: changes.title,
        archived: changes.archived === undefined ? undefined : toFlag(changes.archived),
        bot_id: changes.botId,
        updated_at: changes.updatedAt,
      })
      .where('company_id', '=', companyId)
      .where('id', '=', id)
      .execute()
  }

  async delete(companyId: string, id: string): Promise<boolean> {
    const result = await this.db
      .deleteFrom('chats')
      .where('company_id', '=', companyId)
      .where('id', '=', id)
      .executeTakeFirst()
    return Number(result.numDeletedRows) > 0
  }

  async rebindBot(companyId: string, fromBotId: string, toBotId: string): Promise<void> {
    await this.db
      .updateTable('chats')
      .set({ bot_id: toBotId })
      .where('company_id', '=', companyId)
      .where('bot_id', '=', fromBotId)
      .execute()
  }

  private visible(companyId: string, member: string) {
    return this.db
      .selectFrom('chats as c')
      .innerJoin('chat_members as m', 'm.chat_id', 'c.id')
      .selectAll('c')
      .where('c.company_id', '=', companyId)
      .where('m.company_id', '=', companyId)
      .where('m.member', '=', member)
  }

  private async membersOf(companyId: string, chatIds: readonly string[]): Promise<Map<string, string[]>> {
    const members = new Map<string, string[]>()
    if (chatIds.length === 0) return members
    const rows = await this.db
      .selectFrom('chat_members')
      .select(['chat_id', 'member'])
      .where('company_id', '=', companyId)
      .where('chat_id', 'in', chatIds)
      .orderBy('member')
      .execute()
    for (const row of rows) {
      const list = members.get(row.chat_id) ?? []
      list.push(row.member)
      members.set(row.chat_id, list)
    }
    return members
  }
}
