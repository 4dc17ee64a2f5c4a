import { type ChatSummarizer, type ExportType, renderTranscript } from '../../answering/export.js'
import type { Clock } from '../../lib/clock.js'
import { errors } from '../../lib/errors.js'
import type { Store } from '../../storage/store.js'
import type { Principal } from '../principal.js'
import type { ChatService } from './chats.js'

export interface ExportRequest {
  readonly exportType: ExportType
  /** Title of the exported file (its first heading). */
  readonly title: string
  readonly summaryType: 'ai' | 'custom'
  /** Required (not blank) when `summaryType` is `custom`; ignored otherwise. */
  readonly summary?: string
}

export interface ExportedChat {
  readonly exportType: ExportType
  /** The whole transcript, ending with a newline. */
  readonly content: string
}

export interface ChatExportServiceDeps {
  readonly store: Store
  readonly clock: Clock
  readonly chats: ChatService
  /** Writes `summary_type: ai` summaries: offline, or the LLM when configured. */
  readonly summarizer: ChatSummarizer
}

/** Endpoint 12: a chat the caller may see, as a text or markdown transcript (spec 4.3 layout). */
export class ChatExportService {
  constructor(private readonly deps: ChatExportServiceDeps) {}

  /** The transcript of every stored message, oldest first; not_found for a chat the caller may not see. */
  async export(principal: Principal, chatId: string, request: ExportRequest): Promise<ExportedChat> {
    const custom = request.summaryType === 'custom' ? request.summary?.trim() : undefined
    if (request.summaryType === 'custom' && !custom) {
      throw errors.field('body/summary', 'is required when summary_type is custom')
    }
    const chat = await this.deps.chats.require(principal, chatId)
    const messages = await this.deps.store.messages.listForChat(principal.companyId, chat.id)
    const summary =
      custom ?? (await this.deps.summarizer.summarize(messages.map((m) => ({ actor: m.actor, text: m.text }))))
    const content = renderTranscript(
      {
        title: request.title,
        chatCreatedAt: chat.createdAt,
        exportedAt: this.deps.clock.now(),
        summary,
        messages: messages.map((m) => ({
          actor: m.actor,
          text: m.text,
          createdAt: m.createdAt,
          sources: m.sources.map((source) => ({ filename: source.filename, page: source.page })),
        })),
      },
      request.exportType,
    )
    return { exportType: request.exportType, content }
  }
}
