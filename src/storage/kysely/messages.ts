import type { Kysely, Selectable } from 'kysely'
import type { Timestamp } from '../../lib/clock.js'
import type { MessageRecord, MessagesRepository, StoredSource } from '../ports/messages.js'
import type { Database, MessagesTable } from '../schema.js'

function toRecord(row: Selectable<MessagesTable>): MessageRecord {
  return {
    id: row.id,
    companyId: row.company_id,
    chatId: row.chat_id,
    actor: row.actor === 'user' ? 'user' : 'assistant',
    text: row.text,
    createdAt: row.created_at,
    tags: JSON.parse(row.tags) as MessageRecord['tags'],
    sources: JSON.parse(row.sources) as StoredSource[],
  }
}

/** Messages as rows; tags and sources are kept as JSON text, exactly as given. */
export class KyselyMessagesRepository implements MessagesRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(message: MessageRecord): Promise<void> {
    await this.db
      .insertInto('messages')
      .values({
        id: message.id,
        company_id: message.companyId,
        chat_id: message.chatId,
        actor: message.actor,
        text: message.text,
        tags: JSON.stringify(message.tags),
        sources: JSON.stringify(message.sources),
        created_at: message.createdAt,
      })
      .execute()
  }

  async history(companyId: string, chatId: string, before: Timestamp, size: number): Promise<MessageRecord[]> {
    const rows = await this.db
      .selectFrom('messages')
      .selectAll()
      .where('company_id', '=', companyId)
      .where('chat_id', '=', chatId)
      .where('created_at', '<', before)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(size)
      .execute()
    return rows.reverse().map(toRecord)
  }

  async listForChat(companyId: string, chatId: string): Promise<MessageRecord[]> {
    const rows = await this.db
      .selectFrom('messages')
      .selectAll()
      .where('company_id', '=', companyId)
      .where('chat_id', '=', chatId)
      .orderBy('created_at')
      .orderBy('id')
      .execute()
    return rows.map(toRecord)
  }
}
