import { oneLine } from '../../lib/whitespace.js'
import type { Block, ParsedDocument, TableBlock } from '../model.js'

/** Pages the card reads from the start of a document: its cover, contents and first section. */
const HEAD_PAGES = 10
/** Characters of the head at most (a page of a filing holds 3,000–6,000). */
const HEAD_CHARS = 60_000
/** Characters of a document without pages read as its cover. */
const COVER_CHARS_WITHOUT_PAGES = 4_000
/** Characters of the cover at most (a dense first page). */
const COVER_CHARS = 12_000
/** Characters sampled from all over the document, to see which names recur. */
const SAMPLE_CHARS = 60_000

/** One block as the card reads it: a line of text, and whether it is a heading. */
export interface CardLine {
  readonly text: string
  readonly heading: boolean
  /** A table's rows joined (`cell | cell ; cell | cell`): data, not the document's own words. */
  readonly table: boolean
  readonly page: number | undefined
}

/**
 * The parts of a document the card reads, never the whole of a long one: the cover (the first
 * page, or the first few thousand characters of a document without pages), the head (the first
 * pages), and a sample of blocks taken at an even stride over the whole document.
 */
export interface CardReading {
  readonly cover: readonly CardLine[]
  readonly coverTables: readonly TableBlock[]
  readonly head: readonly CardLine[]
  readonly sample: readonly string[]
}

function tableLine(block: TableBlock): string {
  const rows = [...(block.header ? [block.header] : []), ...block.rows.map((row) => row.cells)]
  return rows.map((cells) => cells.map((cell) => oneLine(cell)).join(' | ')).join(' ; ')
}

function lineOf(block: Block): CardLine {
  const text = block.kind === 'table' ? tableLine(block) : oneLine(block.text)
  return { text, heading: block.kind === 'heading', table: block.kind === 'table', page: block.page }
}

function blockChars(block: Block): number {
  if (block.kind !== 'table') return block.text.length
  let chars = 0
  for (const row of block.rows) for (const cell of row.cells) chars += cell.length + 1
  return chars
}

/** Reads the cover, the head and a sample of a parsed document (see CardReading). */
export function readingOf(parsed: ParsedDocument): CardReading {
  const cover: CardLine[] = []
  const coverTables: TableBlock[] = []
  const head: CardLine[] = []
  const paged = parsed.blocks.some((block) => block.page !== undefined)
  const firstPage = parsed.blocks.find((block) => block.page !== undefined)?.page
  let coverChars = 0
  let headChars = 0
  let total = 0
  for (const block of parsed.blocks) {
    total += blockChars(block)
    if (headChars >= HEAD_CHARS) continue
    if (paged && block.page !== undefined && firstPage !== undefined && block.page >= firstPage + HEAD_PAGES) continue
    const line = lineOf(block)
    if (!line.text) continue
    head.push(line)
    headChars += line.text.length
    const onCover = paged ? block.page === firstPage : coverChars < COVER_CHARS_WITHOUT_PAGES
    if (onCover && coverChars < COVER_CHARS) {
      cover.push(line)
      coverChars += line.text.length
      if (block.kind === 'table') coverTables.push(block)
    }
  }
  const stride = Math.max(1, Math.ceil(total / SAMPLE_CHARS))
  const sample: string[] = []
  for (let index = 0; index < parsed.blocks.length; index += stride) {
    const block = parsed.blocks[index]
    if (block) sample.push(lineOf(block).text)
  }
  return { cover, coverTables, head, sample }
}

/** Lines joined as one text, a line feed between blocks. */
export function textOf(lines: readonly CardLine[]): string {
  return lines.map((line) => line.text).join('\n')
}
