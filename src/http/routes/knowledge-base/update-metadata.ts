import type { FastifyInstance } from 'fastify'
import type { Static } from 'typebox'
import type { AppContext } from '../../../app-context.js'
import type { LoaderType } from '../../../storage/ports/knowledge-base.js'
import { principalOf } from '../../plugins/auth.js'
import { BEARER, IdResponse, responses } from '../../schemas/common.js'
import { KbObjectParams, MetadataBody } from '../../schemas/knowledge-base.js'

/** Endpoint 16: edit a document's processing options, description and tags. */
export function updateMetadataRoute(app: FastifyInstance, ctx: AppContext): void {
  app.patch(
    '/company/:company_id/knowledge-base/:object_id/metadata',
    {
      schema: {
        operationId: 'updateMetadata',
        summary: "Edit a document's options, description and tags",
        description:
          'A change of loader_type, csv_delimiter or image_min_size_ratio, or auto_description true, reprocesses ' +
          'the document. `tags` replaces its tags. `document_card` (extension) corrects what the document is about; ' +
          'it is re-indexed at once, not processed again. A folder id answers 400 not_a_file.',
        tags: ['knowledge-base'],
        security: BEARER,
        params: KbObjectParams,
        body: MetadataBody,
        response: responses({ 200: IdResponse }),
      },
    },
    async (request) => {
      const params = request.params as Static<typeof KbObjectParams>
      const body = request.body as Static<typeof MetadataBody>
      return ctx.services.knowledgeBase.updateMetadata(principalOf(request), params.object_id, {
        loaderType: body.loader_type?.toUpperCase() as LoaderType | undefined,
        autoDescription: body.auto_description,
        description: body.description,
        csvDelimiter: body.csv_delimiter,
        imageMinSizeRatio: body.image_min_size_ratio,
        tags: body.tags,
        card: body.document_card && {
          title: body.document_card.title,
          subjects: body.document_card.subjects,
          kind: body.document_card.kind,
          period: body.document_card.period && {
            start: body.document_card.period.start,
            end: body.document_card.period.end,
            label: body.document_card.period.label,
            fiscalYear: body.document_card.period.fiscal_year,
            fiscalQuarter: body.document_card.period.fiscal_quarter,
          },
        },
      })
    },
  )
}
