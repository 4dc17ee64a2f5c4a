import type { Timestamp } from '../../lib/clock.js'

/** Spec 2.9 metadata of a chunk: a flat JSON object. */
export type ChunkMetadata = Readonly<Record<string, string | number | boolean | null>>

/** One stored chunk of a processed document. */
export interface ChunkRecord {
  readonly id: string
  readonly companyId: string
  readonly documentId: string
  /** Position in the document, 0-based. */
  readonly idx: number
  readonly text: string
  /** cl100k_base tokens. */
  readonly tokenCount: number
  /** Number of analysed terms: the document length BM25 uses. */
  readonly termCount: number
  readonly pageNumber: string | null
  readonly rowIdx: string | null
  readonly metadata: ChunkMetadata
  /** ISO 639-1 code the chunk was analysed with. */
  readonly language: string
  readonly createdAt: Timestamp
}

/** A term of a chunk and how often it occurs there. */
export interface Posting {
  readonly term: string
  readonly tf: number
}

/** A posting as the index stores it: with its BM25 term-frequency part at the reference length, the read order. */
export interface IndexedPosting extends Posting {
  readonly impact: number
}

export interface ChunkWithPostings {
  readonly chunk: ChunkRecord
  readonly postings: readonly IndexedPosting[]
}

/** A posting as listed for a document: which chunk (by idx) holds the term. */
export interface DocumentPosting extends Posting {
  readonly chunkIdx: number
}

/**
 * What chunks written for a document add to the index statistics (chunks and terms per language,
 * chunks holding each term), gathered while its chunks are staged and applied when they are
 * published.
 */
export interface IndexTally {
  readonly sizes: Map<string, { chunks: number; terms: number }>
  readonly frequencies: Map<string, number>
}

export function emptyTally(): IndexTally {
  return { sizes: new Map(), frequencies: new Map() }
}

/** Adds `from` to `into`. */
export function addTally(into: IndexTally, from: IndexTally): void {
  for (const [language, size] of from.sizes) {
    const total = into.sizes.get(language) ?? { chunks: 0, terms: 0 }
    total.chunks += size.chunks
    total.terms += size.terms
    into.sizes.set(language, total)
  }
  for (const [term, n] of from.frequencies) into.frequencies.set(term, (into.frequencies.get(term) ?? 0) + n)
}

export interface ChunksRepository {
  /**
   * Makes `chunks` exactly the chunks of the document, with their postings, published: old rows
   * deleted, new ones inserted in batches. Atomic only inside the caller's transaction, which is
   * where it runs.
   */
  replaceForDocument(companyId: string, documentId: string, chunks: readonly ChunkWithPostings[]): Promise<void>
  /**
   * Stores chunks of a document that is still being processed, adding what they count to `tally`:
   * they are listed with the document but stay out of the index statistics and the change log
   * until `publishStaged`. A large document is written this way a batch per transaction.
   */
  stage(companyId: string, documentId: string, chunks: readonly ChunkWithPostings[], tally: IndexTally): Promise<void>
  /** Counts the document's staged chunks (all of them, gathered in `tally`) in the index statistics. */
  publishStaged(companyId: string, documentId: string, tally: IndexTally): Promise<void>
  /** Deletes the chunks and postings of these documents, published or staged. */
  deleteForDocuments(companyId: string, documentIds: readonly string[]): Promise<void>
  /** The chunks of a document ordered by idx; empty when it has none (or is not the company's). */
  listForDocument(companyId: string, documentId: string): Promise<ChunkRecord[]>
  countForDocument(companyId: string, documentId: string): Promise<number>
  /** Every posting of a document, ordered by chunk idx then term (byte order). */
  postingsForDocument(companyId: string, documentId: string): Promise<DocumentPosting[]>
}
