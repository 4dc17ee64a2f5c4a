import type { Kysely } from 'kysely'
import type { ChunkVector, ChunkVectorsRepository, StoredVector, VectorDraft } from '../ports/chunk-vectors.js'
import type { ChunkVectorsTable, Database } from '../schema.js'
import { batches } from './batches.js'

const PROCESSED = 'PROCESSED'
// Rows per INSERT (6 parameters each) and ids per IN list: far below both engines' limits.
const VECTOR_BATCH = 400
const ID_BATCH = 500

/** Float32 little-endian bytes, whatever the platform's byte order. */
export function encodeVector(vector: Float32Array): Uint8Array {
  const bytes = new Uint8Array(vector.length * 4)
  const view = new DataView(bytes.buffer)
  for (let i = 0; i < vector.length; i++) view.setFloat32(i * 4, vector[i] as number, true)
  return bytes
}

export function decodeVector(bytes: Uint8Array, dims: number): Float32Array {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const vector = new Float32Array(dims)
  for (let i = 0; i < dims; i++) vector[i] = view.getFloat32(i * 4, true)
  return vector
}

export class KyselyChunkVectorsRepository implements ChunkVectorsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async replaceForDocument(
    companyId: string,
    documentId: string,
    model: string,
    vectors: readonly VectorDraft[],
  ): Promise<number> {
    await this.db
      .deleteFrom('chunk_vectors')
      .where('company_id', '=', companyId)
      .where('document_id', '=', documentId)
      .execute()
    const chunks = await this.db
      .selectFrom('chunks')
      .select(['id', 'idx'])
      .where('company_id', '=', companyId)
      .where('document_id', '=', documentId)
      .execute()
    const byIdx = new Map(chunks.map((row) => [Number(row.idx), row.id]))
    const matched: ChunkVector[] = []
    for (const draft of vectors) {
      const chunkId = byIdx.get(draft.idx)
      if (chunkId) matched.push({ chunkId, vector: draft.vector })
    }
    await this.insert(companyId, documentId, model, matched)
    return matched.length
  }

  async insert(companyId: string, documentId: string, model: string, vectors: readonly ChunkVector[]): Promise<void> {
    for (const batch of batches(vectors, VECTOR_BATCH)) {
      await this.db
        .insertInto('chunk_vectors')
        .values(
          batch.map(
            ({ chunkId, vector }): ChunkVectorsTable => ({
              chunk_id: chunkId,
              company_id: companyId,
              document_id: documentId,
              model,
              dims: vector.length,
              vector: encodeVector(vector),
            }),
          ),
        )
        .execute()
    }
  }

  async listForScope(companyId: string, model: string, documentIds: readonly string[] | null): Promise<StoredVector[]> {
    const groups = documentIds === null ? [null] : batches([...new Set(documentIds)], ID_BATCH)
    const result: StoredVector[] = []
    for (const ids of groups) {
      let query = this.db
        .selectFrom('chunk_vectors as v')
        .innerJoin('kb_objects as d', 'd.id', 'v.document_id')
        .select(['v.chunk_id', 'v.document_id', 'v.dims', 'v.vector'])
        .where('v.company_id', '=', companyId)
        .where('v.model', '=', model)
        .where('d.company_id', '=', companyId)
        .where('d.embedding_state', '=', PROCESSED)
      if (ids) query = query.where('v.document_id', 'in', ids)
      for (const row of await query.execute()) {
        result.push({
          chunkId: row.chunk_id,
          documentId: row.document_id,
          vector: decodeVector(row.vector, Number(row.dims)),
        })
      }
    }
    return result.sort((a, b) => (a.chunkId < b.chunkId ? -1 : a.chunkId > b.chunkId ? 1 : 0))
  }

  async documentsMissing(companyId: string, model: string): Promise<string[]> {
    const rows = await this.db
      .selectFrom('chunks as c')
      .innerJoin('kb_objects as d', 'd.id', 'c.document_id')
      .leftJoin('chunk_vectors as v', (join) => join.onRef('v.chunk_id', '=', 'c.id').on('v.model', '=', model))
      .select('c.document_id')
      .distinct()
      .where('c.company_id', '=', companyId)
      .where('d.company_id', '=', companyId)
      .where('d.embedding_state', '=', PROCESSED)
      .where('v.chunk_id', 'is', null)
      .execute()
    return rows.map((row) => row.document_id).sort()
  }

  async countForDocument(companyId: string, documentId: string, model: string): Promise<number> {
    const row = await this.db
      .selectFrom('chunk_vectors')
      .select((eb) => eb.fn.countAll<number | string>().as('count'))
      .where('company_id', '=', companyId)
      .where('document_id', '=', documentId)
      .where('model', '=', model)
      .executeTakeFirstOrThrow()
    return Number(row.count)
  }
}
