import type { FastifyInstance } from 'fastify'
import type { Static } from 'typebox'
import type { AppContext } from '../../../app-context.js'
import { principalOf } from '../../plugins/auth.js'
import { presentChat } from '../../presenters/chats.js'
import { Chat, ChatCreateBody } from '../../schemas/chats.js'
import { BEARER, responses } from '../../schemas/common.js'

/** Endpoint 7: a new chat whose only member is the caller. */
export function createChatRoute(app: FastifyInstance, ctx: AppContext): void {
  app.post(
    '/chat',
    {
      schema: {
        operationId: 'createChat',
        summary: 'Create a chat, optionally bound to a bot',
        tags: ['chats'],
        security: BEARER,
        body: ChatCreateBody,
        response: responses({ 201: Chat }),
      },
    },
    async (request, reply) => {
      const body = request.body as Static<typeof ChatCreateBody>
      const chat = await ctx.services.chats.create(principalOf(request), { title: body.title, botId: body.bot_id })
      return reply.code(201).send(presentChat(chat))
    },
  )
}
