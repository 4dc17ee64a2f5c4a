import { errors } from '../../lib/errors.js'
import type { AnalysedQuery, ExplainingRetriever, MessageFilters, RetrievedChunk } from '../../retrieval/types.js'
import type { Store } from '../../storage/store.js'
import { resolveScope } from '../knowledge-base/scope.js'
import type { Principal } from '../principal.js'

export interface SearchInput {
  readonly query: string
  readonly filters?: MessageFilters
  /** Most hits, best first. */
  readonly limit: number
  /** Apply this bot's scope (and its manual_filters switch); the whole knowledge base when absent. */
  readonly botId?: string
}

export interface SearchResult {
  readonly hits: RetrievedChunk[]
  readonly query: AnalysedQuery
}

export interface SearchDeps {
  readonly store: Store
  readonly retriever: ExplainingRetriever
}

/** The search extension: the retrieval the chat uses, over the caller's company, ranked chunks out. */
export class SearchService {
  constructor(private readonly deps: SearchDeps) {}

  /**
   * Ranked chunks of the caller's PROCESSED documents within the scope (the bot's, narrowed by
   * `filters`). An unknown or foreign `botId` is 400 invalid_reference; filter errors as resolveScope.
   */
  async search(principal: Principal, input: SearchInput): Promise<SearchResult> {
    const { store, retriever } = this.deps
    const companyId = principal.companyId
    const bot = input.botId === undefined ? undefined : await store.bots.findById(companyId, input.botId)
    if (input.botId !== undefined && !bot) throw errors.invalidReference('body/bot_id', 'bot', input.botId)
    const scope = await resolveScope(store, companyId, bot, input.filters, bot ? bot.manualFilters : true)
    const result = await retriever.retrieve(companyId, { text: input.query, scope, limit: input.limit })
    return { hits: result.chunks, query: result.query }
  }
}
