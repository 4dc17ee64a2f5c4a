import { join } from 'node:path'
import { type Config, ConfigError, type PdfTextSource } from '../../config.js'
import type { IngestLimits } from '../model.js'
import { libreOfficeRuns } from '../parsers/libreoffice.js'
import { mutoolRuns } from '../parsers/pdf-mutool.js'

/** How documents are processed: limits, OCR languages, chunking, where local copies go. */
export interface IngestSettings {
  /** Local copies of documents being processed (`<dataDir>/tmp`). */
  readonly tempDir: string
  readonly limits: IngestLimits
  readonly ocrLanguages: readonly string[]
  /** MuPDF's `mutool` for the text layer of PDFs, or null for pdf.js (LANTERN_PDF_TEXT). */
  readonly mutool: string | null
  /** LibreOffice's `soffice` when it runs here (detected once), or null. */
  readonly soffice: string | null
  readonly chunkTokens: number
  readonly chunkOverlapTokens: number
  /** Progress is written to the document at most this often. */
  readonly progressIntervalMs: number
}

/**
 * The ingestion settings a configuration gives. It runs `mutool` and `soffice` to see whether they work
 * here, so a process computes it once (app-context.ts) and hands it on.
 */
export function ingestSettings(config: Config): IngestSettings {
  return {
    tempDir: join(config.dataDir, 'tmp'),
    limits: {
      maxPages: config.maxPages,
      maxZipEntries: config.zipMaxEntries,
      maxZipUncompressedBytes: config.zipMaxBytes,
      maxZipRatio: config.zipMaxRatio,
      timeBudgetMs: config.docTimeBudgetMs,
      memoryMb: config.docMemoryMb,
    },
    ocrLanguages: config.ocrLanguages,
    mutool: mutoolFor(config.pdfText),
    soffice: libreOfficeRuns() ? 'soffice' : null,
    chunkTokens: config.chunkTokens,
    chunkOverlapTokens: config.chunkOverlapTokens,
    progressIntervalMs: 500,
  }
}

/** The mutool command LANTERN_PDF_TEXT asks for; `mutool` on a machine without one is a configuration error. */
function mutoolFor(source: PdfTextSource): string | null {
  if (source === 'pdfjs') return null
  if (mutoolRuns()) return 'mutool'
  if (source === 'mutool') {
    throw new ConfigError(
      'LANTERN_PDF_TEXT is mutool, but no mutool that writes stext.json (mupdf-tools ≥ 1.19) runs here',
    )
  }
  return null
}
