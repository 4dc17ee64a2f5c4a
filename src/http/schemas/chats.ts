import Type from 'typebox'
import { TITLE_MAX } from '../../domain/chats/chats.js'
import { Id, Pagination } from './common.js'

const Title = Type.String({ minLength: 1, maxLength: TITLE_MAX })
const BotRef = Type.Union([Id, Type.Null()], {
  description: "a bot of the caller's company; omitted or null: the company's default bot",
})

/** Body of POST /chat. */
export const ChatCreateBody = Type.Object({
  title: Title,
  bot_id: Type.Optional(BotRef),
})

/** Body of PATCH /chat/<chat_id>: every field optional. */
export const ChatPatchBody = Type.Object({
  title: Type.Optional(Title),
  archived: Type.Optional(Type.Boolean({ description: 'true archives, false unarchives' })),
  bot_id: Type.Optional(BotRef),
})

export const ChatListQuery = Type.Object({
  archived: Type.Boolean({ default: false, description: 'false: active chats only; true: archived chats only' }),
  ...Pagination,
})

export const ChatParams = Type.Object({ chat_id: Id })

/** IMF-fixdate, e.g. `Sun, 22 Nov 2026 09:05:03 GMT`. */
const HttpDate = Type.String({ description: 'IMF-fixdate (RFC 9110), GMT' })

/** Chat object of spec 2.4, as every chat operation returns it. */
export const Chat = Type.Object({
  id: Type.String(),
  company_id: Type.String(),
  title: Type.String(),
  members: Type.Array(Type.String(), { description: 'client ids that may see the chat' }),
  archived: Type.Boolean(),
  bot_id: Type.String(),
  create_at: HttpDate,
  update_at: HttpDate,
})
