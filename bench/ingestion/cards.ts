/**
 * Document cards on real files, in this process: the financebench filings (is the subject the
 * company, is the kind the filing's type, is the period its fiscal year or quarter?), uploaded as
 * opaque names so that only the text can tell, with the held-out companies reported first and in
 * aggregate only; then a sample of parser-robustness files of other kinds, listed for reading by
 * eye. Usage: npm run bench:cards -- [--details] [--robustness N] [--help]
 */
import { createHash } from 'node:crypto'
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { readCard } from '../../src/ingestion/card/read-card.js'
import { detectMimeType } from '../../src/ingestion/detection/file-types.js'
import type { ParsedDocument } from '../../src/ingestion/model.js'
import { createPdfParser } from '../../src/ingestion/parsers/pdf.js'
import { mutoolRuns } from '../../src/ingestion/parsers/pdf-mutool.js'
import { loadParserFor } from '../../src/ingestion/parsers/registry.js'
import type { DocumentCard } from '../../src/storage/ports/document-card.js'
import { detectLanguage } from '../../src/text/analysis.js'
import { nominalEnd, spanDays } from '../../src/text/periods.js'
import { requireData } from '../support/data.js'
import { round, table } from '../support/report.js'
import { type Bench, type Results, runBench } from '../support/run-bench.js'

const USAGE = `npm run bench:cards -- [options]

Reads the card of each financebench PDF (named filing-NNN.pdf in /filings/, so nothing but the
text tells) and scores subject, kind and period against financebench_document_information.jsonl;
held-out companies first (aggregate only), then the tune companies (with --details, each miss).
Then reads the cards of a sample of parser-robustness files and lists them.
  --details            list the tune documents whose card misses something
  --robustness N       parser-robustness files to sample (default 40; 0: none)
  --help`

const LIMITS = {
  maxPages: 5000,
  maxZipEntries: 10_000,
  maxZipUncompressedBytes: 512 * 1024 * 1024,
  maxZipRatio: 200,
  timeBudgetMs: 600_000,
  memoryMb: 2048,
}
const OPTIONS = { loaderType: 'STANDARD', csvDelimiter: null, imageMinSizeRatio: 0.1 } as const

/** The card reads text; scanned pages are not what is measured (and OCR would take minutes). */
const noOcr = {
  recognize: async () => ({ text: '', confidence: 0 }),
  terminate: async () => {},
}

interface DocumentInfo {
  readonly doc_name: string
  readonly company: string
  readonly doc_type: '10k' | '10q' | '8k' | 'Earnings'
  readonly doc_period: number
}

const EXPECTED_KIND: Readonly<Record<DocumentInfo['doc_type'], string>> = {
  '10k': 'annual report',
  '10q': 'quarterly report',
  '8k': 'current report',
  Earnings: 'earnings release',
}

/** sha256 of the company name as a big integer: even → tune, odd → held-out (the issue's split). */
function half(company: string): 'tune' | 'held-out' {
  const hash = BigInt(`0x${createHash('sha256').update(company).digest('hex')}`)
  return hash % 2n === 0n ? 'tune' : 'held-out'
}

/** Lower case, `&` as `and`, punctuation and a leading `the` dropped: `The Coca-Cola Company` → `coca cola company`. */
function normalised(name: string): string[] {
  return name
    .toLowerCase()
    .replace(/&/g, ' and ')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim()
    .split(' ')
    .filter((word, index) => word && !(index === 0 && word === 'the'))
}

/** The subject names the company when the company's words start it (`Pfizer` → `Pfizer Inc.`). */
function namesCompany(subject: string | undefined, company: string): boolean {
  if (!subject) return false
  const words = normalised(subject)
  const wanted = normalised(company)
  return wanted.every((word, index) => words[index] === word)
}

interface Scored {
  readonly doc: string
  readonly company: string
  readonly half: 'tune' | 'held-out'
  readonly card: DocumentCard
  readonly subject: 'right' | 'wrong' | 'none'
  readonly anySubject: boolean
  readonly kind: boolean
  readonly period: boolean
  readonly cardMs: number
}

/** Is the card's period the filing's: its fiscal year (10-K), year and quarter (10-Q, earnings), year (8-K)? */
function periodRight(card: DocumentCard, info: DocumentInfo): boolean {
  const period = card.period
  if (!period) return false
  const nominal = nominalEnd(period.end)
  const year = period.fiscalYear ?? nominal.year
  const days = spanDays(period.start, period.end)
  const quarter = info.doc_name.match(/(\d{4})Q([1-4])/)
  if (info.doc_type === '10k') return year === info.doc_period && days >= 350
  if (info.doc_type === '8k') return nominal.year === info.doc_period
  if (quarter) return year === Number(quarter[1]) && (period.fiscalQuarter ?? nominal.quarter) === Number(quarter[2])
  return year === info.doc_period
}

function score(doc: string, info: DocumentInfo, card: DocumentCard, cardMs: number): Scored {
  const [first] = card.subjects
  return {
    doc,
    company: info.company,
    half: half(info.company),
    card,
    subject: first === undefined ? 'none' : namesCompany(first, info.company) ? 'right' : 'wrong',
    anySubject: card.subjects.some((subject) => namesCompany(subject, info.company)),
    kind: card.kind === EXPECTED_KIND[info.doc_type],
    period: periodRight(card, info),
    cardMs,
  }
}

const percent = (count: number, total: number) => `${count}/${total} (${total ? round((100 * count) / total, 0) : 0} %)`

function summary(label: string, scored: readonly Scored[]): (string | number)[] {
  const n = scored.length
  const count = (test: (s: Scored) => boolean) => scored.filter(test).length
  const ms = scored.map((s) => s.cardMs)
  return [
    label,
    n,
    percent(
      count((s) => s.subject === 'right'),
      n,
    ),
    count((s) => s.subject === 'wrong'),
    count((s) => s.subject === 'none'),
    percent(
      count((s) => s.kind),
      n,
    ),
    percent(
      count((s) => s.period),
      n,
    ),
    percent(
      count((s) => s.subject === 'right' && s.kind && s.period),
      n,
    ),
    `${round(ms.reduce((a, b) => a + b, 0) / Math.max(1, n), 1)} / ${round(Math.max(0, ...ms), 1)}`,
  ]
}

function describeCard(card: DocumentCard): string {
  const period = card.period
    ? `${card.period.label} [${card.period.fiscalYear ?? '-'}${card.period.fiscalQuarter ? `Q${card.period.fiscalQuarter}` : ''}]`
    : '-'
  return `${card.kind ?? '-'} · ${card.subjects.join(' / ') || '-'} · ${period} · ${card.title ?? '-'}`
}

async function financebench(pdfDir: string, infoFile: string): Promise<Scored[]> {
  const infos = new Map<string, DocumentInfo>()
  for (const line of readFileSync(infoFile, 'utf8').split('\n')) {
    if (!line.trim()) continue
    const info = JSON.parse(line) as DocumentInfo
    infos.set(info.doc_name, info)
  }
  const parser = createPdfParser(noOcr)
  const mutool = mutoolRuns() ? 'mutool' : null
  const files = readdirSync(pdfDir)
    .filter((name) => name.endsWith('.pdf') && infos.has(name.slice(0, -4)))
    .sort()
  const scored: Scored[] = []
  for (const [index, name] of files.entries()) {
    const opaque = `filing-${String(index + 1).padStart(3, '0')}.pdf`
    const parsed = await parser.parse({
      path: join(pdfDir, name),
      mimeType: 'application/pdf',
      filename: opaque,
      options: OPTIONS,
      limits: LIMITS,
      ocrLanguages: ['eng'],
      mutool,
      progress: () => {},
    })
    const started = performance.now()
    const card = readCard(parsed, {
      filename: opaque,
      objectName: `/filings/${opaque}`,
      language: 'en',
      mimeType: 'application/pdf',
    })
    const info = infos.get(name.slice(0, -4))
    if (info) scored.push(score(name.slice(0, -4), info, card, performance.now() - started))
  }
  return scored
}

/** Every k-th file of the robustness corpus that has text to read (no images, archives or encrypted files). */
function robustnessSample(dir: string, size: number): string[] {
  const rows = readFileSync(join(dir, 'MANIFEST.csv'), 'utf8').split('\n').slice(1).filter(Boolean)
  const readable = rows
    .map((row) => row.split(','))
    .filter(
      ([, , , , , mime = '', , , tags = '']) =>
        !/^image\/|zip|encrypted|octet|empty/.test(mime) && !/encrypted/.test(tags),
    )
    .map(([path = '']) => path)
    .sort()
  const stride = Math.max(1, Math.floor(readable.length / Math.max(1, size)))
  return readable.filter((_, index) => index % stride === 0).slice(0, size)
}

async function robustness(dir: string, size: number): Promise<(string | number)[][]> {
  const rows: (string | number)[][] = []
  for (const path of robustnessSample(dir, size)) {
    const full = join(dir, path)
    const name = path.split('/').pop() ?? path
    try {
      const mimeType = await detectMimeType(full, name, statSync(full).size)
      const parser = await loadParserFor(mimeType)
      const parsed: ParsedDocument = await parser.parse({
        path: full,
        mimeType,
        filename: name,
        options: OPTIONS,
        limits: { ...LIMITS, timeBudgetMs: 60_000 },
        ocrLanguages: ['eng'],
        mutool: mutoolRuns() ? 'mutool' : null,
        progress: () => {},
      })
      const sample = parsed.blocks
        .slice(0, 200)
        .map((block) => (block.kind === 'table' ? '' : block.text))
        .join('\n')
      const card = readCard(parsed, {
        filename: name,
        objectName: `/${path}`,
        language: detectLanguage(sample),
        mimeType,
      })
      rows.push([
        path,
        card.kind ?? '-',
        card.subjects.slice(0, 3).join(' / ') || '-',
        card.period?.label ?? '-',
        (card.title ?? '-').slice(0, 60),
      ])
    } catch (error) {
      rows.push([path, 'error', (error as Error).message.slice(0, 60), '', ''])
    }
  }
  return rows
}

async function main(bench: Bench): Promise<Results> {
  const { values } = bench
  const [pdfDir = '', infoFile = ''] = bench.data
  const scored = await financebench(pdfDir, infoFile)
  const heldOut = scored.filter((s) => s.half === 'held-out')
  const tune = scored.filter((s) => s.half === 'tune')
  const header = [
    'companies',
    'documents',
    'subject names the company',
    'wrong company',
    'no subject',
    'kind right',
    'period right',
    'all three',
    'card ms mean / max',
  ]
  const lines = [
    `- Machine: ${bench.machineAndLoad()}`,
    `- Files: ${scored.length} financebench PDFs read as /filings/filing-NNN.pdf (no name or folder hint); text layer ${mutoolRuns() ? 'mutool' : 'pdf.js'}, OCR off.`,
    '- Split: sha256(company) even → tune, odd → held-out; held-out first, in aggregate only.',
    '',
    table(header, [summary('held-out', heldOut), summary('tune', tune), summary('all', scored)]),
  ]
  if (values.details) {
    const misses = tune.filter((s) => s.subject !== 'right' || !s.kind || !s.period)
    lines.push('', `Tune documents with a miss (${misses.length}):`, '')
    lines.push(
      table(
        ['document', 'subject', 'kind', 'period', 'card'],
        misses.map((s) => [s.doc, s.subject, s.kind ? 'ok' : 'miss', s.period ? 'ok' : 'miss', describeCard(s.card)]),
      ),
    )
  }
  const size = Number(values.robustness)
  const robustnessDir = size > 0 ? requireData('bench:cards (robustness sample)', 'parser-robustness')[0] : undefined
  let sample: (string | number)[][] = []
  if (robustnessDir) {
    sample = await robustness(robustnessDir, size)
    const count = (column: number) => sample.filter((row) => row[1] !== 'error' && row[column] !== '-').length
    const parsed = sample.filter((row) => row[1] !== 'error').length
    lines.push(
      '',
      `parser-robustness sample: ${sample.length} files, ${parsed} parsed; with a kind ${count(1)}, a subject ${count(2)}, a period ${count(3)}, a title ${count(4)}.`,
      '',
      table(['file', 'kind', 'subjects', 'period', 'title'], sample),
    )
  }
  // Held-out documents are kept as their scores only: no name, company or card to look at.
  const json = {
    host: bench.machine,
    scored: scored.map((s) =>
      s.half === 'tune'
        ? s
        : {
            half: s.half,
            subject: s.subject,
            anySubject: s.anySubject,
            kind: s.kind,
            period: s.period,
            cardMs: s.cardMs,
          },
    ),
    sample,
  }
  return { json, markdown: lines.join('\n') }
}

runBench({
  name: 'cards',
  usage: USAGE,
  options: { details: { type: 'boolean', default: false }, robustness: { type: 'string', default: '40' } },
  data: ['financebench-subset/pdfs', 'financebench-subset/financebench_document_information.jsonl'],
  run: main,
})
