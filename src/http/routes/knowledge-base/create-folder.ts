import type { FastifyInstance } from 'fastify'
import type { Static } from 'typebox'
import type { AppContext } from '../../../app-context.js'
import { principalOf } from '../../plugins/auth.js'
import { BEARER, CompanyParams, IdResponse, responses } from '../../schemas/common.js'
import { FolderBody } from '../../schemas/knowledge-base.js'

/** Endpoint 18: mkdir -p; 201 when the folder was created, 200 with its id when it existed. */
export function createFolderRoute(app: FastifyInstance, ctx: AppContext): void {
  app.post(
    '/company/:company_id/knowledge-base/folders',
    {
      schema: {
        operationId: 'createFolder',
        summary: 'Create a folder and its missing parents (201), or get the id of an existing one (200)',
        tags: ['knowledge-base'],
        security: BEARER,
        params: CompanyParams,
        body: FolderBody,
        response: responses({ 200: IdResponse, 201: IdResponse }),
      },
    },
    async (request, reply) => {
      const body = request.body as Static<typeof FolderBody>
      const folder = await ctx.services.knowledgeBase.createFolder(principalOf(request), body.path)
      return reply.code(folder.created ? 201 : 200).send({ id: folder.id })
    },
  )
}
