import type { FastifyInstance } from 'fastify'
import type { Static } from 'typebox'
import type { AppContext } from '../../../app-context.js'
import { principalOf } from '../../plugins/auth.js'
import { presentChunks } from '../../presenters/chunks.js'
import { DocumentChunks } from '../../schemas/chunks.js'
import { BEARER, responses } from '../../schemas/common.js'
import { KbObjectParams } from '../../schemas/knowledge-base.js'

/** Endpoint 17: the chunks of a document with their metadata (empty until it is processed). */
export function getChunksRoute(app: FastifyInstance, ctx: AppContext): void {
  app.get(
    '/company/:company_id/knowledge-base/:object_id/chunks',
    {
      schema: {
        operationId: 'getChunks',
        summary: 'Chunks of a document',
        tags: ['knowledge-base'],
        security: BEARER,
        params: KbObjectParams,
        response: responses({ 200: DocumentChunks }),
      },
    },
    async (request) => {
      const params = request.params as Static<typeof KbObjectParams>
      return presentChunks(await ctx.services.knowledgeBase.chunks(principalOf(request), params.object_id))
    },
  )
}
