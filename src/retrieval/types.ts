import type { ChunkHitRecord } from '../storage/ports/search.js'
import type { DocumentContextIndex } from './context/document-context.js'
import type { DocumentSpan } from './context/span.js'

/**
 * The contract between retrieval (scope + ranking, src/retrieval) and its users: the search
 * extension endpoint and the conversation pipeline (src/answering).
 */

/** Which documents a query may see, after bot scope and message filters are combined. */
export interface ResolvedScope {
  /** Ids of the PROCESSED documents in scope; null means the whole knowledge base of the company. */
  readonly documentIds: readonly string[] | null
}

/** Message-level filters (spec 4.3): document ids in `paths`, tag ids in `tags`. */
export interface MessageFilters {
  readonly documentIds: readonly string[]
  readonly tagIds: readonly string[]
  /** Folder paths (search extension only): documents below any of them. */
  readonly folders?: readonly string[]
}

export interface SearchQuery {
  readonly text: string
  readonly scope: ResolvedScope
  /** Most chunks to return, best first. */
  readonly limit: number
  /** Analysis language of the query; detected from the text when absent. */
  readonly language?: string
  /** The documents the question names, when the caller already worked it out (else the retriever does). */
  readonly span?: DocumentSpan
}

/** One ranked chunk with everything a source entry or search hit needs. */
export interface RetrievedChunk extends ChunkHitRecord {
  /** `leave.pdf` (the last part of `objectName`) */
  readonly filename: string
  /** Raw ranking score (BM25, or fused), higher is better. */
  readonly score: number
  /** The score mapped to [0,1] for `usage_score`, comparable within one result list. */
  readonly usageScore: number
}

export interface Retriever {
  /** Ranked chunks of the company within the scope; identical order on every store. */
  search(companyId: string, query: SearchQuery): Promise<RetrievedChunk[]>
}

/** A query as the index saw it: its distinct terms and the language they were analysed in. */
export interface AnalysedQuery {
  readonly terms: readonly string[]
  readonly language: string
  /**
   * Each term's idf over the company's searchable chunks (BM25's), in the order of `terms`: how
   * much it tells passages apart in the whole knowledge base (highest for a term no chunk has).
   * Empty when the query was not searched (no terms, empty scope).
   */
  readonly weights: readonly number[]
  /** Each term's number of searchable chunks holding it (0: the knowledge base never has it); empty as `weights`. */
  readonly frequencies: readonly number[]
}

/** Ranked chunks with the analysed query that produced them. */
export interface RetrievalResult {
  readonly query: AnalysedQuery
  readonly chunks: RetrievedChunk[]
  /** The documents the question names, which raised their chunks. */
  readonly span: DocumentSpan
}

/** A Retriever that can also say how it read the query (the search extension echoes it). */
export interface ExplainingRetriever extends Retriever {
  retrieve(companyId: string, query: SearchQuery): Promise<RetrievalResult>
  /** The context (card, path) of the company's searchable documents that its rankings use. */
  documentContext(companyId: string): Promise<DocumentContextIndex>
  /** The documents a question names among those of `scope` (null: all), read as `retrieve` reads it. */
  documentSpan(companyId: string, text: string, scope: readonly string[] | null): Promise<DocumentSpan>
}
