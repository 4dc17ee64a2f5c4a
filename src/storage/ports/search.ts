import type { DocumentCard } from './document-card.js'

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

/**
 * A chunk as the lexical index names it (migration 0008): its document's integer key and its idx
 * in the document.
 */
export interface ChunkRef {
  readonly documentKey: number
  readonly chunkIdx: number
}

/** A document in the lexical index: its size per language and whether it is searchable. */
export interface IndexedDocument {
  readonly documentId: string
  /** The document's integer key in the index. */
  readonly documentKey: number
  readonly language: string
  readonly chunkCount: number
  readonly totalTerms: number
  /** PROCESSED (its chunks may be returned and count in the statistics). */
  readonly searchable: boolean
}

/** A posting of a term in a chunk, with the chunk's length. */
export interface TermPosting extends ChunkRef {
  readonly term: string
  readonly tf: number
  /** `term_count` of the chunk. */
  readonly termCount: number
}

/**
 * Where a term's list was left: after the block of postings (migration 0009) of this impact bound,
 * document key and first chunk idx, in the list's order (impact bound descending, then document key
 * and first chunk ascending).
 */
export interface ImpactCursor {
  /** The block's largest impact: no posting after it has a larger one. */
  readonly impact: number
  readonly documentKey: number
  readonly firstChunk: number
}

/** Postings of a term's list read best blocks first, and where to read on (null: the list is read to its end). */
export interface ImpactPage {
  readonly postings: readonly TermPosting[]
  readonly after: ImpactCursor | null
}

/** Postings of whole terms in byte order of the terms, and the term to read on from (null: the last page). */
export interface TermPage {
  readonly postings: readonly ChunkPosting[]
  readonly next: string | null
}

/** A chunk with the fields of its document that a search hit shows. */
export interface ChunkHitRecord {
  readonly chunkId: string
  readonly documentId: string
  readonly objectName: string
  readonly documentType: string
  readonly description: string
  /** What its document is about: who, when, what kind (null until first processed). */
  readonly card: DocumentCard | null
  /** Chunk index in its document (`chunk_idx`). */
  readonly idx: number
  readonly text: string
  readonly pageNumber: string | null
  readonly rowIdx: string | null
  readonly metadata: Readonly<Record<string, unknown>>
  /** The language its terms were analysed in (its document's). */
  readonly language: string
}

/** A recorded change of the lexical index (migration 0007): a document touched under a version. */
export interface IndexChange {
  readonly version: number
  readonly documentId: string
}

/** A chunk of a PROCESSED document, as an in-memory index keeps it. */
export interface IndexedChunk extends ChunkRef {
  readonly chunkId: string
  readonly documentId: string
  /** `term_count` of the chunk. */
  readonly termCount: number
  readonly language: string
}

/** One posting of a chunk: a term and how often it occurs there. */
export interface ChunkPosting extends ChunkRef {
  readonly term: string
  readonly tf: number
}

/** What retrieval knows of a searchable document besides its chunks: where it is and what it is about. */
export interface DocumentContextRecord {
  readonly documentId: string
  /** `/reports/2023 Q3 ACME.pdf` */
  readonly objectName: string
  readonly card: DocumentCard | null
  /** The language most of its chunks are analysed in. */
  readonly language: string
}

/** The documents a scope selects: the domain's scope resolution reads them. */
export interface ScopeSelection {
  /** Ids of the PROCESSED documents of the company that the selection names, sorted. */
  processedDocumentIds(companyId: string, selection: DocumentSelection): Promise<string[]>
}

/** The documents the index holds, with their statistics and context (path, card, language): both lexical indexes and the knowledge base read them. */
export interface IndexedDocuments {
  /** Every document of the company that has chunks, PROCESSED or not (one row per language). */
  indexedDocuments(companyId: string): Promise<IndexedDocument[]>
  /**
   * The PROCESSED documents of the company that have chunks, with their path, card and language:
   * all of them, or those among `documentIds`.
   */
  documentContexts(companyId: string, documentIds?: readonly string[]): Promise<DocumentContextRecord[]>
}

/** Chunks as search hits, named by id or as the index names them. */
export interface ChunkHits {
  /** These chunks of the company's PROCESSED documents, in no particular order. */
  chunksByIds(companyId: string, chunkIds: readonly string[]): Promise<ChunkHitRecord[]>
  /** These chunks (named as the index names them) of the company's PROCESSED documents, in no particular order. */
  chunksByRefs(companyId: string, chunks: readonly ChunkRef[]): Promise<ChunkHitRecord[]>
}

/** What the store-backed lexical search reads: kept statistics, postings best first, hits. */
export interface PostingsReader extends ChunkHits, IndexedDocuments {
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
   * The postings of up to `size` blocks of `term`'s list, best blocks first (largest impact first,
   * then document key and first chunk ascending), strictly after `after`; documents of any state
   * (the caller filters). The postings of a page come in no particular order; what is left of the
   * list after a page has no impact above the page's `after.impact`.
   */
  impactPage(companyId: string, term: string, after: ImpactCursor | null, size: number): Promise<ImpactPage>
  /** The postings of `terms` in these chunks of the company's PROCESSED documents. */
  postingsOfChunks(companyId: string, chunks: readonly ChunkRef[], terms: readonly string[]): Promise<TermPosting[]>
  /** The postings of `terms` in the chunks of these PROCESSED documents of the company. */
  postingsOfDocuments(
    companyId: string,
    documentIds: readonly string[],
    terms: readonly string[],
  ): Promise<ScoredPosting[]>
}

/**
 * What feeds the in-memory index: whole posting lists in term order, the chunks, and the change
 * log that keeps it fresh.
 */
export interface IndexFeed extends IndexedDocuments {
  /** The company's index version: the number of index changes recorded (0 when none). */
  indexVersion(companyId: string): Promise<number>
  /**
   * The recorded changes after `version`, oldest first. Only recent versions are kept
   * (RETAINED_INDEX_VERSIONS): a first change above `version + 1` means some were dropped.
   */
  indexChangesSince(companyId: string, version: number): Promise<IndexChange[]>
  /** The chunks of those of these documents that are PROCESSED, by document then idx. */
  searchableChunks(companyId: string, documentIds: readonly string[]): Promise<IndexedChunk[]>
  /** Number of postings of the company, of documents in any state (from the kept statistics). */
  postingCount(companyId: string): Promise<number>
  /**
   * The postings of the company (documents in any state: the caller keeps those of the chunks it
   * loaded) of whole terms in byte order, from `fromTerm` on (from the first term when null), about
   * `limit` blocks of them (more when one term has more); the postings of one term come together,
   * in no particular order. Reads the blocks in their term order (a range of the clustered table or
   * the read-order index), no look-up per row.
   */
  postingsFromTerm(companyId: string, fromTerm: string | null, limit: number): Promise<TermPage>
  /** Every posting of the chunks of those of these documents that are PROCESSED, in no particular order. */
  searchablePostings(companyId: string, documentIds: readonly string[]): Promise<ChunkPosting[]>
}

/** The search side of the store, one object; each consumer takes only the part it reads. */
export interface SearchRepository extends ScopeSelection, PostingsReader, IndexFeed {}
