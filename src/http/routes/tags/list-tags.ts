import type { FastifyInstance } from 'fastify'
import type { Static } from 'typebox'
import type { AppContext } from '../../../app-context.js'
import { principalOf } from '../../plugins/auth.js'
import { presentTag } from '../../presenters/tags.js'
import { BEARER, CompanyParams, responses } from '../../schemas/common.js'
import { TagList, TagListQuery } from '../../schemas/tags.js'

/** Endpoint 19: the company's tags by name, ignoring case. */
export function listTagsRoute(app: FastifyInstance, ctx: AppContext): void {
  app.get(
    '/company/:company_id/knowledge-base/tags',
    {
      schema: {
        operationId: 'listTags',
        summary: 'List tags by name (case-insensitive), optionally filtered by a substring',
        tags: ['tags'],
        security: BEARER,
        params: CompanyParams,
        querystring: TagListQuery,
        response: responses({ 200: TagList }),
      },
    },
    async (request) => {
      const query = request.query as Static<typeof TagListQuery>
      return (await ctx.services.tags.list(principalOf(request), query)).map(presentTag)
    },
  )
}
