import type { FastifyInstance } from 'fastify'
import Type, { type Static } from 'typebox'
import type { AppContext } from '../../../app-context.js'
import { principalOf } from '../../plugins/auth.js'
import { BotParams } from '../../schemas/bots.js'
import { BEARER, EXTENSION, responses } from '../../schemas/common.js'

/** Extension: deletes a bot; its chats move to the default bot, which itself cannot be deleted. */
export function deleteBotRoute(app: FastifyInstance, ctx: AppContext): void {
  app.delete(
    '/company/:company_id/bot/:bot_id',
    {
      schema: {
        operationId: 'deleteBot',
        summary: "Delete a bot (its chats move to the company's default bot)",
        tags: ['bots'],
        security: BEARER,
        ...EXTENSION,
        params: BotParams,
        response: responses({ 204: Type.Null({ description: 'deleted' }) }),
      },
    },
    async (request, reply) => {
      const params = request.params as Static<typeof BotParams>
      await ctx.services.bots.delete(principalOf(request).companyId, params.bot_id)
      return reply.code(204).send()
    },
  )
}
