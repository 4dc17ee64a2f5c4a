/**
 * What writing the postings of the lexical index costs on SQLite, in this process, for the layouts
 * the store has had: text ids in `chunk_terms` (migrations 0002 and 0006) and integer keys in
 * `postings` (migration 0008), both rebuilt here as they were, and blocks in `posting_blocks`
 * (migration 0009, what the service writes now: one row per term and write of a document), each
 * through Kysely's multi-row INSERT and through one prepared statement (`DatabaseHandle.insertRows`). The
 * postings are the real ones of the first financebench filings (parsed, chunked and analysed as
 * the service does); each variant writes them into a fresh migrated database, 54,000 postings per
 * transaction (1,000 chunks per batch, as the processing threads hand them over).
 * Usage: npm run bench:postings-writes -- [--help]
 */
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type Kysely, sql } from 'kysely'
import { chunksOf } from '../../src/ingestion/chunking/chunker.js'
import { pdfParser } from '../../src/ingestion/parsers/pdf.js'
import { mutoolRuns } from '../../src/ingestion/parsers/pdf-mutool.js'
import { indexed } from '../../src/ingestion/pipeline/index-document.js'
import { systemClock } from '../../src/lib/clock.js'
import { openDatabase, type RowValues } from '../../src/storage/database.js'
import { encodeBlock } from '../../src/storage/kysely/posting-blocks.js'
import { migrateToLatest } from '../../src/storage/migrate.js'
import { round, table } from '../support/report.js'
import { type Bench, type Results, runBench } from '../support/run-bench.js'

const USAGE = `npm run bench:postings-writes -- [options]

Writes the postings of the first financebench filings into a fresh migrated SQLite database once
per layout (text ids, integer keys, blocks) and way of inserting (Kysely, prepared statement).
  --limit N              filings whose postings are written (default 20)
  --transaction-rows N   postings per transaction (default 54000)
  --current-only         only the layout and insert the service uses now
  --help`

const COMPANY = '00000000-0000-4000-8000-000000000001'
/** Rows per Kysely statement, as the store writes them. */
const STATEMENT_ROWS = 4000
/** Postings per transaction by default: one document's batch of 1,000 chunks (what one transaction held before writes were grouped). */
const TRANSACTION_ROWS = 54_000
/** Chunks per write of a document, as the processing threads hand them over: a block holds a term's postings in one. */
const WRITE_CHUNKS = 1000

/** A posting with everything either layout stores. */
interface Posting {
  readonly term: string
  readonly chunkId: string
  readonly documentId: string
  readonly documentKey: number
  readonly chunkIdx: number
  readonly tf: number
  readonly termCount: number
  readonly impact: number
}

interface Layout {
  readonly table: string
  readonly columns: readonly string[]
  /** Creates the table where the migrations did not (the earlier layouts). */
  readonly create?: (db: Kysely<Record<string, Record<string, unknown>>>) => Promise<void>
  /** The rows that hold these postings (consecutive ones, by document and chunk). */
  readonly rows: (postings: readonly Posting[]) => RowValues[]
}

const TEXT_IDS: Layout = {
  table: 'chunk_terms',
  columns: ['company_id', 'term', 'chunk_id', 'document_id', 'tf', 'term_count', 'impact'],
  create: async (db) => {
    await sql`create table chunk_terms (company_id text not null, term text not null, chunk_id text not null,
      document_id text not null, tf integer not null, term_count integer not null, impact real not null,
      primary key (chunk_id, term))`.execute(db)
    await sql`create index chunk_terms_impact on chunk_terms (company_id, term, impact desc, chunk_id, tf, term_count, document_id)`.execute(
      db,
    )
  },
  rows: (postings) => postings.map((p) => [COMPANY, p.term, p.chunkId, p.documentId, p.tf, p.termCount, p.impact]),
}

const INTEGER_KEYS: Layout = {
  table: 'postings',
  columns: ['company_key', 'term', 'impact', 'document_key', 'chunk_idx', 'tf', 'term_count'],
  create: async (db) => {
    await sql`create table postings (company_key integer not null, term text not null, impact real not null,
      document_key integer not null, chunk_idx integer not null, tf integer not null, term_count integer not null,
      primary key (company_key, term, impact desc, document_key, chunk_idx)) without rowid`.execute(db)
    await sql`create index postings_chunk on postings (document_key, chunk_idx, term, tf, term_count)`.execute(db)
  },
  rows: (postings) => postings.map((p) => [1, p.term, p.impact, p.documentKey, p.chunkIdx, p.tf, p.termCount]),
}

const BLOCKS: Layout = {
  table: 'posting_blocks',
  columns: ['company_key', 'term', 'max_impact', 'document_key', 'first_chunk', 'posting_count', 'postings'],
  rows: (postings) => {
    const blocks = new Map<string, Posting[]>()
    for (const posting of postings) {
      const key = `${posting.documentKey}/${Math.floor(posting.chunkIdx / WRITE_CHUNKS)}/${posting.term}`
      const block = blocks.get(key)
      if (block) block.push(posting)
      else blocks.set(key, [posting])
    }
    return [...blocks.values()].map((block) => {
      const first = block[0] as Posting
      return [
        1,
        first.term,
        Math.max(...block.map((p) => p.impact)),
        first.documentKey,
        first.chunkIdx,
        block.length,
        encodeBlock(first.chunkIdx, block),
      ]
    })
  },
}

interface Variant {
  readonly label: string
  readonly layout: Layout
  readonly prepared: boolean
}

const VARIANTS: readonly Variant[] = [
  { label: 'text ids (chunk_terms), Kysely', layout: TEXT_IDS, prepared: false },
  { label: 'text ids (chunk_terms), prepared (earlier)', layout: TEXT_IDS, prepared: true },
  { label: 'integer keys (postings), Kysely', layout: INTEGER_KEYS, prepared: false },
  { label: 'integer keys (postings), prepared (before)', layout: INTEGER_KEYS, prepared: true },
  { label: 'blocks (posting_blocks), Kysely', layout: BLOCKS, prepared: false },
  { label: 'blocks (posting_blocks), prepared (now)', layout: BLOCKS, prepared: true },
]

async function postingsOf(dir: string, files: readonly string[]): Promise<Posting[]> {
  const rows: Posting[] = []
  const mutool = mutoolRuns() ? 'mutool' : null
  for (const [n, name] of files.entries()) {
    const documentId = `00000000-0000-4000-8000-${String(n + 2).padStart(12, '0')}`
    const parsed = await pdfParser.parse({
      path: join(dir, name),
      mimeType: 'application/pdf',
      filename: name,
      options: { loaderType: 'STANDARD', csvDelimiter: null, imageMinSizeRatio: 0.1 },
      limits: {
        maxPages: 5000,
        maxZipEntries: 1,
        maxZipUncompressedBytes: 1,
        maxZipRatio: 1,
        timeBudgetMs: 600_000,
        memoryMb: 1024,
      },
      ocrLanguages: ['eng'],
      mutool,
      progress: () => {},
    })
    const context = { documentId, objectName: `/${name}`, filename: name, mimeType: 'application/pdf' }
    for (const draft of chunksOf(parsed, context, { chunkTokens: 400, overlapTokens: 40 })) {
      const { chunk, postings } = indexed(COMPANY, documentId, draft, 'en', systemClock.now())
      for (const posting of postings) {
        rows.push({
          term: posting.term,
          chunkId: chunk.id,
          documentId,
          documentKey: n + 1,
          chunkIdx: chunk.idx,
          tf: posting.tf,
          termCount: chunk.termCount,
          impact: posting.impact,
        })
      }
    }
  }
  return rows
}

/** Milliseconds to write the rows, and the database file's size afterwards (everything else in it is empty). */
async function write(
  variant: Variant,
  rows: readonly Posting[],
  transactionRows: number,
): Promise<{ ms: number; bytes: number }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'lantern-postings-'))
  const handle = openDatabase({ dataDir, databaseUrl: undefined, pgPoolSize: 1 })
  const { layout } = variant
  try {
    await migrateToLatest(handle.db, handle.dialect)
    const db = handle.db as unknown as Kysely<Record<string, Record<string, unknown>>>
    await layout.create?.(db)
    const { insertRows } = handle
    const started = performance.now()
    for (let first = 0; first < rows.length; first += transactionRows) {
      const group = layout.rows(rows.slice(first, first + transactionRows))
      await db.transaction().execute(async (trx) => {
        for (let at = 0; at < group.length; at += STATEMENT_ROWS) {
          const values = group.slice(at, at + STATEMENT_ROWS)
          if (variant.prepared && insertRows) insertRows(layout.table, layout.columns, values)
          else {
            const objects = values.map((row) => Object.fromEntries(layout.columns.map((c, i) => [c, row[i]])))
            await trx.insertInto(layout.table).values(objects).execute()
          }
        }
      })
    }
    // What is still in the WAL is checkpointed too, so every variant pays for all its pages.
    await sql.raw('pragma wal_checkpoint(TRUNCATE)').execute(handle.db)
    const ms = performance.now() - started
    return { ms, bytes: statSync(join(dataDir, 'lantern.db')).size }
  } finally {
    await handle.close()
    rmSync(dataDir, { recursive: true, force: true })
  }
}

async function main(bench: Bench): Promise<Results> {
  const { values } = bench
  const transactionRows = Number(values['transaction-rows'])
  if (!Number.isInteger(transactionRows) || transactionRows < 1)
    throw new Error('--transaction-rows must be a positive integer')
  const variants = values['current-only'] ? VARIANTS.filter((variant) => variant.label.endsWith('(now)')) : VARIANTS
  const [dir = ''] = bench.data
  const files = readdirSync(dir)
    .filter((name) => name.toLowerCase().endsWith('.pdf'))
    .sort()
    .slice(0, Number(values.limit))
  const rows = await postingsOf(dir, files)
  const results: Array<{ variant: Variant; ms: number; bytes: number }> = []
  for (const variant of variants) results.push({ variant, ...(await write(variant, rows, transactionRows)) })
  const markdown = [
    `- Machine: ${bench.machineAndLoad()}`,
    `- Postings: ${rows.length} of the first ${files.length} filings, written into a fresh migrated SQLite database each time, ${transactionRows} postings per transaction.`,
    '',
    table(
      ['variant', 'seconds', 'µs per posting', 'database MB'],
      results.map(({ variant, ms, bytes }) => [
        variant.label,
        round(ms / 1000, 2),
        round((ms * 1000) / rows.length, 2),
        round(bytes / 1e6, 1),
      ]),
    ),
  ].join('\n')
  return { json: { host: bench.machine, rows: rows.length, transactionRows, results }, markdown }
}

runBench({
  name: 'postings-writes',
  usage: USAGE,
  options: {
    limit: { type: 'string', default: '20' },
    'transaction-rows': { type: 'string', default: String(TRANSACTION_ROWS) },
    'current-only': { type: 'boolean', default: false },
  },
  data: ['financebench-subset/pdfs'],
  run: main,
})
