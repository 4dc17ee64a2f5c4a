import WordExtractor from 'word-extractor'
import { summaryTitle, withCompoundFile } from '../detection/compound-file.js'
import { ingestErrors } from '../errors.js'
import type { Block, ParsedDocument, ParseInput, Parser, TableBlock } from '../model.js'
import { toIngestError } from './failures.js'
import { DOC } from './formats.js'
import { detectHeader, kindOfText } from './table-builder.js'

/** `wIdent` of the File Information Block: Word 97 and later; Word 6.0/95 wrote 0xA5DC. */
const WORD_97_IDENT = 0xa5ec
const WORD_6_IDENT = 0xa5dc
/** FIB flag `fEncrypted` (MS-DOC 2.5.2): the document is encrypted with a password. */
const F_ENCRYPTED = 0x0100

/**
 * Reads the File Information Block at the start of the `WordDocument` stream before the text:
 * an encrypted document is password-protected (the library would read garbage or fail), a Word
 * 6.0/95 document is a format the library does not read. Gives the title of the document's
 * properties.
 */
async function checkFib(path: string): Promise<string | undefined> {
  const { fib, title } = await withCompoundFile(path, async (file) => {
    const stream = file?.rootEntry('WordDocument')
    if (!file || !stream) return { fib: null, title: undefined }
    return { fib: await file.readStream(stream, 12), title: await summaryTitle(file) }
  })
  if (!fib || fib.length < 12) throw ingestErrors.corrupt('DOC', 'no readable WordDocument stream')
  const ident = fib.readUInt16LE(0)
  if (fib.readUInt16LE(10) & F_ENCRYPTED) throw ingestErrors.passwordProtected('DOC')
  if (ident === WORD_6_IDENT) throw ingestErrors.unsupported(`${DOC} (Word 6.0/95)`)
  if (ident !== WORD_97_IDENT) throw ingestErrors.corrupt('DOC', 'not a Word 97–2003 document')
  return title
}

const oneLine = (text: string): string => text.replace(/[\s\u00a0]+/g, ' ').trim()

/** Cells of a table row as the library writes it: each cell followed by a tab. */
const rowCells = (line: string): string[] | null => (line.endsWith('\t') ? line.slice(0, -1).split('\t') : null)

/** Two or more consecutive rows with at least two cells, as a table; the header only when the rows say so. */
function tableOf(rows: readonly string[][]): TableBlock {
  const width = Math.max(...rows.map((row) => row.length))
  const padded = rows.map((row) => [...row.map(oneLine), ...Array<string>(width - row.length).fill('')])
  const header = detectHeader(padded.slice(0, 20).map((row) => row.map((text) => ({ text, kind: kindOfText(text) }))))
  const body = padded
    .map((cells, i) => ({ rowNumber: i + 1, cells }))
    .slice(header ? 1 : 0)
    .filter((row) => row.cells.some((cell) => cell !== ''))
  return { kind: 'table', header: header ? (padded[0] ?? null) : null, rows: body }
}

/**
 * Text of one story as blocks: each Word paragraph (a line of the extracted text) a paragraph
 * block, and runs of table rows (cells ended by tabs) a table block.
 */
export function storyBlocks(text: string): Block[] {
  const blocks: Block[] = []
  let rows: string[][] = []
  const flushRows = (): void => {
    const filled = rows.filter((row) => row.some((cell) => oneLine(cell) !== ''))
    if (filled.length >= 2 && Math.max(...filled.map((row) => row.length)) >= 2) blocks.push(tableOf(filled))
    else
      for (const row of filled) {
        const line = oneLine(row.join(' '))
        if (line) blocks.push({ kind: 'paragraph', text: line })
      }
    rows = []
  }
  for (const raw of text.replace(/\r\n?/g, '\n').split('\n')) {
    const cells = rowCells(raw)
    if (cells) {
      rows.push(cells)
      continue
    }
    flushRows()
    const line = oneLine(raw)
    if (line) blocks.push({ kind: 'paragraph', text: line })
  }
  flushRows()
  return blocks
}

/** A section of secondary text (footnotes, comments…) under its own heading, when it has any. */
function section(title: string, blocks: readonly Block[]): Block[] {
  return blocks.length > 0 ? [{ kind: 'heading', level: 1, text: title }, ...blocks] : []
}

/** Lines of the page headers and footers, each once (every section repeats them). */
function distinctParagraphs(text: string): Block[] {
  const seen = new Set<string>()
  const blocks: Block[] = []
  for (const block of storyBlocks(text)) {
    const key = block.kind === 'paragraph' ? block.text : JSON.stringify(block)
    if (seen.has(key)) continue
    seen.add(key)
    blocks.push(block)
  }
  return blocks
}

/**
 * Word 97–2003 (.doc) through word-extractor: the body's paragraphs in order (tables as table
 * blocks), then the text boxes, then "Footnotes", "Endnotes", "Comments" and "Headers and
 * footers" sections (headers and footers once each). The text of a .doc carries no page breaks
 * nor heading styles, so `pageCount` is 1, blocks carry no page, and headings are only those
 * sections' (provenance is the chunk and its position, as for DOCX). The title is the one of the
 * document's properties (SummaryInformation). Encrypted documents are "password-protected"; Word
 * 6.0/95 files are unsupported.
 */
export const docParser: Parser = {
  mimeTypes: [DOC],
  async parse(input: ParseInput): Promise<ParsedDocument> {
    try {
      const title = await checkFib(input.path)
      const doc = await new WordExtractor().extract(input.path)
      const raw = { filterUnicode: false }
      const blocks: Block[] = [
        ...storyBlocks(doc.getBody(raw)),
        ...storyBlocks(doc.getTextboxes({ ...raw, includeHeadersAndFooters: false, includeBody: true })),
        ...section('Footnotes', storyBlocks(doc.getFootnotes(raw))),
        ...section('Endnotes', storyBlocks(doc.getEndnotes(raw))),
        ...section('Comments', storyBlocks(doc.getAnnotations(raw))),
        ...section(
          'Headers and footers',
          distinctParagraphs(`${doc.getHeaders({ ...raw, includeFooters: false })}\n${doc.getFooters(raw)}`),
        ),
      ]
      input.progress(1, 1)
      return { blocks, pageCount: 1, documentType: 'text', ...(title ? { title } : {}) }
    } catch (error) {
      throw toIngestError('DOC', error)
    }
  },
}
