/**
 * What writing the postings of the lexical index costs on SQLite, in this process, for the ways
 * the store has written them: Kysely's multi-row INSERT or one prepared statement
 * (`DatabaseHandle.insertRows`), in transactions of several sizes, with the WAL checkpointed every
 * 1,000 pages (SQLite's default, what the service uses) or 4,096. The postings are the real ones of the first financebench
 * filings (parsed, chunked and analysed as the service does); each variant writes them into a fresh
 * migrated database. Usage: npm run bench:postings-writes -- [--limit N]
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { sql } from 'kysely'
import { chunksOf } from '../../src/ingestion/chunking/chunker.js'
import { indexed } from '../../src/ingestion/index-document.js'
import { pdfParser } from '../../src/ingestion/parsers/pdf.js'
import { mutoolRuns } from '../../src/ingestion/parsers/pdf-mutool.js'
import { systemClock } from '../../src/lib/clock.js'
import { openDatabase } from '../../src/storage/database.js'
import { migrateToLatest } from '../../src/storage/migrate.js'
import type { ChunkTermsTable } from '../../src/storage/schema.js'
import { requireData } from '../support/data.js'
import { load, machine, machineLine, round, saveResults, table } from '../support/report.js'

const COMPANY = '00000000-0000-4000-8000-000000000001'
/** Rows per Kysely statement, as the store writes them. */
const STATEMENT_ROWS = 4000

interface Variant {
  readonly label: string
  readonly prepared: boolean
  readonly transactionRows: number
  readonly checkpointPages: number
}

const VARIANTS: readonly Variant[] = [
  { label: 'Kysely, 27,000 per transaction (before)', prepared: false, transactionRows: 27_000, checkpointPages: 1000 },
  {
    label: 'Kysely, 27,000 per transaction, WAL checkpoint every 4,096 pages',
    prepared: false,
    transactionRows: 27_000,
    checkpointPages: 4096,
  },
  { label: 'Kysely, 54,000 per transaction', prepared: false, transactionRows: 54_000, checkpointPages: 1000 },
  { label: 'prepared, 54,000 per transaction (now)', prepared: true, transactionRows: 54_000, checkpointPages: 1000 },
  { label: 'prepared, 108,000 per transaction', prepared: true, transactionRows: 108_000, checkpointPages: 1000 },
]

async function postingsOf(dir: string, files: readonly string[]): Promise<ChunkTermsTable[]> {
  const rows: ChunkTermsTable[] = []
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
          company_id: COMPANY,
          term: posting.term,
          chunk_id: chunk.id,
          document_id: documentId,
          tf: posting.tf,
          term_count: chunk.termCount,
          impact: posting.impact,
        })
      }
    }
  }
  return rows
}

async function write(variant: Variant, rows: readonly ChunkTermsTable[]): Promise<number> {
  const dataDir = mkdtempSync(join(tmpdir(), 'lantern-postings-'))
  const handle = openDatabase({ dataDir, databaseUrl: undefined, pgPoolSize: 1 })
  try {
    await migrateToLatest(handle.db, handle.dialect)
    await sql.raw(`pragma wal_autocheckpoint = ${variant.checkpointPages}`).execute(handle.db)
    const { insertRows } = handle
    const started = performance.now()
    for (let first = 0; first < rows.length; first += variant.transactionRows) {
      const group = rows.slice(first, first + variant.transactionRows)
      await handle.db.transaction().execute(async (trx) => {
        for (let at = 0; at < group.length; at += STATEMENT_ROWS) {
          const statement = group.slice(at, at + STATEMENT_ROWS)
          if (variant.prepared && insertRows) {
            insertRows(
              'chunk_terms',
              ['company_id', 'term', 'chunk_id', 'document_id', 'tf', 'term_count', 'impact'],
              statement.map((r) => [r.company_id, r.term, r.chunk_id, r.document_id, r.tf, r.term_count, r.impact]),
            )
          } else {
            await trx.insertInto('chunk_terms').values(statement).execute()
          }
        }
      })
    }
    // What is still in the WAL is checkpointed too, so every variant pays for all its pages.
    await sql.raw('pragma wal_checkpoint(TRUNCATE)').execute(handle.db)
    return performance.now() - started
  } finally {
    await handle.close()
    rmSync(dataDir, { recursive: true, force: true })
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { limit: { type: 'string', default: '20' } } })
  const [dir = ''] = requireData('bench:postings-writes', 'financebench-subset/pdfs')
  const files = readdirSync(dir)
    .filter((name) => name.toLowerCase().endsWith('.pdf'))
    .sort()
    .slice(0, Number(values.limit))
  const host = machine()
  const loadAtStart = load()
  const rows = await postingsOf(dir, files)
  const results: Array<{ variant: Variant; ms: number }> = []
  for (const variant of VARIANTS) results.push({ variant, ms: await write(variant, rows) })
  const markdown = [
    `- Machine: ${machineLine(host)}; load average at start ${loadAtStart}, at end ${load()}`,
    `- Postings: ${rows.length} rows of the first ${files.length} filings, written into a fresh migrated SQLite database each time.`,
    '',
    table(
      ['variant', 'seconds', 'µs per row'],
      results.map(({ variant, ms }) => [variant.label, round(ms / 1000, 2), round((ms * 1000) / rows.length, 2)]),
    ),
  ].join('\n')
  console.log(markdown)
  console.log(`\nresults saved to ${saveResults('postings-writes', { host, rows: rows.length, results }, markdown)}`)
}

await main()
