import { detectLanguage } from '../../text/analysis.js'
import { readCard } from '../card/read-card.js'
import { chunksOf } from '../chunking/chunker.js'
import type { ParsedDocument } from '../model.js'
import { parserFor } from '../parsers/registry.js'
import { describeDocument } from './describe.js'
import { withPostings } from './index-document.js'
import type {
  ChunkDraft,
  ChunkSink,
  DocumentToProcess,
  ProcessedDocument,
  ProcessingSummary,
  ProgressReporter,
} from './pipeline-types.js'
import { tableText } from './table-text.js'

/**
 * Chunks are handed on in batches of at most this many, or this many characters of text. Each batch
 * is one transaction of the store, and a transaction rewrites every index page it touches, so
 * larger batches write less per chunk (SQLite, `npm run bench:postings-writes`: 584,140 postings
 * in transactions of 27,000 took 7.7 s, of 54,000 6.6 s); but the thread holds two batches
 * and the store one, so 2,000 chunks cost about 120 MiB more at the service's peak than 1,000,
 * for no measurable speed.
 */
export const BATCH_CHUNKS = 1000
const BATCH_CHARS = 2 << 20

/** Characters of text language detection looks at. */
const LANGUAGE_SAMPLE_CHARS = 20_000

/** Prose first (headings, tables and OCR only when a document has no paragraphs), bounded. */
function languageSample(parsed: ParsedDocument): string {
  const pick = (kinds: ReadonlySet<string>): string => {
    const parts: string[] = []
    let used = 0
    for (const block of parsed.blocks) {
      if (!kinds.has(block.kind)) continue
      const text =
        block.kind === 'table'
          ? tableText(block, { cellSeparator: ' ', withHeader: false, limit: LANGUAGE_SAMPLE_CHARS - used })
          : block.text
      parts.push(text)
      used += text.length + 1
      if (used >= LANGUAGE_SAMPLE_CHARS) break
    }
    return parts.join('\n')
  }
  const prose = pick(new Set(['paragraph']))
  return prose.trim() ? prose : pick(new Set(['heading', 'table', 'image']))
}

/**
 * Parses, analyses and chunks one document, with no store access (it runs in a worker thread):
 * the parser for its sniffed MIME type, language detection (one language per document), the
 * structure-aware chunks with their metadata and postings (the index's term analysis, done here
 * so the main thread only writes rows), handed to `sink` in batches as they are cut, the document's
 * card (title, subjects, period, kind), and, when `autoDescription` is on, a generated description
 * that opens with the card's sentence. Parser failures propagate as IngestError (an
 * unsupported type is a permanent one).
 */
export async function processDocumentInBatches(
  input: DocumentToProcess,
  progress: ProgressReporter,
  sink: ChunkSink,
): Promise<ProcessingSummary> {
  const parsed = await parserFor(input.mimeType).parse({
    path: input.filePath,
    mimeType: input.mimeType,
    filename: input.filename,
    options: input.options,
    limits: input.limits,
    ocrLanguages: input.ocrLanguages,
    mutool: input.mutool,
    soffice: input.soffice,
    progress,
  })
  const language = detectLanguage(languageSample(parsed))
  const card = readCard(parsed, {
    filename: input.filename,
    objectName: input.objectName,
    language,
    mimeType: input.mimeType,
  })
  const description = input.autoDescription ? describeDocument(parsed, language, card) : null
  const context = {
    documentId: input.documentId,
    objectName: input.objectName,
    filename: input.filename,
    mimeType: input.mimeType,
  }
  let batch: ChunkDraft[] = []
  let batchChars = 0
  let chunkCount = 0
  for (const draft of chunksOf(parsed, context, {
    chunkTokens: input.chunkTokens,
    overlapTokens: input.chunkOverlapTokens,
  })) {
    batch.push(withPostings(draft, language))
    batchChars += draft.text.length
    chunkCount += 1
    if (batch.length >= BATCH_CHUNKS || batchChars >= BATCH_CHARS) {
      await sink(batch, language)
      batch = []
      batchChars = 0
    }
  }
  if (batch.length > 0) await sink(batch, language, true)
  return { chunkCount, pageCount: parsed.pageCount, documentType: parsed.documentType, language, description, card }
}

/** processDocumentInBatches with every chunk in the result. */
export async function processDocument(
  input: DocumentToProcess,
  progress: ProgressReporter,
): Promise<ProcessedDocument> {
  const chunks: ChunkDraft[] = []
  const { chunkCount: _, ...summary } = await processDocumentInBatches(input, progress, async (batch) => {
    chunks.push(...batch)
  })
  return { ...summary, chunks }
}
