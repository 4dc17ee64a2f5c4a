import type { Timestamp } from '../../lib/clock.js'
import type { CardType, DocumentCard } from './document-card.js'

export type EmbeddingState = 'PENDING' | 'PROCESSING' | 'PROCESSED' | 'ERROR'
export type LoaderType = 'STANDARD' | 'ADVANCED'
export type CsvDelimiter = 'comma' | 'semicolon' | 'tab'

export interface FolderRecord {
  readonly kind: 'folder'
  readonly id: string
  readonly companyId: string
  /** Absolute path ending in `/`, e.g. `/hr/policies/`. */
  readonly objectName: string
  readonly createdAt: Timestamp
  readonly updatedAt: Timestamp
}

export interface ProcessingRecord {
  readonly state: EmbeddingState
  readonly errorDetails: string
  readonly chunkCount: number
  readonly docPagesCount: number
  readonly startedAt: Timestamp | null
  readonly endedAt: Timestamp | null
  /** Seconds. */
  readonly duration: number | null
  readonly progressDone: number
  readonly progressTotal: number
}

export interface DocumentRecord {
  readonly kind: 'document'
  readonly id: string
  readonly companyId: string
  /** Absolute path of the file, e.g. `/hr/policies/leave.pdf`. */
  readonly objectName: string
  readonly size: number
  /** Sniffed from the content. */
  readonly mimeType: string
  readonly sha256: string
  readonly blobKey: string
  readonly description: string
  readonly descriptionType: 'ai' | 'manual'
  readonly documentType: string
  readonly loaderType: LoaderType
  readonly autoDescription: boolean
  readonly csvDelimiter: CsvDelimiter | null
  readonly imageMinSizeRatio: number | null
  readonly processing: ProcessingRecord
  /** What the document is about; null until it is first processed. */
  readonly card: DocumentCard | null
  readonly cardType: CardType
  readonly createdAt: Timestamp
  readonly updatedAt: Timestamp
}

export type KbObjectRecord = FolderRecord | DocumentRecord

export interface ListQuery {
  /** Folder path ending in `/`; `/` is the root. */
  readonly folder: string
  /** Whole subtree depth-first by path, instead of the folder's direct children. */
  readonly recursive: boolean
  /** Case-insensitive substring of the entry's name. */
  readonly search: string | undefined
  /** Only the documents carrying this tag (folders are left out). */
  readonly tagId?: string | undefined
  readonly offset: number
  readonly limit: number
}

/** What a processing run writes on its document; absent fields are left as they are. */
export interface ProcessingUpdate {
  readonly state?: EmbeddingState
  readonly errorDetails?: string
  readonly chunkCount?: number
  readonly docPagesCount?: number
  readonly startedAt?: Timestamp | null
  readonly endedAt?: Timestamp | null
  /** Seconds. */
  readonly duration?: number | null
  readonly progressDone?: number
  readonly progressTotal?: number
  /** The type sniffed again from the stored bytes, and the document type that follows from it. */
  readonly mimeType?: string
  readonly documentType?: string
  /** Applied only while the document's description is generated (auto_description on, type `ai`). */
  readonly generatedDescription?: string
  /** Applied only while the card is read from the document (card type `ai`): a user's correction is kept. */
  readonly card?: DocumentCard
}

/**
 * Which document rows a processing write applies to: `any`; `unfinished` (PENDING or PROCESSING);
 * or `{ run }`, only while the document is PROCESSING under the run that started at `run`, so an
 * upload that replaced the file or an edit that asked for reprocessing (both reset the document to
 * PENDING) or a newer run makes the write a no-op.
 */
export type ProcessingGuard = 'any' | 'unfinished' | { readonly run: Timestamp }

export interface KnowledgeBaseRepository {
  /** Throws already_exists when the path is taken. */
  insertFolder(folder: FolderRecord): Promise<void>
  /** Inserts the folder unless its path exists already (a concurrent mkdir is not an error); true when inserted. */
  insertFolderIfMissing(folder: FolderRecord): Promise<boolean>
  /** Throws already_exists when the path is taken. */
  insertDocument(document: DocumentRecord): Promise<void>
  findById(companyId: string, id: string): Promise<KbObjectRecord | undefined>
  findByName(companyId: string, objectName: string): Promise<KbObjectRecord | undefined>
  /** The entries among `objectNames` that exist, in no particular order. */
  findByNames(companyId: string, objectNames: readonly string[]): Promise<KbObjectRecord[]>
  /** Direct children (folders first, then files, by name ignoring case) or the subtree by path. */
  list(companyId: string, query: ListQuery): Promise<KbObjectRecord[]>
  /** Replaces the stored document with `document` (same id and company). */
  replaceDocument(document: DocumentRecord): Promise<void>
  /** Every document at or below a folder path (or all, for `/`). */
  documentsUnder(companyId: string, folder: string): Promise<DocumentRecord[]>
  /** Deletes an entry; for a folder, everything below it too. Returns the documents removed. */
  deleteSubtree(companyId: string, objectName: string): Promise<DocumentRecord[]>
  /** Sum of the sizes of all documents of the company, in bytes. */
  storedBytes(companyId: string): Promise<number>
  countByState(companyId: string): Promise<Record<EmbeddingState, number>>
  /** Writes processing state on a document when `guard` allows; false when it did not (or the document is gone). */
  updateProcessing(companyId: string, id: string, guard: ProcessingGuard, update: ProcessingUpdate): Promise<boolean>
}
