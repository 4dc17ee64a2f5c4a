import type { ChunkRecord } from '../../storage/ports/chunks.js'

/** Spec 2.9: texts, ids and metadata as parallel arrays in the given (idx) order. */
export function presentChunks(chunks: readonly ChunkRecord[]) {
  return {
    documents: chunks.map((chunk) => chunk.text),
    ids: chunks.map((chunk) => chunk.id),
    included: ['documents', 'metadatas'],
    metadatas: chunks.map((chunk) => ({ ...chunk.metadata })),
  }
}
