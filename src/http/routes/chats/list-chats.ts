import type { FastifyInstance } from 'fastify'
import Type, { type Static } from 'typebox'
import type { AppContext } from '../../../app-context.js'
import { principalOf } from '../../plugins/auth.js'
import { presentChat } from '../../presenters/chats.js'
import { Chat, ChatListQuery } from '../../schemas/chats.js'
import { BEARER, responses } from '../../schemas/common.js'

/** Endpoint 8: the caller's chats, most recently updated first. */
export function listChatsRoute(app: FastifyInstance, ctx: AppContext): void {
  app.get(
    '/chat',
    {
      schema: {
        operationId: 'listChats',
        summary: "List the caller's chats, most recently updated first",
        tags: ['chats'],
        security: BEARER,
        querystring: ChatListQuery,
        response: responses({ 200: Type.Array(Chat) }),
      },
    },
    async (request) => {
      const query = request.query as Static<typeof ChatListQuery>
      const chats = await ctx.services.chats.list(principalOf(request), query)
      return chats.map(presentChat)
    },
  )
}
