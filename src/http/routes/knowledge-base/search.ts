import type { FastifyInstance } from 'fastify'
import type { Static } from 'typebox'
import type { AppContext } from '../../../app-context.js'
import { principalOf } from '../../plugins/auth.js'
import { presentSearch } from '../../presenters/search.js'
import { BEARER, CompanyParams, EXTENSION, responses } from '../../schemas/common.js'
import { SearchBody, SearchResponse } from '../../schemas/search.js'

/** Extension: ranked chunks of the knowledge base, with the scope rules and ranking the chat uses. */
export function searchRoute(app: FastifyInstance, ctx: AppContext): void {
  app.post(
    '/company/:company_id/knowledge-base/search',
    {
      schema: {
        operationId: 'searchChunks',
        summary: 'Search the knowledge base: ranked chunks with scores (the retrieval the chat uses)',
        tags: ['knowledge-base'],
        security: BEARER,
        ...EXTENSION,
        params: CompanyParams,
        body: SearchBody,
        response: responses({ 200: SearchResponse }),
      },
    },
    async (request) => {
      const body = request.body as Static<typeof SearchBody>
      const filters = body.filters && {
        documentIds: body.filters.paths ?? [],
        tagIds: body.filters.tags ?? [],
        folders: body.filters.folders ?? [],
      }
      const result = await ctx.services.search.search(principalOf(request), {
        query: body.query,
        filters,
        limit: body.limit,
        botId: body.bot_id,
      })
      return presentSearch(result)
    },
  )
}
