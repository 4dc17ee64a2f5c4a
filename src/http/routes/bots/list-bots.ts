import type { FastifyInstance } from 'fastify'
import Type, { type Static } from 'typebox'
import type { AppContext } from '../../../app-context.js'
import { principalOf } from '../../plugins/auth.js'
import { presentBot } from '../../presenters/bots.js'
import { Bot } from '../../schemas/bots.js'
import { BEARER, CompanyParams, Pagination, responses } from '../../schemas/common.js'

const Query = Type.Object(Pagination)

/** Endpoint 4: the company's bots, oldest first. */
export function listBotsRoute(app: FastifyInstance, ctx: AppContext): void {
  app.get(
    '/company/:company_id/bot',
    {
      schema: {
        operationId: 'listBots',
        summary: 'List bots, in creation order',
        tags: ['bots'],
        security: BEARER,
        params: CompanyParams,
        querystring: Query,
        response: responses({ 200: Type.Array(Bot) }),
      },
    },
    async (request) => {
      const query = request.query as Static<typeof Query>
      const bots = await ctx.services.bots.list(principalOf(request).companyId, query.offset, query.limit)
      return bots.map(presentBot)
    },
  )
}
