import type { FastifyInstance } from 'fastify'
import type { AppContext } from '../../../app-context.js'
import { principalOf } from '../../plugins/auth.js'
import { presentUsage } from '../../presenters/company.js'
import { Usage } from '../../schemas/auth.js'
import { BEARER, EXTENSION, responses } from '../../schemas/common.js'

/** Extension: licence consumption of the caller's company. */
export function getUsageRoute(app: FastifyInstance, ctx: AppContext): void {
  app.get(
    '/auth/company/usage',
    {
      schema: {
        operationId: 'getUsage',
        summary: 'Questions used, bytes stored and documents by processing state',
        tags: ['auth'],
        security: BEARER,
        ...EXTENSION,
        response: responses({ 200: Usage }),
      },
    },
    async (request) => presentUsage(await ctx.services.companies.usage(principalOf(request))),
  )
}
