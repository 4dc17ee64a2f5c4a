import type { ParsedDocument } from '../model.js'
import type { ChunkDraft } from '../pipeline/pipeline-types.js'
import { Chunker } from './block-chunker.js'
import { type ChunkingContext, type ChunkingOptions, DEFAULT_CHUNKING } from './chunking-options.js'
import type { Located } from './located.js'

/**
 * Cuts a parsed document into chunks of at most `chunkTokens` cl100k_base tokens that follow its
 * structure, in reading order (an image's chunks come right after the prose chunk around it):
 * - prose: paragraphs packed together under their heading path (`Leave policy > Annual leave`,
 *   the first line of the chunk); a new section at the document's section level always starts a
 *   new chunk, a short sub-section may stay with what precedes it (its heading as a line); long
 *   paragraphs are cut at sentence boundaries; consecutive chunks of one section share about
 *   `overlapTokens` tokens; a chunk ends at a page break unless it is still small, so
 *   `page_number` is a page (`"3"`) or, when it spans pages, a range (`"3-4"`);
 * - tables: rows grouped to the budget, the table's title and unit (one line) and its header row
 *   repeated at the top of every chunk, cells joined by ` | `, so that every row can be read and
 *   cited alone; `row_idx` holds the source rows (`"12"`, `"12-40"`) and, for spreadsheets,
 *   `page_number` is `<sheet>!<rows>` (`"Sales!12-40"`);
 * - images: their OCR text in chunks of their own with `image_id`.
 * Every chunk carries the spec 2.9 metadata for its kind.
 */
export function chunkDocument(
  parsed: ParsedDocument,
  context: ChunkingContext,
  options: ChunkingOptions = DEFAULT_CHUNKING,
): ChunkDraft[] {
  return [...chunksOf(parsed, context, options)]
}

/** The chunks of chunkDocument one at a time, as they are cut. */
export function* chunksOf(
  parsed: ParsedDocument,
  context: ChunkingContext,
  options: ChunkingOptions = DEFAULT_CHUNKING,
): Generator<ChunkDraft> {
  const chunker = new Chunker(parsed.blocks, options)
  let idx = 0
  for (const block of parsed.blocks) {
    for (const chunk of chunker.add(block)) yield draftOf(chunk, idx++, parsed, context)
  }
  for (const chunk of chunker.finish()) yield draftOf(chunk, idx++, parsed, context)
}

function draftOf(chunk: Located, idx: number, parsed: ParsedDocument, context: ChunkingContext): ChunkDraft {
  const metadata: Record<string, string | number | boolean> = {
    document_type: parsed.documentType,
    filename: context.filename,
    filetype: context.mimeType,
    category: chunk.category,
    idx,
  }
  if (chunk.pageNumber !== null) metadata.page_number = chunk.pageNumber
  if (chunk.imageId !== undefined) metadata.image_id = chunk.imageId
  if (chunk.row !== undefined) metadata.row = chunk.row
  metadata.source = context.objectName
  metadata.academy_file = false
  metadata.lantern_document_id = context.documentId
  return {
    idx,
    text: chunk.text,
    tokenCount: chunk.tokens,
    pageNumber: chunk.pageNumber,
    rowIdx: chunk.rowIdx,
    metadata,
  }
}
