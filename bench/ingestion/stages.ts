/**
 * Where a PDF page's processing time goes, in this process and without the store: parsing (the
 * text layer from pdf.js or mutool, plus the layout), chunking, and the postings of the index, on
 * the financebench filings, one document at a time. Both text sources run on the same files in the
 * same run. Usage: npm run bench:ingest-stages -- [--help]
 */
import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { chunksOf } from '../../src/ingestion/chunking/chunker.js'
import type { ParsedDocument } from '../../src/ingestion/model.js'
import { createPdfParser } from '../../src/ingestion/parsers/pdf.js'
import { mutoolRuns } from '../../src/ingestion/parsers/pdf-mutool.js'
import { withPostings } from '../../src/ingestion/pipeline/index-document.js'
import { round, table } from '../support/report.js'
import { type Bench, type Results, runBench } from '../support/run-bench.js'

const USAGE = `npm run bench:ingest-stages -- [options]

Times parsing, chunking and postings per page of the financebench PDFs, one at a time, in this
process (OCR off), with each text layer installed (pdf.js, and mutool when it runs).
  --limit N            only the first N files by name
  --dir DIR            another folder of PDFs (default: the financebench filings)
  --help`

const LIMITS = {
  maxPages: 5000,
  maxZipEntries: 1,
  maxZipUncompressedBytes: 1,
  maxZipRatio: 1,
  timeBudgetMs: 600_000,
  memoryMb: 1024,
}

/** OCR is not what is measured here: pages without text are read as empty. */
const noOcr = {
  recognize: async () => ({ text: '', confidence: 0 }),
  terminate: async () => {},
}

interface Stages {
  readonly source: string
  pages: number
  chunks: number
  parseMs: number
  chunkMs: number
  postingsMs: number
}

async function measure(source: 'pdf.js' | 'mutool', dir: string, files: readonly string[]): Promise<Stages> {
  const parser = createPdfParser(noOcr)
  const stages: Stages = { source, pages: 0, chunks: 0, parseMs: 0, chunkMs: 0, postingsMs: 0 }
  for (const name of files) {
    let started = performance.now()
    const parsed: ParsedDocument = await parser.parse({
      path: join(dir, name),
      mimeType: 'application/pdf',
      filename: name,
      options: { loaderType: 'STANDARD', csvDelimiter: null, imageMinSizeRatio: 0.1 },
      limits: LIMITS,
      ocrLanguages: ['eng'],
      mutool: source === 'mutool' ? 'mutool' : null,
      progress: () => {},
    })
    stages.parseMs += performance.now() - started
    stages.pages += parsed.pageCount
    started = performance.now()
    const context = { documentId: 'bench', objectName: `/${name}`, filename: name, mimeType: 'application/pdf' }
    const drafts = [...chunksOf(parsed, context, { chunkTokens: 400, overlapTokens: 40 })]
    stages.chunkMs += performance.now() - started
    started = performance.now()
    for (const draft of drafts) withPostings(draft, 'en')
    stages.postingsMs += performance.now() - started
    stages.chunks += drafts.length
  }
  return stages
}

async function main(bench: Bench): Promise<Results> {
  const { values } = bench
  const dir = values.dir ? String(values.dir) : (bench.data[0] ?? '')
  const all = readdirSync(dir)
    .filter((name) => name.toLowerCase().endsWith('.pdf'))
    .sort()
  const files = values.limit ? all.slice(0, Number(values.limit)) : all
  const sources: Array<'pdf.js' | 'mutool'> = mutoolRuns() ? ['pdf.js', 'mutool'] : ['pdf.js']
  if (sources.length === 1) console.log('mutool (mupdf-tools) is not installed: pdf.js only')
  const results: Stages[] = []
  for (const source of sources) results.push(await measure(source, dir, files))
  const perPage = (ms: number, pages: number) => round(ms / pages, 2)
  const lines = [
    `- Machine: ${bench.machineAndLoad()}`,
    `- Files: ${files.length} PDFs from ${dir}; one document at a time, in this process, OCR off.`,
    '',
    table(
      ['text layer', 'pages', 'chunks', 'parse ms/page', 'chunking ms/page', 'postings ms/page', 'total ms/page'],
      results.map((r) => [
        r.source,
        r.pages,
        r.chunks,
        perPage(r.parseMs, r.pages),
        perPage(r.chunkMs, r.pages),
        perPage(r.postingsMs, r.pages),
        perPage(r.parseMs + r.chunkMs + r.postingsMs, r.pages),
      ]),
    ),
  ]
  return { json: { host: bench.machine, results }, markdown: lines.join('\n') }
}

runBench({
  name: 'ingest-stages',
  usage: USAGE,
  options: { limit: { type: 'string' }, dir: { type: 'string' } },
  data: ['financebench-subset/pdfs'],
  run: main,
})
