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
  /** Chunk count and total length per language over the company's PROCESSED documents, by language. */
  corpusStats(companyId: string): Promise<LanguageStats[]>
  /** Every posting of these terms in the company's PROCESSED documents (read through the (company_id, term) index). */
  postings(companyId: string, terms: readonly string[]): Promise<ScoredPosting[]>
  /** These chunks of the company's PROCESSED documents, in no particular order. */
  chunksByIds(companyId: string, chunkIds: readonly string[]): Promise<ChunkHitRecord[]>
}
