import type { FastifyInstance } from 'fastify'
import type { Static } from 'typebox'
import type { AppContext } from '../../../app-context.js'
import { principalOf } from '../../plugins/auth.js'
import { presentTag } from '../../presenters/tags.js'
import { BEARER, CompanyParams, responses } from '../../schemas/common.js'
import { Tag, TagBody } from '../../schemas/tags.js'

/** Endpoint 20: a new tag; its name is unique in the company ignoring case. */
export function createTagRoute(app: FastifyInstance, ctx: AppContext): void {
  app.post(
    '/company/:company_id/knowledge-base/tags',
    {
      schema: {
        operationId: 'createTag',
        summary: 'Create a tag (409 when the name exists, ignoring case)',
        tags: ['tags'],
        security: BEARER,
        params: CompanyParams,
        body: TagBody,
        response: responses({ 201: Tag }),
      },
    },
    async (request, reply) => {
      const body = request.body as Static<typeof TagBody>
      return reply.code(201).send(presentTag(await ctx.services.tags.create(principalOf(request), body.name)))
    },
  )
}
