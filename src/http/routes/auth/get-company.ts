import type { FastifyInstance } from 'fastify'
import type { AppContext } from '../../../app-context.js'
import { principalOf } from '../../plugins/auth.js'
import { presentCompany } from '../../presenters/company.js'
import { Company } from '../../schemas/auth.js'
import { BEARER, responses } from '../../schemas/common.js'

/** Endpoint 2: the caller's company with its licence. */
export function getCompanyRoute(app: FastifyInstance, ctx: AppContext): void {
  app.get(
    '/auth/company',
    {
      schema: {
        operationId: 'getCompany',
        summary: "The caller's company",
        tags: ['auth'],
        security: BEARER,
        response: responses({ 200: Company }),
      },
    },
    async (request) => presentCompany(await ctx.services.companies.get(principalOf(request))),
  )
}
