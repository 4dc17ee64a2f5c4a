import { toHttpDate } from '../../lib/clock.js'
import type { ChatRecord } from '../../storage/ports/chats.js'

/** Chat object of spec 2.4, datetimes as IMF-fixdate. */
export function presentChat(chat: ChatRecord) {
  return {
    id: chat.id,
    company_id: chat.companyId,
    title: chat.title,
    members: [...chat.members],
    archived: chat.archived,
    bot_id: chat.botId,
    create_at: toHttpDate(chat.createdAt),
    update_at: toHttpDate(chat.updatedAt),
  }
}
