import type { FastifyInstance } from 'fastify'
import type { AppContext } from '../../../app-context.js'
import { createChatRoute } from './create-chat.js'
import { deleteChatRoute } from './delete-chat.js'
import { listChatsRoute } from './list-chats.js'
import { updateChatRoute } from './update-chat.js'

/** Endpoints 7–9 and the DELETE extension: the caller's chats. */
export function registerChatRoutes(app: FastifyInstance, ctx: AppContext): void {
  createChatRoute(app, ctx)
  listChatsRoute(app, ctx)
  updateChatRoute(app, ctx)
  deleteChatRoute(app, ctx)
}
