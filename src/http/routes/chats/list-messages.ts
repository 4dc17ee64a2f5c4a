import type { FastifyInstance } from 'fastify'
import type { Static } from 'typebox'
import type { AppContext } from '../../../app-context.js'
import { parseHistoryTimestamp } from '../../../domain/chats/messages.js'
import { principalOf } from '../../plugins/auth.js'
import { presentStoredMessage } from '../../presenters/messages.js'
import { ChatParams } from '../../schemas/chats.js'
import { BEARER, responses } from '../../schemas/common.js'
import { History, HistoryQuery } from '../../schemas/messages.js'

/** Endpoint 11: the `size` newest messages strictly before `timestamp`, oldest first. */
export function listMessagesRoute(app: FastifyInstance, ctx: AppContext): void {
  app.get(
    '/chat/:chat_id/messages',
    {
      schema: {
        operationId: 'listMessages',
        summary: 'Message history of a chat',
        tags: ['chats'],
        security: BEARER,
        params: ChatParams,
        querystring: HistoryQuery,
        response: responses({ 200: History }),
      },
    },
    async (request) => {
      const params = request.params as Static<typeof ChatParams>
      const query = request.query as Static<typeof HistoryQuery>
      const before = query.timestamp === undefined ? undefined : parseHistoryTimestamp(query.timestamp)
      const messages = await ctx.services.messages.history(principalOf(request), params.chat_id, {
        size: query.size,
        before,
      })
      return { history: messages.map(presentStoredMessage) }
    },
  )
}
