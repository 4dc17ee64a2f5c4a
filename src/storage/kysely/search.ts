import type { Kysely } from 'kysely'
import type {
  ChunkHitRecord,
  ChunkPosting,
  ChunkRef,
  DocumentContextRecord,
  DocumentSelection,
  ImpactCursor,
  ImpactPage,
  IndexChange,
  IndexedChunk,
  IndexedDocument,
  ScoredPosting,
  SearchRepository,
  TermPage,
  TermPosting,
} from '../ports/search.js'
import type { Database } from '../schema.js'
import { KyselyChunkHits } from './search/chunk-hits.js'
import { KyselyIndexFeed } from './search/index-feed.js'
import { KyselyIndexedDocuments } from './search/indexed-documents.js'
import { KyselyPostings } from './search/postings.js'
import { KyselyScopeSelection } from './search/scope-selection.js'

/** The search side of the store, one object: each part of the port is read by its own class under search/. */
export class KyselySearchRepository implements SearchRepository {
  private readonly scope: KyselyScopeSelection
  private readonly documents: KyselyIndexedDocuments
  private readonly hits: KyselyChunkHits
  private readonly postings: KyselyPostings
  private readonly feed: KyselyIndexFeed

  constructor(db: Kysely<Database>) {
    this.scope = new KyselyScopeSelection(db)
    this.documents = new KyselyIndexedDocuments(db)
    this.hits = new KyselyChunkHits(db)
    this.postings = new KyselyPostings(db)
    this.feed = new KyselyIndexFeed(db)
  }

  processedDocumentIds(companyId: string, selection: DocumentSelection): Promise<string[]> {
    return this.scope.processedDocumentIds(companyId, selection)
  }

  indexedDocuments(companyId: string): Promise<IndexedDocument[]> {
    return this.documents.indexedDocuments(companyId)
  }

  documentContexts(companyId: string, documentIds?: readonly string[]): Promise<DocumentContextRecord[]> {
    return this.documents.documentContexts(companyId, documentIds)
  }

  chunksByIds(companyId: string, chunkIds: readonly string[]): Promise<ChunkHitRecord[]> {
    return this.hits.chunksByIds(companyId, chunkIds)
  }

  chunksByRefs(companyId: string, chunks: readonly ChunkRef[]): Promise<ChunkHitRecord[]> {
    return this.hits.chunksByRefs(companyId, chunks)
  }

  documentFrequencies(
    companyId: string,
    terms: readonly string[],
    excludedDocumentIds: readonly string[],
  ): Promise<Map<string, number>> {
    return this.postings.documentFrequencies(companyId, terms, excludedDocumentIds)
  }

  impactPage(companyId: string, term: string, after: ImpactCursor | null, size: number): Promise<ImpactPage> {
    return this.postings.impactPage(companyId, term, after, size)
  }

  postingsOfChunks(companyId: string, chunks: readonly ChunkRef[], terms: readonly string[]): Promise<TermPosting[]> {
    return this.postings.postingsOfChunks(companyId, chunks, terms)
  }

  postingsOfDocuments(
    companyId: string,
    documentIds: readonly string[],
    terms: readonly string[],
  ): Promise<ScoredPosting[]> {
    return this.postings.postingsOfDocuments(companyId, documentIds, terms)
  }

  indexVersion(companyId: string): Promise<number> {
    return this.feed.indexVersion(companyId)
  }

  indexChangesSince(companyId: string, version: number): Promise<IndexChange[]> {
    return this.feed.indexChangesSince(companyId, version)
  }

  searchableChunks(companyId: string, documentIds: readonly string[]): Promise<IndexedChunk[]> {
    return this.feed.searchableChunks(companyId, documentIds)
  }

  postingCount(companyId: string): Promise<number> {
    return this.feed.postingCount(companyId)
  }

  postingsFromTerm(companyId: string, fromTerm: string | null, limit: number): Promise<TermPage> {
    return this.feed.postingsFromTerm(companyId, fromTerm, limit)
  }

  searchablePostings(companyId: string, documentIds: readonly string[]): Promise<ChunkPosting[]> {
    return this.feed.searchablePostings(companyId, documentIds)
  }
}
