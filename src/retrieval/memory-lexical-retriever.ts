import type { ChunkHits, IndexFeed } from '../storage/ports/search.js'
import { compareRanked, maxScoreOf, type RankedChunk } from './bm25.js'
import { contextBoosts } from './context/boosts.js'
import type { DocumentContextIndex } from './context/document-context.js'
import { scopedSearch, spanWithMentions } from './context/mentions.js'
import { type DocumentSpan, EMPTY_SPAN } from './context/span.js'
import { queryLanguage, queryTerms } from './lexical-retriever.js'
import { IndexCache, type IndexCacheOptions } from './memory/index-cache.js'
import { retrievedChunk } from './retrieved-chunk.js'
import type { AnalysedQuery, ExplainingRetriever, RetrievalResult, RetrievedChunk, SearchQuery } from './types.js'

export interface MemoryLexicalRetrieverDeps {
  readonly repository: IndexFeed & ChunkHits
  /** Where a query goes when its company's index does not fit in memory: the store-based retriever. */
  readonly fallback: ExplainingRetriever
  readonly cache: IndexCacheOptions
}

/**
 * BM25 over an in-memory index of each company (src/retrieval/memory), kept fresh from the
 * store's change log before every query. The ranking is the exhaustive BM25 of LexicalRetriever
 * (same statistics, same arithmetic, same tie-break); the chunk rows are still read from the
 * store, restricted to PROCESSED documents, so a posting that went stale meanwhile never shows
 * text. Companies whose index does not fit in the budget are served by `fallback`.
 */
export class MemoryLexicalRetriever implements ExplainingRetriever {
  readonly cache: IndexCache

  constructor(private readonly deps: MemoryLexicalRetrieverDeps) {
    this.cache = new IndexCache(deps.repository, deps.cache)
  }

  async search(companyId: string, query: SearchQuery): Promise<RetrievedChunk[]> {
    return (await this.retrieve(companyId, query)).chunks
  }

  async documentContext(companyId: string): Promise<DocumentContextIndex> {
    const index = await this.cache.get(companyId)
    return index ? index.context() : this.deps.fallback.documentContext(companyId)
  }

  async documentSpan(companyId: string, text: string, scope: readonly string[] | null): Promise<DocumentSpan> {
    const index = await this.cache.get(companyId)
    if (!index) return this.deps.fallback.documentSpan(companyId, text, scope)
    const language = queryLanguage(text, index.corpus())
    return spanWithMentions(index.context(), text, language, scope, scopedSearch(this, companyId, language))
  }

  async retrieve(companyId: string, query: SearchQuery): Promise<RetrievalResult> {
    const index = await this.cache.get(companyId)
    if (!index) return this.deps.fallback.retrieve(companyId, query)
    const corpus = index.corpus()
    const language = queryLanguage(query.text, corpus, query.language)
    const terms = queryTerms(query.text, language)
    const scope = query.scope.documentIds
    if (terms.length === 0 || scope?.length === 0 || query.limit <= 0 || corpus.length === 0) {
      return { query: { terms, language, weights: [], frequencies: [] }, chunks: [], span: query.span ?? EMPTY_SPAN }
    }
    const span =
      query.span ??
      (await spanWithMentions(index.context(), query.text, language, scope, scopedSearch(this, companyId, language)))
    const boosts = contextBoosts(index.context(), { terms, scope, span })
    const { weights, frequencies, contenders } = index.score(terms, scope, query.limit, boosts)
    const analysed: AnalysedQuery = { terms, language, weights, frequencies }
    const rows = new Map(
      (
        await this.deps.repository.chunksByIds(
          companyId,
          contenders.map((entry) => entry.chunkId),
        )
      ).map((row) => [row.chunkId, row]),
    )
    const ranked: RankedChunk[] = []
    for (const entry of contenders) {
      const row = rows.get(entry.chunkId)
      // Gone since the index was refreshed (deleted or reprocessed in between): never a stale hit.
      if (row) ranked.push({ ...entry, documentId: row.documentId, objectName: row.objectName, idx: row.idx })
    }
    ranked.sort(compareRanked)
    const maxScore = maxScoreOf(weights)
    const chunks: RetrievedChunk[] = []
    for (const entry of ranked.slice(0, query.limit)) {
      const row = rows.get(entry.chunkId)
      if (!row) continue
      chunks.push(retrievedChunk(row, entry.score, maxScore > 0 ? Math.min(1, Math.max(0, entry.score / maxScore)) : 0))
    }
    return { query: analysed, chunks, span }
  }
}
