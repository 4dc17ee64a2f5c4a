import type { TokenService } from './auth/tokens.js'
import type { BotService } from './bots/bots.js'
import type { ChatService } from './chats/chats.js'
import type { ChatExportService } from './chats/export.js'
import type { MessageService } from './chats/messages.js'
import type { CompanyService } from './companies/companies.js'
import type { KnowledgeBaseService } from './knowledge-base/knowledge-base.js'
import type { SearchService } from './search/search.js'
import type { TagService } from './tags/tags.js'

/** Every domain service, built once in the composition root (src/app-context.ts). */
export interface Services {
  readonly tokens: TokenService
  readonly companies: CompanyService
  readonly knowledgeBase: KnowledgeBaseService
  readonly tags: TagService
  readonly bots: BotService
  readonly chats: ChatService
  /** Endpoint 12: chat transcripts. */
  readonly chatExport: ChatExportService
  readonly search: SearchService
  /** Endpoints 10 and 11: questions, answers and the message history of a chat. */
  readonly messages: MessageService
}
