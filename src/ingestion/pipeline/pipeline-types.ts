import type { DocumentCard } from '../../storage/ports/document-card.js'
import type { IngestLimits, ParseOptions } from '../model.js'

/**
 * The contract between the job runtime (src/jobs, src/ingestion/jobs/ingest-job.ts) and document
 * processing (src/ingestion/pipeline/process-document.ts). Processing is pure (no store access), so it can
 * run in a worker thread with its own heap limit and be terminated at the time budget.
 */
export interface DocumentToProcess {
  readonly companyId: string
  readonly documentId: string
  /** `/hr/leave.pdf` */
  readonly objectName: string
  readonly filename: string
  readonly mimeType: string
  /** A local copy of the stored bytes. */
  readonly filePath: string
  readonly options: ParseOptions
  readonly limits: IngestLimits
  readonly ocrLanguages: readonly string[]
  /** MuPDF's `mutool` for the text layer of PDFs; null: pdf.js. */
  readonly mutool: string | null
  /** LibreOffice's `soffice` for the legacy Office formats it converts; null: not installed. */
  readonly soffice: string | null
  /** Generate a description (description_type `ai`). */
  readonly autoDescription: boolean
  /** Chunk size in tokens (cl100k) and overlap. */
  readonly chunkTokens: number
  readonly chunkOverlapTokens: number
}

/** One chunk ready to store, with the spec 2.9 metadata that applies to it. */
export interface ChunkDraft {
  /** Position in the document, 0-based; `chunk_idx` in sources. */
  readonly idx: number
  readonly text: string
  readonly tokenCount: number
  /** `"3"`, `"3-4"`, slide number, or `Sheet1` + rows; null when the format has no pages. */
  readonly pageNumber: string | null
  /** Source rows for csv/xlsx chunks (`"12"`, `"12-40"`); null otherwise. */
  readonly rowIdx: string | null
  readonly metadata: Readonly<Record<string, string | number | boolean | null>>
  /**
   * Number of analysed terms (BM25 length) and the postings (term → frequency, in order of first
   * occurrence), computed in the processing thread by processDocument so that the commit on the
   * main thread only writes rows; indexDocument computes them when absent.
   */
  readonly termCount?: number
  /** Encoded by `encodePostings` (index-document.ts): one string per chunk, not an object per term. */
  readonly postings?: string
}

/** What processing found besides the chunks (which go to a ChunkSink as they are cut). */
export interface ProcessingSummary {
  readonly chunkCount: number
  readonly pageCount: number
  readonly documentType: 'text' | 'image'
  /** ISO 639-1 code detected from the text (`en` when unsure). */
  readonly language: string
  /** Generated description, or null when none was asked for or none could be made. */
  readonly description: string | null
  /** What the document is about, read from it (src/ingestion/card); always computed, stored by the ingest job. */
  readonly card: DocumentCard
}

/** A processed document with all of its chunks at once. */
export interface ProcessedDocument extends Omit<ProcessingSummary, 'chunkCount'> {
  readonly chunks: readonly ChunkDraft[]
}

/**
 * Takes the chunks of a document being processed, a batch at a time, in idx order; processing
 * waits for it before cutting more, so a huge document is never held as chunks all at once.
 * `last` says no batch follows (a processing thread hands that one over with its result).
 */
export type ChunkSink = (chunks: readonly ChunkDraft[], language: string, last?: boolean) => Promise<void>

/** Progress reported while processing: units (pages) done of total. */
export type ProgressReporter = (done: number, total: number) => void
