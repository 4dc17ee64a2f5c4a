import type { FastifyInstance } from 'fastify'
import type { Static } from 'typebox'
import type { AppContext } from '../../../app-context.js'
import { principalOf } from '../../plugins/auth.js'
import { presentBot } from '../../presenters/bots.js'
import { Bot, BotParams, BotPatchBody, toBotChanges } from '../../schemas/bots.js'
import { BEARER, responses } from '../../schemas/common.js'

/** Endpoint 6: partial update; only the given fields change. */
export function updateBotRoute(app: FastifyInstance, ctx: AppContext): void {
  app.patch(
    '/company/:company_id/bot/:bot_id',
    {
      schema: {
        operationId: 'updateBot',
        summary: 'Edit a bot (only the fields given change)',
        tags: ['bots'],
        security: BEARER,
        params: BotParams,
        body: BotPatchBody,
        response: responses({ 200: Bot }),
      },
    },
    async (request) => {
      const params = request.params as Static<typeof BotParams>
      const body = request.body as Static<typeof BotPatchBody>
      const bot = await ctx.services.bots.update(principalOf(request).companyId, params.bot_id, toBotChanges(body))
      return presentBot(bot)
    },
  )
}
