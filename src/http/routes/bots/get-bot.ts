import type { FastifyInstance } from 'fastify'
import type { Static } from 'typebox'
import type { AppContext } from '../../../app-context.js'
import { principalOf } from '../../plugins/auth.js'
import { presentBot } from '../../presenters/bots.js'
import { Bot, BotParams } from '../../schemas/bots.js'
import { BEARER, responses } from '../../schemas/common.js'

/** Endpoint 5: one bot of the company. */
export function getBotRoute(app: FastifyInstance, ctx: AppContext): void {
  app.get(
    '/company/:company_id/bot/:bot_id',
    {
      schema: {
        operationId: 'getBot',
        summary: 'Get a bot',
        tags: ['bots'],
        security: BEARER,
        params: BotParams,
        response: responses({ 200: Bot }),
      },
    },
    async (request) => {
      const params = request.params as Static<typeof BotParams>
      return presentBot(await ctx.services.bots.require(principalOf(request).companyId, params.bot_id))
    },
  )
}
