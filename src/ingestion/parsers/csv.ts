import { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { parse } from 'csv-parse'
import { decodeFileStream, detectFileEncoding, readTextSample } from '../detection/text-decoding.js'
import type { ParsedDocument, ParseInput, ParseOptions, Parser } from '../model.js'
import { toIngestError } from './failures.js'
import { CSV_TYPES } from './formats.js'
import { kindOfText, TableBuilder } from './table-builder.js'

const TSV_TYPES = new Set(['text/tab-separated-values'])
const OPTION_DELIMITERS: Readonly<Record<NonNullable<ParseOptions['csvDelimiter']>, string>> = {
  comma: ',',
  semicolon: ';',
  tab: '\t',
}
/** Detection candidates, in order of preference when two are equally consistent. */
const CANDIDATES = ['\t', ';', ',', '|'] as const
/** Records looked at to detect the delimiter. */
const SAMPLE_RECORDS = 50
/** A quoted field that never closes must not swallow the whole file into one string. */
const MAX_RECORD_BYTES = 16 * 1024 * 1024

/**
 * The delimiter whose count per record (outside double quotes) is the most consistent across the
 * first records of `sample`; ties go to the higher count, then tab, semicolon, comma, pipe.
 * Comma when no candidate appears at all. `complete` says the sample is the whole file, so its
 * last record is not cut.
 */
export function detectDelimiter(sample: string, complete: boolean): string {
  const records: Map<string, number>[] = []
  let counts = new Map<string, number>()
  let inQuotes = false
  let filled = false
  for (let i = 0; i < sample.length && records.length < SAMPLE_RECORDS; i++) {
    const ch = sample[i] as string
    if (ch === '"') inQuotes = !inQuotes
    else if (inQuotes) continue
    else if (ch === '\n' || ch === '\r') {
      if (filled) records.push(counts)
      counts = new Map()
      filled = false
    } else {
      filled = true
      if ((CANDIDATES as readonly string[]).includes(ch)) counts.set(ch, (counts.get(ch) ?? 0) + 1)
    }
  }
  if (filled && (complete || records.length === 0)) records.push(counts)

  let best = { delimiter: ',', consistency: 0, mode: 0 }
  for (const candidate of CANDIDATES) {
    const perRecord = records.map((record) => record.get(candidate) ?? 0)
    const frequency = new Map<number, number>()
    for (const n of perRecord) frequency.set(n, (frequency.get(n) ?? 0) + 1)
    let mode = 0
    let modeFrequency = 0
    for (const [n, f] of frequency) {
      if (n > 0 && (f > modeFrequency || (f === modeFrequency && n > mode))) {
        mode = n
        modeFrequency = f
      }
    }
    if (mode === 0) continue
    const consistency = modeFrequency / perRecord.length
    if (consistency > best.consistency || (consistency === best.consistency && mode > best.mode)) {
      best = { delimiter: candidate, consistency, mode }
    }
  }
  return best.delimiter
}

async function parseCsv(input: ParseInput): Promise<ParsedDocument> {
  const encoding = await detectFileEncoding(input.path)
  let delimiter = input.options.csvDelimiter ? OPTION_DELIMITERS[input.options.csvDelimiter] : null
  if (!delimiter && TSV_TYPES.has(input.mimeType)) delimiter = '\t'
  if (!delimiter) {
    const sample = await readTextSample(input.path, encoding)
    delimiter = detectDelimiter(sample.text, sample.complete)
  }

  const parser = parse({
    delimiter,
    relax_column_count: true,
    relax_quotes: true,
    trim: true,
    skip_empty_lines: false,
    max_record_size: MAX_RECORD_BYTES,
  })
  const source = Readable.from(decodeFileStream(input.path, encoding))
  const done = pipeline(source, parser)
  done.catch(() => {})
  const table = new TableBuilder()
  // Rows are numbered as a spreadsheet shows the file: record 1 is the first (header) row, blank
  // lines count as rows, a quoted field spanning lines does not start a new one.
  let rowNumber = 0
  for await (const record of parser as AsyncIterable<string[]>) {
    rowNumber++
    table.add(
      rowNumber,
      record.map((raw) => {
        const text = raw.includes('\r') ? raw.replace(/\r\n?/g, '\n') : raw
        return { text, kind: kindOfText(text) }
      }),
    )
  }
  await done
  input.progress(1, 1)
  const block = table.finish()
  return { blocks: block ? [block] : [], pageCount: 1, documentType: 'text' }
}

/**
 * CSV and TSV, streamed: decoded from any common encoding, the delimiter from `csv_delimiter`,
 * else tab for TSV, else detected. One table block (no sheet), first row as header when it looks
 * like one; each row's `rowNumber` is its 1-based row in the file with the header row as row 1
 * (blank lines count, line breaks inside quoted fields do not). Cells stay strings.
 */
export const csvParser: Parser = {
  mimeTypes: CSV_TYPES,
  async parse(input) {
    try {
      return await parseCsv(input)
    } catch (error) {
      throw toIngestError('CSV', error)
    }
  },
}
