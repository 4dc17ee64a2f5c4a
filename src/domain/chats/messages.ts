import type { Clock, Timestamp } from '../../lib/clock.js'
import { AppError, errors } from '../../lib/errors.js'
import { newId } from '../../lib/ids.js'
import type { MessageFilters } from '../../retrieval/types.js'
import type { MessageRecord } from '../../storage/ports/messages.js'
import type { Store } from '../../storage/store.js'
import { questionLanguages } from '../../text/answer-language.js'
import { assertLicenceActive } from '../companies/licence.js'
import { resolveScope } from '../knowledge-base/scope.js'
import type { Principal } from '../principal.js'
import type { AnalysisTurn, AnalysisTurns } from './analysis-turns.js'
import type { ChatService } from './chats.js'
import type { Conversation } from './conversation.js'
import type { QuestionContext, Turn } from './turn.js'

/** Longest message, in characters. */
export const MESSAGE_MAX = 10_000
/** `size` bounds of the message history (DESIGN §4). */
export const HISTORY_SIZE = { min: 1, max: 100, default: 1 } as const
/** Earlier messages the pipeline sees (rephrasing uses the last question). */
const CONTEXT_MESSAGES = 10

export interface NewMessage {
  readonly message: string
  readonly autoDocumentSelector?: boolean
  readonly filters?: { readonly paths?: readonly string[]; readonly tags?: readonly string[] }
  readonly dataAnalysis?: boolean
  readonly documentIds?: readonly string[]
}

/** An answered question: the stored assistant message and what the pipeline produced. */
export interface SentMessage {
  readonly chatId: string
  readonly botId: string
  readonly companyId: string
  readonly autoDocFiltering: boolean
  readonly turn: Turn
  readonly answer: MessageRecord
  /** Data-analysis mode: the typed result (`analysis` field); null when the mode was not used or declined. */
  readonly analysis: AnalysisTurn['report']
}

export interface MessageServiceDeps {
  readonly store: Store
  readonly clock: Clock
  readonly chats: ChatService
  readonly conversation: Conversation
  /** Data-analysis mode; without it `data_analysis: true` is refused and nothing is routed. */
  readonly analysis?: AnalysisTurns
}

/**
 * Questions and answers of a chat. Asking needs a live licence with questions left; each question
 * counts once and stores two messages (user, assistant) in one transaction, or nothing at all.
 */
export class MessageService {
  constructor(private readonly deps: MessageServiceDeps) {}

  /** Answers a question in a chat the caller may see, and stores both messages. */
  async send(
    principal: Principal,
    chatId: string,
    input: NewMessage,
    onToken?: (text: string) => void,
  ): Promise<SentMessage> {
    const { store, clock } = this.deps
    const chat = await this.deps.chats.require(principal, chatId)
    const company = await store.companies.findById(principal.companyId)
    if (!company) throw errors.notFound('company', principal.companyId)
    assertLicenceActive(company, clock)
    if (company.questionsUsed >= company.questionsMax) throw quotaExceeded(company.questionsMax)
    if (input.message.trim() === '') throw errors.field('body/message', 'must not be blank')

    const bot = await store.bots.findById(principal.companyId, chat.botId)
    if (!bot) throw errors.notFound('bot', chat.botId)
    const { analysis } = this.deps
    if (input.dataAnalysis === true && (!bot.dataScientistMode || !analysis)) {
      throw new AppError(
        'data_analysis_disabled',
        bot.dataScientistMode
          ? 'data-analysis mode is not available in this service; ask without data_analysis'
          : 'this bot does not allow data analysis (data_scientist_mode is off)',
      )
    }

    const asked = clock.now()
    const history = await store.messages.history(principal.companyId, chatId, asked, CONTEXT_MESSAGES)
    const filters: MessageFilters | undefined = input.filters
      ? { documentIds: input.filters.paths ?? [], tagIds: input.filters.tags ?? [] }
      : undefined
    // Worked out once for the turn, whichever path answers it.
    const question: QuestionContext = {
      companyId: principal.companyId,
      bot,
      message: input.message,
      scope: await resolveScope(store, principal.companyId, bot, filters, bot.manualFilters),
      languages: questionLanguages(bot.locale, input.message),
    }
    let analysed: AnalysisTurn | null = null
    if (analysis && input.dataAnalysis === true) {
      analysed = await analysis.explicit(store, question, input.documentIds)
    } else if (analysis && input.dataAnalysis === undefined && bot.dataScientistMode) {
      // Automatic routing: a table question the planner maps confidently is computed, not retrieved.
      analysed = await analysis.automatic(store, question)
    }
    if (analysed) onToken?.(analysed.turn.text)
    const turn =
      analysed?.turn ??
      (await this.deps.conversation.respond(
        store,
        {
          ...question,
          autoDocumentSelector: input.autoDocumentSelector,
          history: history.map((m) => ({ actor: m.actor, text: m.text })),
        },
        onToken,
      ))

    const asking: MessageRecord = {
      id: newId(),
      companyId: principal.companyId,
      chatId,
      actor: 'user',
      text: input.message,
      createdAt: asked,
      tags: [],
      sources: [],
    }
    const answer: MessageRecord = {
      id: newId(),
      companyId: principal.companyId,
      chatId,
      actor: 'assistant',
      text: turn.text,
      createdAt: clock.now(),
      tags: citedPaths(turn),
      sources: turn.sources,
    }
    await store.transaction(async (tx) => {
      if (!(await tx.companies.incrementQuestionsUsed(principal.companyId))) throw quotaExceeded(company.questionsMax)
      await tx.messages.insert(asking)
      await tx.messages.insert(answer)
    })
    return {
      chatId,
      botId: bot.id,
      companyId: principal.companyId,
      autoDocFiltering: input.autoDocumentSelector ?? false,
      turn,
      answer,
      analysis: analysed?.report ?? null,
    }
  }

  /** The `size` newest messages strictly before `before` (default now), oldest first. Works after expiry. */
  async history(
    principal: Principal,
    chatId: string,
    query: { readonly size: number; readonly before?: Timestamp },
  ): Promise<MessageRecord[]> {
    await this.deps.chats.require(principal, chatId)
    const before = query.before ?? this.deps.clock.now()
    return this.deps.store.messages.history(principal.companyId, chatId, before, query.size)
  }
}

function quotaExceeded(max: number): AppError {
  return new AppError('questions_quota_exceeded', `the company has used all ${max} questions of its licence`)
}

/** Spec 2.6 `tags` of an answer: one `{path: [tag names]}` per cited document, in citation order. */
function citedPaths(turn: Turn): Record<string, string[]>[] {
  const seen = new Set<string>()
  const entries: Record<string, string[]>[] = []
  for (const source of turn.sources) {
    if (seen.has(source.objectName)) continue
    seen.add(source.objectName)
    entries.push({ [source.objectName]: [...source.tags] })
  }
  return entries
}

const ISO_LOCAL = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2}:\d{2})(?:\.(\d{1,6}))?(Z|[+-]00:00)?$/

/**
 * A history `timestamp` as stored: ISO 8601 UTC with or without `Z` and with or without a
 * fraction (`2026-11-22T09:05:03`, `…03.5Z`, `…03.123456`); anything else is 400 at `query/timestamp`.
 */
export function parseHistoryTimestamp(text: string): Timestamp {
  const match = ISO_LOCAL.exec(text.trim())
  const [, date, time, fraction] = match ?? []
  if (!date || !time || Number.isNaN(Date.parse(`${date}T${time}Z`))) {
    throw errors.field('query/timestamp', 'must be an ISO 8601 UTC datetime like 2026-11-22T09:05:03.123456Z')
  }
  const roundTrip = new Date(`${date}T${time}Z`).toISOString().slice(0, 19)
  if (roundTrip !== `${date}T${time}`) {
    throw errors.field('query/timestamp', 'is not a valid calendar date and time')
  }
  return `${date}T${time}.${(fraction ?? '').padEnd(6, '0')}`
}
