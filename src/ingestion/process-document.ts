import { detectLanguage } from '../retrieval/analysis.js'
import { chunkDocument } from './chunking/chunker.js'
import { describeDocument } from './describe.js'
import { withPostings } from './index-document.js'
import type { ParsedDocument } from './model.js'
import { parserFor } from './parsers/registry.js'
import type { DocumentToProcess, ProcessedDocument, ProgressReporter } from './pipeline-types.js'

/** Characters of text language detection looks at. */
const LANGUAGE_SAMPLE_CHARS = 20_000

/** Prose first (headings, tables and OCR only when a document has no paragraphs), bounded. */
function languageSample(parsed: ParsedDocument): string {
  const pick = (kinds: ReadonlySet<string>): string => {
    const parts: string[] = []
    let used = 0
    for (const block of parsed.blocks) {
      if (!kinds.has(block.kind)) continue
      const text = block.kind === 'table' ? block.rows.map((row) => row.cells.join(' ')).join('\n') : block.text
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
 * so the commit on the main thread only writes rows), and, when `autoDescription` is on, a
 * generated description. Parser failures propagate as IngestError (an unsupported type is a
 * permanent one).
 */
export async function processDocument(
  input: DocumentToProcess,
  progress: ProgressReporter,
): Promise<ProcessedDocument> {
  const parsed = await parserFor(input.mimeType).parse({
    path: input.filePath,
    mimeType: input.mimeType,
    filename: input.filename,
    options: input.options,
    limits: input.limits,
    ocrLanguages: input.ocrLanguages,
    progress,
  })
  const language = detectLanguage(languageSample(parsed))
  const chunks = chunkDocument(
    parsed,
    {
      documentId: input.documentId,
      objectName: input.objectName,
      filename: input.filename,
      mimeType: input.mimeType,
    },
    { chunkTokens: input.chunkTokens, overlapTokens: input.chunkOverlapTokens },
  )
  return {
    chunks: chunks.map((chunk) => withPostings(chunk, language)),
    pageCount: parsed.pageCount,
    documentType: parsed.documentType,
    language,
    description: input.autoDescription ? describeDocument(parsed, language) : null,
  }
}
