import type { FastifyInstance } from 'fastify'
import type { Static } from 'typebox'
import type { AppContext } from '../../../app-context.js'
import { principalOf } from '../../plugins/auth.js'
import { presentMetadata } from '../../presenters/knowledge-base.js'
import { BEARER, responses } from '../../schemas/common.js'
import { KbMetadata, KbObjectParams } from '../../schemas/knowledge-base.js'

/** Endpoint 15: metadata of a document (with its processing state) or of a folder. */
export function getObjectRoute(app: FastifyInstance, ctx: AppContext): void {
  app.get(
    '/company/:company_id/knowledge-base/:object_id',
    {
      schema: {
        operationId: 'getObject',
        summary: 'Metadata of a document or folder',
        tags: ['knowledge-base'],
        security: BEARER,
        params: KbObjectParams,
        response: responses({ 200: KbMetadata }),
      },
    },
    async (request) => {
      const params = request.params as Static<typeof KbObjectParams>
      return presentMetadata(await ctx.services.knowledgeBase.get(principalOf(request), params.object_id))
    },
  )
}
