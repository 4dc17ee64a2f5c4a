import type { FastifyInstance } from 'fastify'
import Type, { type Static } from 'typebox'
import type { AppContext } from '../../../app-context.js'
import { principalOf } from '../../plugins/auth.js'
import { ChatParams } from '../../schemas/chats.js'
import { BEARER, EXTENSION, responses } from '../../schemas/common.js'

/** Extension: deletes a chat the caller is a member of, with its messages. */
export function deleteChatRoute(app: FastifyInstance, ctx: AppContext): void {
  app.delete(
    '/chat/:chat_id',
    {
      schema: {
        operationId: 'deleteChat',
        summary: 'Delete a chat and its messages',
        tags: ['chats'],
        security: BEARER,
        ...EXTENSION,
        params: ChatParams,
        response: responses({ 204: Type.Null({ description: 'deleted' }) }),
      },
    },
    async (request, reply) => {
      const params = request.params as Static<typeof ChatParams>
      await ctx.services.chats.delete(principalOf(request), params.chat_id)
      return reply.code(204).send()
    },
  )
}
