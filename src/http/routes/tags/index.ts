import type { FastifyInstance } from 'fastify'
import type { AppContext } from '../../../app-context.js'
import { createTagRoute } from './create-tag.js'
import { deleteTagRoute } from './delete-tag.js'
import { listTagsRoute } from './list-tags.js'
import { updateTagRoute } from './update-tag.js'

/** Endpoints 19–21 and the DELETE extension: the company's tags. */
export function registerTagRoutes(app: FastifyInstance, ctx: AppContext): void {
  listTagsRoute(app, ctx)
  createTagRoute(app, ctx)
  updateTagRoute(app, ctx)
  deleteTagRoute(app, ctx)
}
