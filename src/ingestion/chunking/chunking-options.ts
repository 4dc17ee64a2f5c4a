/** Who the chunks belong to: what their metadata names. */
export interface ChunkingContext {
  readonly documentId: string
  /** `/hr/leave.pdf`: the metadata `source`. */
  readonly objectName: string
  readonly filename: string
  readonly mimeType: string
}

export interface ChunkingOptions {
  /** Largest chunk, in cl100k_base tokens, heading path included. */
  readonly chunkTokens: number
  /** Tokens of a prose chunk repeated at the start of the next one of the same section. */
  readonly overlapTokens: number
}

export const DEFAULT_CHUNKING: ChunkingOptions = { chunkTokens: 400, overlapTokens: 40 }
