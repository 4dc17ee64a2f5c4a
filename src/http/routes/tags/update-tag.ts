import type { FastifyInstance } from 'fastify'
import type { Static } from 'typebox'
import type { AppContext } from '../../../app-context.js'
import { principalOf } from '../../plugins/auth.js'
import { presentTag } from '../../presenters/tags.js'
import { BEARER, responses } from '../../schemas/common.js'
import { Tag, TagBody, TagParams } from '../../schemas/tags.js'

/** Endpoint 21: rename a tag. */
export function updateTagRoute(app: FastifyInstance, ctx: AppContext): void {
  app.patch(
    '/company/:company_id/knowledge-base/tags/:tag_id',
    {
      schema: {
        operationId: 'updateTag',
        summary: 'Rename a tag (409 when another tag has the name, ignoring case)',
        tags: ['tags'],
        security: BEARER,
        params: TagParams,
        body: TagBody,
        response: responses({ 200: Tag }),
      },
    },
    async (request) => {
      const params = request.params as Static<typeof TagParams>
      const body = request.body as Static<typeof TagBody>
      return presentTag(await ctx.services.tags.rename(principalOf(request), params.tag_id, body.name))
    },
  )
}
