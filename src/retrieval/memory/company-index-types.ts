import type { ChunkPosting, DocumentContextRecord, IndexedChunk } from '../../storage/ports/search.js'

/** The documents of one load or refresh: their chunks and postings. */
export interface DocumentBatch {
  /** Every document the batch is about: those without chunks here are removed from the index. */
  readonly documentIds: readonly string[]
  readonly chunks: readonly IndexedChunk[]
  readonly postings: readonly ChunkPosting[]
  /** The context (path, card, language) of the batch's documents that are searchable. */
  readonly contexts: readonly DocumentContextRecord[]
}

/** A scored chunk of the in-memory index. */
export interface ScoredChunk {
  readonly chunkId: string
  readonly documentId: string
  readonly score: number
}

export interface IndexScoring {
  /** idf of each query term (same order), over the searchable chunks. */
  readonly weights: number[]
  /** Number of searchable chunks holding each query term (same order). */
  readonly frequencies: number[]
  /**
   * The chunks whose score reaches the `limit`-th best score (ties included), unsorted: the top
   * `limit` once the caller breaks ties by object name and chunk idx.
   */
  readonly contenders: ScoredChunk[]
}
