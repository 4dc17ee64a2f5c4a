import type { FastifyInstance } from 'fastify'
import type { AppContext } from '../../app-context.js'
import { getCompanyRoute } from './auth/get-company.js'
import { getUsageRoute } from './auth/get-usage.js'
import { issueTokenRoute } from './auth/issue-token.js'
import { registerBotRoutes } from './bots/index.js'
import { registerChatRoutes } from './chats/index.js'
import { registerKnowledgeBaseRoutes } from './knowledge-base/index.js'
import { registerTagRoutes } from './tags/index.js'

/** Every operation under /apif/v2, one file each, grouped by resource. */
export async function registerRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  issueTokenRoute(app, ctx)
  getCompanyRoute(app, ctx)
  getUsageRoute(app, ctx)
  registerBotRoutes(app, ctx)
  registerChatRoutes(app, ctx)
  registerTagRoutes(app, ctx)
  registerKnowledgeBaseRoutes(app, ctx)
}
