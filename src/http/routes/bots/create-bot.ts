import type { FastifyInstance } from 'fastify'
import type { Static } from 'typebox'
import type { AppContext } from '../../../app-context.js'
import { principalOf } from '../../plugins/auth.js'
import { presentBot } from '../../presenters/bots.js'
import { Bot, BotCreateBody, toBotInput } from '../../schemas/bots.js'
import { BEARER, CompanyParams, responses } from '../../schemas/common.js'

/** Endpoint 3: creates a bot; 201 with the bot. */
export function createBotRoute(app: FastifyInstance, ctx: AppContext): void {
  app.post(
    '/company/:company_id/bot',
    {
      schema: {
        operationId: 'createBot',
        summary: 'Create a bot',
        tags: ['bots'],
        security: BEARER,
        params: CompanyParams,
        body: BotCreateBody,
        response: responses({ 201: Bot }),
      },
    },
    async (request, reply) => {
      const body = request.body as Static<typeof BotCreateBody>
      const bot = await ctx.services.bots.create(principalOf(request).companyId, toBotInput(body))
      return reply.code(201).send(presentBot(bot))
    },
  )
}
