import type { FastifyInstance } from 'fastify'
import Type, { type Static } from 'typebox'
import type { AppContext } from '../../../app-context.js'
import { principalOf } from '../../plugins/auth.js'
import { presentEntry } from '../../presenters/knowledge-base.js'
import { BEARER, CompanyParams, responses } from '../../schemas/common.js'
import { KbEntry, KbListQuery } from '../../schemas/knowledge-base.js'

/** Endpoint 14: a folder's entries (folders first, then files, by name ignoring case) or its subtree. */
export function listObjectsRoute(app: FastifyInstance, ctx: AppContext): void {
  app.get(
    '/company/:company_id/knowledge-base',
    {
      schema: {
        operationId: 'listObjects',
        summary: 'List a folder: folders first, then files, by name ignoring case; `recursive` for the subtree',
        tags: ['knowledge-base'],
        security: BEARER,
        params: CompanyParams,
        querystring: KbListQuery,
        response: responses({ 200: Type.Array(KbEntry) }),
      },
    },
    async (request) => {
      const query = request.query as Static<typeof KbListQuery>
      const entries = await ctx.services.knowledgeBase.list(principalOf(request), query)
      return entries.map(presentEntry)
    },
  )
}
