import type { FastifyInstance } from 'fastify'
import type { AppContext } from '../../../app-context.js'
import { createBotRoute } from './create-bot.js'
import { deleteBotRoute } from './delete-bot.js'
import { getBotRoute } from './get-bot.js'
import { listBotsRoute } from './list-bots.js'
import { updateBotRoute } from './update-bot.js'

/** Endpoints 3–6 and the DELETE extension: bots of a company. */
export function registerBotRoutes(app: FastifyInstance, ctx: AppContext): void {
  createBotRoute(app, ctx)
  listBotsRoute(app, ctx)
  getBotRoute(app, ctx)
  updateBotRoute(app, ctx)
  deleteBotRoute(app, ctx)
}
