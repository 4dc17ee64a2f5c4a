import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { impactOf } from '../../src/retrieval/bm25.js'
import { LexicalRetriever } from '../../src/retrieval/lexical-retriever.js'
import { type DatabaseHandle, openDatabase } from '../../src/storage/database.js'
import { decodeBlock } from '../../src/storage/kysely/posting-blocks.js'
import { migrateToLatest } from '../../src/storage/migrate.js'
import { createTenant, type Tenant } from '../support/factories.js'
import { createIsolatedDatabase, type IsolatedDatabase } from '../support/isolated-database.js'
import { uploadOk } from '../support/knowledge-base.js'
import { processNow } from '../support/process-now.js'
import { storeModes } from '../support/store-modes.js'
import { startTestApp, type TestApp } from '../support/test-app.js'

const TEXTS = [
  'The compiler translates the programming language into machine code for the processor. '.repeat(40),
  'Operating systems manage memory, processes and files on behalf of the programs they run. '.repeat(40),
  'A sorting algorithm orders numbers; quicksort and mergesort sort the numbers of a list. '.repeat(40),
]
const QUERIES = ['compiler machine code', 'memory of processes', 'sorting numbers quicksort', 'programs']

/**
 * Puts a store back in the layout before migration 0008 (migrations 0002 and 0006): postings in
 * `chunk_terms`, keyed by text ids, and none of 0008, 0009 and 0010 applied.
 */
async function toTextKeyedLayout(handle: DatabaseHandle): Promise<void> {
  const db = handle.db
  const bytewise = handle.dialect === 'postgres' ? sql`text collate "C"` : sql`text`
  const double = handle.dialect === 'postgres' ? sql`double precision` : sql`real`
  await sql`create table chunk_terms (
    company_id text not null, term ${bytewise} not null, chunk_id text not null, document_id text not null,
    tf integer not null, term_count integer not null default 0, impact ${double} not null default 0,
    constraint chunk_terms_pk primary key (chunk_id, term))`.execute(db)
  await sql`create index chunk_terms_impact on chunk_terms (company_id, term, impact desc, chunk_id, tf, term_count, document_id)`.execute(
    db,
  )
  const chunks = await db.selectFrom('chunks').select(['id', 'document_id', 'idx']).execute()
  const chunkIds = new Map(chunks.map((chunk) => [`${chunk.document_id}/${chunk.idx}`, chunk.id]))
  const blocks = await db
    .selectFrom('posting_blocks as b')
    .innerJoin('index_document_keys as k', 'k.key', 'b.document_key')
    .select(['k.company_id', 'k.document_id', 'b.term', 'b.first_chunk', 'b.postings'])
    .execute()
  const rows: Array<ReturnType<typeof sql>> = []
  for (const block of blocks) {
    decodeBlock(Number(block.first_chunk), block.postings, (idx, tf, termCount) => {
      const chunkId = chunkIds.get(`${block.document_id}/${idx}`)
      rows.push(
        sql`(${block.company_id}, ${block.term}, ${chunkId}, ${block.document_id}, ${tf}, ${termCount}, ${impactOf(tf, termCount)})`,
      )
    })
  }
  for (let at = 0; at < rows.length; at += 1000) {
    await sql`insert into chunk_terms (company_id, term, chunk_id, document_id, tf, term_count, impact)
      values ${sql.join(rows.slice(at, at + 1000))}`.execute(db)
  }
  await sql`drop table posting_blocks`.execute(db)
  await sql`drop table index_document_keys`.execute(db)
  await sql`drop table index_companies`.execute(db)
  // Later migrations are undone too (kysely applies them in order only): 0010's card columns.
  await sql`alter table kb_objects drop column card`.execute(db)
  await sql`alter table kb_objects drop column card_type`.execute(db)
  await sql`delete from lantern_migrations where name in ('0008-integer-index-keys', '0009-posting-blocks', '0010-document-cards')`.execute(
    db,
  )
}

// A store written before migration 0008 keeps every posting and answers every query as before,
// through both migrations of the postings since.
describe.each(storeModes())('migrations 0008 and 0009: postings keyed by integers, then in blocks (%s)', (mode) => {
  let database: IsolatedDatabase | undefined
  let t: TestApp
  let handle: DatabaseHandle
  let a: Tenant
  let b: Tenant
  const documents: Array<{ tenant: Tenant; id: string }> = []

  beforeAll(async () => {
    database = mode === 'postgres' ? await createIsolatedDatabase('postings_migration') : undefined
    t = await startTestApp(mode, { config: database ? { databaseUrl: database.url } : {} })
    handle = openDatabase({ dataDir: t.ctx.config.dataDir, databaseUrl: database?.url, pgPoolSize: 1 })
    a = await createTenant(t)
    b = await createTenant(t)
    for (const [n, text] of TEXTS.entries()) {
      for (const tenant of n === 2 ? [a, b] : [a]) {
        const id = await uploadOk(t, tenant, `text-${n}.txt`, text, { fields: { path: '/docs' } })
        await processNow(t, tenant, id)
        documents.push({ tenant, id })
      }
    }
  })

  afterAll(async () => {
    await handle?.close()
    await t?.close()
    await database?.drop()
  })

  async function snapshot() {
    const search = new LexicalRetriever(t.ctx.store.search)
    const postings = await Promise.all(
      documents.map(({ tenant, id }) => t.ctx.store.chunks.postingsForDocument(tenant.companyId, id)),
    )
    const hits = []
    for (const tenant of [a, b]) {
      for (const text of QUERIES) {
        const result = await search.retrieve(tenant.companyId, {
          text,
          scope: { documentIds: null },
          limit: 10,
          language: 'en',
        })
        hits.push(result.chunks.map((chunk) => [chunk.chunkId, chunk.score]))
      }
    }
    return { postings, hits }
  }

  it('moves every posting of the text-keyed table into blocks and ranks exactly as before', async () => {
    const before = await snapshot()
    expect(before.postings.every((list) => list.length > 20)).toBe(true)
    expect(before.hits.filter((list) => list.length > 0).length).toBeGreaterThanOrEqual(QUERIES.length + 1)

    await toTextKeyedLayout(handle)
    expect(await migrateToLatest(handle.db, handle.dialect)).toEqual([
      '0008-integer-index-keys',
      '0009-posting-blocks',
      '0010-document-cards',
    ])
    expect(await snapshot()).toEqual(before)

    // Keys go on from the migrated ones: a new document gets its own and is searchable.
    const keys = await handle.db.selectFrom('index_document_keys').select('key').execute()
    expect(new Set(keys.map((row) => row.key)).size).toBe(documents.length)
    const id = await uploadOk(t, a, 'late.txt', 'Quicksort partitions the list around a pivot element.', {
      fields: { path: '/docs' },
    })
    await processNow(t, a, id)
    const result = await new LexicalRetriever(t.ctx.store.search).retrieve(a.companyId, {
      text: 'pivot element',
      scope: { documentIds: null },
      limit: 3,
      language: 'en',
    })
    expect(result.chunks.map((chunk) => chunk.documentId)).toEqual([id])
  })
})
