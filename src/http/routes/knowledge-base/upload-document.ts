import { rm } from 'node:fs/promises'
import { join } from 'node:path'
import type { FastifyInstance, FastifySchemaCompiler } from 'fastify'
import type { AppContext } from '../../../app-context.js'
import { principalOf } from '../../plugins/auth.js'
import { BEARER, CompanyParams, IdResponse, responses } from '../../schemas/common.js'
import { UploadForm } from '../../schemas/knowledge-base.js'
import { validatorCompiler } from '../../validation.js'
import { receiveUpload } from './upload-form.js'

// The form is parsed as a stream by the handler (fields may follow the file), so the body schema
// only documents it; params are still validated as everywhere else.
const bodyDocumentedOnly: FastifySchemaCompiler<unknown> = (route) =>
  route.httpPart === 'body' ? () => true : validatorCompiler(route)

/** Endpoint 13: upload one file into a folder of the knowledge base and queue its ingestion. */
export function uploadDocumentRoute(app: FastifyInstance, ctx: AppContext): void {
  app.post(
    '/company/:company_id/knowledge-base',
    {
      validatorCompiler: bodyDocumentedOnly,
      schema: {
        operationId: 'uploadDocument',
        summary: 'Upload a document (multipart/form-data, one file part named `files`)',
        description:
          'The type is sniffed from the content. Same name in the same folder answers 409 unless `overwrite` is true, ' +
          'which keeps the document id and reprocesses it (200; a new document answers 201). Responds once the file is stored and its ingestion queued.',
        tags: ['knowledge-base'],
        security: BEARER,
        consumes: ['multipart/form-data'],
        params: CompanyParams,
        body: UploadForm,
        response: responses({ 201: IdResponse, 200: IdResponse }),
      },
    },
    async (request, reply) => {
      const upload = await receiveUpload(request, {
        tmpDir: join(ctx.config.dataDir, 'tmp'),
        maxBytes: ctx.config.maxUploadBytes,
      })
      try {
        const stored = await ctx.services.knowledgeBase.upload(principalOf(request), upload)
        return reply.code(stored.created ? 201 : 200).send({ id: stored.id })
      } finally {
        await rm(upload.file.path, { force: true })
      }
    },
  )
}
