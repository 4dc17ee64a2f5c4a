import { readdirSync } from 'node:fs'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { extname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { crc32, deflateRawSync } from 'node:zlib'
import { afterAll, expect } from 'vitest'
import { IngestError } from '../../src/ingestion/errors.js'
import type {
  Block,
  IngestLimits,
  ParsedDocument,
  ParseInput,
  Parser,
  TableBlock,
  TableRow,
} from '../../src/ingestion/model.js'
import { sharedData } from '../support/shared-data.js'

export const LIMITS: IngestLimits = {
  maxPages: 2000,
  maxZipEntries: 10_000,
  maxZipUncompressedBytes: 512 * 1024 * 1024,
  maxZipRatio: 200,
  timeBudgetMs: 60_000,
  memoryMb: 1024,
}

/** A ParseInput for a file on disk, with default options. */
export function inputFor(path: string, mimeType: string, overrides: Partial<ParseInput> = {}): ParseInput {
  return {
    path,
    mimeType,
    filename: path.split('/').pop() ?? 'file',
    options: { loaderType: 'STANDARD', csvDelimiter: null, imageMinSizeRatio: 0.1 },
    limits: LIMITS,
    ocrLanguages: ['eng'],
    progress: () => {},
    ...overrides,
  }
}

/** A temp directory for the test file, removed after all its tests. */
export function tempFiles(): (name: string, content: string | Uint8Array) => Promise<string> {
  let dir: string | null = null
  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true })
  })
  return async (name, content) => {
    dir ??= await mkdtemp(join(tmpdir(), 'lantern-parse-'))
    const path = join(dir, name)
    await writeFile(path, content)
    return path
  }
}

/** The shared real-file corpus, or null (with a printed message) when it is not on this machine. */
export function robustnessDir(): string | null {
  const dir = sharedData('parser-robustness', 'skipping the real-file pass')
  return dir ? fileURLToPath(dir) : null
}

/** Runs `parse`; passes when it returns or throws an IngestError, fails on any other error. */
export async function parsesOrRejectsCleanly<T>(parse: () => Promise<T>): Promise<T | IngestError> {
  try {
    return await parse()
  } catch (error) {
    if (error instanceof IngestError) return error
    throw error
  }
}

/** A minimal zip writer (deflated entries) for ODS fixtures, which no installed library writes. */
export function zipOf(entries: readonly { name: string; content: string | Buffer; store?: boolean }[]): Buffer {
  const locals: Buffer[] = []
  const centrals: Buffer[] = []
  let offset = 0
  for (const entry of entries) {
    const data = Buffer.isBuffer(entry.content) ? entry.content : Buffer.from(entry.content, 'utf8')
    const packed = entry.store ? data : deflateRawSync(data)
    const name = Buffer.from(entry.name, 'utf8')
    const crc = crc32(data)
    const method = entry.store ? 0 : 8
    const local = Buffer.alloc(30)
    local.writeUInt32LE(0x04034b50, 0)
    local.writeUInt16LE(20, 4)
    local.writeUInt16LE(method, 8)
    local.writeUInt32LE(crc, 14)
    local.writeUInt32LE(packed.length, 18)
    local.writeUInt32LE(data.length, 22)
    local.writeUInt16LE(name.length, 26)
    const central = Buffer.alloc(46)
    central.writeUInt32LE(0x02014b50, 0)
    central.writeUInt16LE(20, 4)
    central.writeUInt16LE(20, 6)
    central.writeUInt16LE(method, 10)
    central.writeUInt32LE(crc, 16)
    central.writeUInt32LE(packed.length, 20)
    central.writeUInt32LE(data.length, 24)
    central.writeUInt16LE(name.length, 28)
    central.writeUInt32LE(offset, 42)
    locals.push(local, name, packed)
    centrals.push(central, name)
    offset += local.length + name.length + packed.length
  }
  const directory = Buffer.concat(centrals)
  const end = Buffer.alloc(22)
  end.writeUInt32LE(0x06054b50, 0)
  end.writeUInt16LE(entries.length, 8)
  end.writeUInt16LE(entries.length, 10)
  end.writeUInt32LE(directory.length, 12)
  end.writeUInt32LE(offset, 16)
  return Buffer.concat([...locals, directory, end])
}

/** Every file under `dir` (recursively) whose extension is one of `extensions` (without dots). */
export function filesWithExtensions(dir: string, extensions: readonly string[]): string[] {
  const wanted = new Set(extensions.map((ext) => `.${ext}`))
  const out: string[] = []
  const walk = (current: string): void => {
    for (const entry of readdirSync(current, { withFileTypes: true })) {
      const path = join(current, entry.name)
      if (entry.isDirectory()) walk(path)
      else if (wanted.has(extname(entry.name).toLowerCase())) out.push(path)
    }
  }
  walk(dir)
  return out.sort()
}

/** Structural checks every parsed document must pass. */
export function expectWellFormed(doc: ParsedDocument): void {
  expect(doc.pageCount).toBeGreaterThanOrEqual(1)
  expect(['text', 'image']).toContain(doc.documentType)
  for (const block of doc.blocks) {
    if (block.kind === 'table') {
      for (const row of block.rows) {
        expect(Number.isInteger(row.rowNumber) && row.rowNumber >= 1).toBe(true)
        for (const cell of row.cells) expect(typeof cell).toBe('string')
      }
    } else {
      expect(typeof block.text).toBe('string')
      expect(block.text.length).toBeGreaterThan(0)
    }
    if (block.kind === 'heading') expect(block.level >= 1 && block.level <= 6).toBe(true)
  }
}

/**
 * The real-file pass: each file parses into a well-formed document or fails with an IngestError
 * (never a raw library error). Returns how many parsed and how many were rejected.
 */
export async function realFilePass(
  parser: Parser,
  files: readonly string[],
  mimeOf: (path: string) => string,
): Promise<{ parsed: number; rejected: string[] }> {
  let parsed = 0
  const rejected: string[] = []
  for (const path of files) {
    const result = await parsesOrRejectsCleanly(() => parser.parse(inputFor(path, mimeOf(path))))
    if (result instanceof IngestError) {
      expect(result.message.length).toBeGreaterThan(0)
      rejected.push(`${path}: ${result.message}`)
    } else {
      expectWellFormed(result)
      parsed++
    }
  }
  return { parsed, rejected }
}

/** A row as a plain `{ rowNumber, cells }` object (parsers give rows that split their cells when read), for toEqual. */
export function plainRow(row: TableRow | undefined): { rowNumber: number; cells: readonly string[] } | undefined {
  return row && { rowNumber: row.rowNumber, cells: row.cells }
}

/** A table block with plain rows (see plainRow), for toEqual. */
export function plainTable(table: TableBlock | undefined) {
  return table && { ...table, rows: table.rows.map((row) => plainRow(row)) }
}

/** Blocks with the rows of their tables plain (see plainRow), for toEqual. */
export function plainBlocks(blocks: readonly Block[]) {
  return blocks.map((block) => (block.kind === 'table' ? plainTable(block) : block))
}
