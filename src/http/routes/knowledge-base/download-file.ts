import type { FastifyInstance } from 'fastify'
import type { Static } from 'typebox'
import type { AppContext } from '../../../app-context.js'
import { splitPath } from '../../../domain/knowledge-base/paths.js'
import { principalOf } from '../../plugins/auth.js'
import { contentDisposition } from '../../presenters/knowledge-base.js'
import { BEARER, EXTENSION, responses } from '../../schemas/common.js'
import { FileContent, KbObjectParams } from '../../schemas/knowledge-base.js'

/** Extension: the original bytes of a document, streamed with its sniffed MIME type. */
export function downloadFileRoute(app: FastifyInstance, ctx: AppContext): void {
  app.get(
    '/company/:company_id/knowledge-base/:object_id/file',
    {
      schema: {
        operationId: 'downloadFile',
        summary: 'Download the original file of a document',
        tags: ['knowledge-base'],
        security: BEARER,
        ...EXTENSION,
        produces: ['application/octet-stream'],
        params: KbObjectParams,
        response: responses({ 200: FileContent }),
      },
    },
    async (request, reply) => {
      const params = request.params as Static<typeof KbObjectParams>
      const { document, content } = await ctx.services.knowledgeBase.openFile(principalOf(request), params.object_id)
      return (
        reply
          .type(document.mimeType)
          .header('content-length', String(document.size))
          .header('content-disposition', contentDisposition(splitPath(document.objectName).name))
          // Uploaded HTML or SVG must never run as a page of this origin.
          .header('x-content-type-options', 'nosniff')
          .header('content-security-policy', "default-src 'none'; sandbox")
          .send(content)
      )
    },
  )
}
