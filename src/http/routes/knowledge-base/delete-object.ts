import type { FastifyInstance } from 'fastify'
import Type, { type Static } from 'typebox'
import type { AppContext } from '../../../app-context.js'
import { principalOf } from '../../plugins/auth.js'
import { BEARER, EXTENSION, responses } from '../../schemas/common.js'
import { KbObjectParams } from '../../schemas/knowledge-base.js'

/** Extension: deletes a document, or a folder with everything below it. */
export function deleteObjectRoute(app: FastifyInstance, ctx: AppContext): void {
  app.delete(
    '/company/:company_id/knowledge-base/:object_id',
    {
      schema: {
        operationId: 'deleteObject',
        summary: 'Delete a document, or a folder with everything below it',
        tags: ['knowledge-base'],
        security: BEARER,
        ...EXTENSION,
        params: KbObjectParams,
        response: responses({ 204: Type.Null({ description: 'deleted' }) }),
      },
    },
    async (request, reply) => {
      const params = request.params as Static<typeof KbObjectParams>
      await ctx.services.knowledgeBase.delete(principalOf(request), params.object_id)
      return reply.code(204).send()
    },
  )
}
