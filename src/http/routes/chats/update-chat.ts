import type { FastifyInstance } from 'fastify'
import type { Static } from 'typebox'
import type { AppContext } from '../../../app-context.js'
import { principalOf } from '../../plugins/auth.js'
import { presentChat } from '../../presenters/chats.js'
import { Chat, ChatParams, ChatPatchBody } from '../../schemas/chats.js'
import { BEARER, responses } from '../../schemas/common.js'

/** Endpoint 9: rename, archive or unarchive a chat, or bind it to another bot. */
export function updateChatRoute(app: FastifyInstance, ctx: AppContext): void {
  app.patch(
    '/chat/:chat_id',
    {
      schema: {
        operationId: 'updateChat',
        summary: 'Edit a chat: title, archived state, bot',
        tags: ['chats'],
        security: BEARER,
        params: ChatParams,
        body: ChatPatchBody,
        response: responses({ 200: Chat }),
      },
    },
    async (request) => {
      const params = request.params as Static<typeof ChatParams>
      const body = request.body as Static<typeof ChatPatchBody>
      const chat = await ctx.services.chats.update(principalOf(request), params.chat_id, {
        title: body.title,
        archived: body.archived,
        botId: body.bot_id,
      })
      return presentChat(chat)
    },
  )
}
