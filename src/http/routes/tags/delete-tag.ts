import type { FastifyInstance } from 'fastify'
import Type, { type Static } from 'typebox'
import type { AppContext } from '../../../app-context.js'
import { principalOf } from '../../plugins/auth.js'
import { BEARER, EXTENSION, responses } from '../../schemas/common.js'
import { TagParams } from '../../schemas/tags.js'

/** Extension: deletes a tag, detaching it from every document and bot filter. */
export function deleteTagRoute(app: FastifyInstance, ctx: AppContext): void {
  app.delete(
    '/company/:company_id/knowledge-base/tags/:tag_id',
    {
      schema: {
        operationId: 'deleteTag',
        summary: 'Delete a tag; it is detached from every document and bot',
        tags: ['tags'],
        security: BEARER,
        ...EXTENSION,
        params: TagParams,
        response: responses({ 204: Type.Null({ description: 'deleted' }) }),
      },
    },
    async (request, reply) => {
      const params = request.params as Static<typeof TagParams>
      await ctx.services.tags.delete(principalOf(request), params.tag_id)
      return reply.code(204).send()
    },
  )
}
