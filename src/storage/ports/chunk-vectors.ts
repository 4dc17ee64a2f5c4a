/** Dense vectors of chunks, one per chunk for the configured embedding model (LANTERN_EMBEDDINGS). */

/** The vector of one chunk as scored at search time. */
export interface StoredVector {
  readonly chunkId: string
  readonly documentId: string
  readonly vector: Float32Array
}

/** The vector of the chunk at `idx` of a document. */
export interface VectorDraft {
  readonly idx: number
  readonly vector: Float32Array
}

/** The vector of a chunk known by id (one being written). */
export interface ChunkVector {
  readonly chunkId: string
  readonly vector: Float32Array
}

export interface ChunkVectorsRepository {
  /**
   * Replaces every vector of the document's chunks with these (model `model`), matched to the
   * chunks by idx; drafts naming no chunk are ignored. Returns how many were written.
   */
  replaceForDocument(
    companyId: string,
    documentId: string,
    model: string,
    vectors: readonly VectorDraft[],
  ): Promise<number>
  /** Adds vectors (model `model`) of chunks of the document that have none yet. */
  insert(companyId: string, documentId: string, model: string, vectors: readonly ChunkVector[]): Promise<void>
  /**
   * The vectors of model `model` over the company's PROCESSED documents, limited to `documentIds`
   * unless null, sorted by chunk id (so ties break identically on every store).
   */
  listForScope(companyId: string, model: string, documentIds: readonly string[] | null): Promise<StoredVector[]>
  /** Ids of the company's PROCESSED documents with a chunk lacking a vector of `model`, sorted. */
  documentsMissing(companyId: string, model: string): Promise<string[]>
  /** Vectors of `model` stored for the document. */
  countForDocument(companyId: string, documentId: string, model: string): Promise<number>
}
