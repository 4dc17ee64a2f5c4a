import type { ChunkVectorsRepository } from '../storage/ports/chunk-vectors.js'
import type { ChunkHits } from '../storage/ports/search.js'
import type { DocumentContextIndex } from './context/document-context.js'
import type { DocumentSpan } from './context/span.js'
import { cosine, type Embedder } from './embeddings/types.js'
import { RRF_K, reciprocalRankFusion } from './fusion.js'
import { retrievedChunk } from './retrieved-chunk.js'
import type { ExplainingRetriever, RetrievalResult, RetrievedChunk, SearchQuery } from './types.js'

/** Candidates taken from each ranking before fusion, at least. */
const MIN_CANDIDATES = 100

export interface HybridRetrieverDeps {
  readonly lexical: ExplainingRetriever
  readonly embedder: Embedder
  readonly vectors: ChunkVectorsRepository
  readonly search: ChunkHits
  /** Told when the query cannot be embedded (the lexical ranking is then returned alone). */
  readonly onEmbeddingError?: (error: unknown) => void
}

interface VectorHit {
  readonly chunkId: string
  readonly similarity: number
}

/**
 * BM25 and dense vectors fused by reciprocal rank fusion (fusion.ts), the vector ranking weighted by
 * the embedder's `fusionWeight` (BM25's is 1). The vector side scores, by
 * brute-force cosine in JavaScript, every stored vector of the configured model in the scope:
 * identical on both stores, and fast enough up to about 10^5 chunks per company. `score` is the
 * fused score; `usageScore` is the better of the lexical coverage and the cosine similarity, an
 * absolute relevance in [0,1] rather than a rank. If the query cannot be embedded, the lexical
 * ranking is returned unchanged.
 */
export class HybridRetriever implements ExplainingRetriever {
  constructor(private readonly deps: HybridRetrieverDeps) {}

  async search(companyId: string, query: SearchQuery): Promise<RetrievedChunk[]> {
    return (await this.retrieve(companyId, query)).chunks
  }

  documentContext(companyId: string): Promise<DocumentContextIndex> {
    return this.deps.lexical.documentContext(companyId)
  }

  documentSpan(companyId: string, text: string, scope: readonly string[] | null): Promise<DocumentSpan> {
    return this.deps.lexical.documentSpan(companyId, text, scope)
  }

  async retrieve(companyId: string, query: SearchQuery): Promise<RetrievalResult> {
    const { lexical } = this.deps
    if (query.limit <= 0 || query.scope.documentIds?.length === 0) return lexical.retrieve(companyId, query)
    const candidates = Math.max(MIN_CANDIDATES, query.limit * 2)
    const [lexicalResult, vectorHits] = await Promise.all([
      lexical.retrieve(companyId, { ...query, limit: candidates }),
      this.vectorRanking(companyId, query, candidates),
    ])
    if (!vectorHits) return { ...lexicalResult, chunks: lexicalResult.chunks.slice(0, query.limit) }

    const fused = reciprocalRankFusion(
      [lexicalResult.chunks.map((chunk) => chunk.chunkId), vectorHits.map((hit) => hit.chunkId)],
      RRF_K,
      [1, this.deps.embedder.fusionWeight ?? 1],
    ).slice(0, query.limit)
    const byId = new Map(lexicalResult.chunks.map((chunk) => [chunk.chunkId, chunk]))
    const similarity = new Map(vectorHits.map((hit) => [hit.chunkId, hit.similarity]))
    const missing = fused.map((entry) => entry.id).filter((id) => !byId.has(id))
    for (const row of await this.deps.search.chunksByIds(companyId, missing)) {
      byId.set(row.chunkId, retrievedChunk(row, 0, 0))
    }
    const chunks: RetrievedChunk[] = []
    for (const entry of fused) {
      const chunk = byId.get(entry.id)
      // Gone since the vectors were read (deleted or reprocessed in between): never a stale hit.
      if (!chunk) continue
      const dense = Math.min(1, Math.max(0, similarity.get(entry.id) ?? 0))
      chunks.push({ ...chunk, score: entry.score, usageScore: Math.max(chunk.usageScore, dense) })
    }
    return { query: lexicalResult.query, chunks, span: lexicalResult.span }
  }

  /** The best `limit` chunks by cosine similarity, best first (ties by chunk id); undefined when the query cannot be embedded. */
  private async vectorRanking(companyId: string, query: SearchQuery, limit: number): Promise<VectorHit[] | undefined> {
    const { embedder, vectors } = this.deps
    let target: Float32Array | undefined
    try {
      ;[target] = await embedder.embed([query.text])
    } catch (error) {
      this.deps.onEmbeddingError?.(error)
      return undefined
    }
    if (!target) return undefined
    const stored = await vectors.listForScope(companyId, embedder.name, query.scope.documentIds)
    const hits = stored.map((entry) => ({ chunkId: entry.chunkId, similarity: cosine(target, entry.vector) }))
    hits.sort((a, b) => b.similarity - a.similarity || (a.chunkId < b.chunkId ? -1 : a.chunkId > b.chunkId ? 1 : 0))
    return hits.slice(0, limit)
  }
}
