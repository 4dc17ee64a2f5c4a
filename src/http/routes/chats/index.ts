import type { FastifyInstance } from 'fastify'
import type { AppContext } from '../../../app-context.js'
import { createChatRoute } from './create-chat.js'
import { deleteChatRoute } from './delete-chat.js'
import { exportMessagesRoute } from './export-messages.js'
import { listChatsRoute } from './list-chats.js'
import { listMessagesRoute } from './list-messages.js'
import { sendMessageRoute } from './send-message.js'
import { updateChatRoute } from './update-chat.js'

/** Endpoints 7–12 and the DELETE extension: the caller's chats and their messages. */
export function registerChatRoutes(app: FastifyInstance, ctx: AppContext): void {
  createChatRoute(app, ctx)
  listChatsRoute(app, ctx)
  updateChatRoute(app, ctx)
  deleteChatRoute(app, ctx)
  exportMessagesRoute(app, ctx)
  sendMessageRoute(app, ctx)
  listMessagesRoute(app, ctx)
}
