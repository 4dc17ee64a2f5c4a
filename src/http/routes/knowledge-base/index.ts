import multipart from '@fastify/multipart'
import type { FastifyInstance } from 'fastify'
import type { AppContext } from '../../../app-context.js'
import { createFolderRoute } from './create-folder.js'
import { deleteObjectRoute } from './delete-object.js'
import { downloadFileRoute } from './download-file.js'
import { getChunksRoute } from './get-chunks.js'
import { getObjectRoute } from './get-object.js'
import { listObjectsRoute } from './list-objects.js'
import { searchRoute } from './search.js'
import { updateMetadataRoute } from './update-metadata.js'
import { uploadDocumentRoute } from './upload-document.js'
import { UPLOAD_FORM_LIMITS } from './upload-form.js'

/** Endpoints 13–18 with the DELETE and download extensions: the knowledge-base tree. */
export function registerKnowledgeBaseRoutes(app: FastifyInstance, ctx: AppContext): void {
  listObjectsRoute(app, ctx)
  getObjectRoute(app, ctx)
  getChunksRoute(app, ctx)
  updateMetadataRoute(app, ctx)
  createFolderRoute(app, ctx)
  deleteObjectRoute(app, ctx)
  downloadFileRoute(app, ctx)
  searchRoute(app, ctx)
  // Multipart parsing only where a form is expected; everywhere else such a body is a 415.
  void app.register(async (uploads) => {
    await uploads.register(multipart, {
      limits: { ...UPLOAD_FORM_LIMITS, fileSize: ctx.config.maxUploadBytes },
      throwFileSizeLimit: false,
    })
    uploadDocumentRoute(uploads, ctx)
  })
}
