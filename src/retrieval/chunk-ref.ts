import type { ChunkRef } from '../storage/ports/search.js'

/** Chunk idxs a document may have for its refs to stay distinct numbers (far above any page or row cap). */
const CHUNKS_PER_DOCUMENT = 2 ** 24

/**
 * A chunk ref as one number (document key × 2^24 + idx): a cheap Map key for the millions of
 * postings an index load reads. Exact while document keys stay below 2^29.
 */
export function refCode(documentKey: number, chunkIdx: number): number {
  if (chunkIdx >= CHUNKS_PER_DOCUMENT)
    throw new RangeError(`chunk idx ${chunkIdx} is beyond the index's ${CHUNKS_PER_DOCUMENT}`)
  return documentKey * CHUNKS_PER_DOCUMENT + chunkIdx
}

export function refOfCode(code: number): ChunkRef {
  return { documentKey: Math.floor(code / CHUNKS_PER_DOCUMENT), chunkIdx: code % CHUNKS_PER_DOCUMENT }
}
