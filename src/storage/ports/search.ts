/**
 * What retrieval reads: document scopes and the lexical index statistics. Every read is limited to
 * one company and to its PROCESSED documents (a document being processed again, failed or deleted
 * is never searched).
 */

/** Documents selected by any of: being under one of `folders`, carrying one of `tagIds`, or being one of `documentIds`. */
export interface DocumentSelection {
  /** Folder paths ending in `/`; `/` selects every document. */
  readonly folders: readonly string[]
  readonly tagIds: readonly string[]
  readonly documentIds: readonly string[]
}

/** Size of the searchable corpus of one language. */
export interface LanguageStats {
  readonly language: string
  readonly chunkCount: number
  /** Sum of `term_count` over those chunks. */
  readonly totalTerms: number
}

/** One posting of a query term, with what ranking needs about its chunk. */
export interface ScoredPosting {
  readonly term: string
  readonly tf: number
  readonly chunkId: string
  readonly documentId: string
  /** `term_count` of the chunk. */
  readonly termCount: number
  readonly objectName: string
  readonly idx: number
}

/** A document in the lexical index: its size per language and whether it is searchable. */
export interface IndexedDocument {
  readonly documentId: string
  readonly language: string
  readonly chunkCount: number
  readonly totalTerms: number
  /** PROCESSED (its chunks may be returned and count in the statistics). */
  readonly searchable: boolean
}

/** A posting read from a term's list in impact order. */
export interface ImpactPosting {
  readonly chunkId: string
  readonly impact: number
  readonly tf: number
  /** `term_count` of the chunk. */
  readonly termCount: number
  readonly documentId: string
}

/** Where a term's list was left: read strictly after this (impact descending, chunk id ascending). */
export interface ImpactCursor {
  readonly chunkId: string
  readonly impact: number
}

/** A chunk with the fields of its document that a search hit shows. */
export interface ChunkHitRecord {
  readonly chunkId: string
  readonly documentId: string
  readonly objectName: string
  readonly documentType: string
  readonly description: string
  readonly idx: number
  readonly text: string
  readonly pageNumber: string | null
  readonly rowIdx: string | null
  readonly metadata: Readonly<Record<string, unknown>>
}

export interface SearchRepository {
  /** Ids of the PROCESSED documents of the company that the selection names, sorted. */
  processedDocumentIds(companyId: string, selection: DocumentSelection): Promise<string[]>
  /** Every document of the company that has chunks, PROCESSED or not (one row per language). */
  indexedDocuments(companyId: string): Promise<IndexedDocument[]>
  /**
   * Number of chunks holding each term (kept statistics), less those of `excludedDocumentIds`;
   * terms held by no chunk are absent.
   */
  documentFrequencies(
    companyId: string,
    terms: readonly string[],
    excludedDocumentIds: readonly string[],
  ): Promise<Map<string, number>>
  /**
   * Up to `size` postings of `term`, best impact first then chunk id ascending, strictly after
   * `after` in that order; documents of any state (the caller filters).
   */
  impactPage(companyId: string, term: string, after: ImpactCursor | null, size: number): Promise<ImpactPosting[]>
  /** The postings of `terms` in these chunks of the company's PROCESSED documents. */
  postingsOfChunks(companyId: string, chunkIds: readonly string[], terms: readonly string[]): Promise<ScoredPosting[]>
  /** The postings of `terms` in the chunks of these PROCESSED documents of the company. */
  postingsOfDocuments(
    companyId: string,
    documentIds: readonly string[],
    terms: readonly string[],
  ): Promise<ScoredPosting[]>
  /** These chunks of the company's PROCESSED documents, in no particular order. */
  chunksByIds(companyId: string, chunkIds: readonly string[]): Promise<ChunkHitRecord[]>
}
