import type { TokenService } from './auth/tokens.js'
import type { BotService } from './bots/bots.js'
import type { ChatService } from './chats/chats.js'
import type { CompanyService } from './companies/companies.js'
import type { KnowledgeBaseService } from './knowledge-base/knowledge-base.js'
import type { TagService } from './tags/tags.js'

/** Every domain service, built once in the composition root (src/app-context.ts). */
export interface Services {
  readonly tokens: TokenService
  readonly companies: CompanyService
  readonly knowledgeBase: KnowledgeBaseService
  readonly tags: TagService
  readonly bots: BotService
  readonly chats: ChatService
}
