import type { ChunkHitRecord } from '../storage/ports/search.js'
import type { RetrievedChunk } from './types.js'

/** A stored chunk as a ranked hit, with its score and its `usage_score` in [0, 1]. */
export function retrievedChunk(row: ChunkHitRecord, score: number, usageScore: number): RetrievedChunk {
  return {
    chunkId: row.chunkId,
    documentId: row.documentId,
    objectName: row.objectName,
    filename: row.objectName.slice(row.objectName.lastIndexOf('/') + 1),
    documentType: row.documentType,
    description: row.description,
    card: row.card,
    idx: row.idx,
    text: row.text,
    pageNumber: row.pageNumber,
    rowIdx: row.rowIdx,
    metadata: row.metadata,
    language: row.language,
    score,
    usageScore,
  }
}
