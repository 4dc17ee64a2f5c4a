import { oneLine, visibleLength } from '../../lib/whitespace.js'
import type { Block } from '../model.js'
import type { CellSpan, FontProfile, Furniture, PdfLine, PdfTextItem } from './pdf-lines.js'
import type { TableCarry } from './pdf-table-page.js'
import { pageTables } from './pdf-tables.js'
import { joinLines } from './text-blocks.js'

/** A gap wider than this many font sizes separates table cells (word spaces are ~0.3). */
const CELL_GAP = 1.5
const SPACE_GAP = 0.12
const HEADING_RATIO = 1.2
const MAX_HEADING_CHARS = 200
const MAX_HEADING_LINES = 3
/** More words than this, ending like a sentence, is a sentence set large, not a title. */
const MAX_HEADING_SENTENCE_WORDS = 10
/** A list item's marker: a bullet set larger than the body is not a heading. */
const LIST_MARKER = /^[•◦▪▫‣⁃∙●○■□►▸➢✓✔*–—-]\s/u
const SENTENCE_END = /[.;,][)"'”’]*$/u

/**
 * Whether text set in a heading size reads as a heading. A heading opens every chunk after it
 * until the next one, so a clause of a contract or a bullet taken for one would put its words
 * into hundreds of chunks: a list item or a long sentence is a paragraph, whatever its size.
 */
function readsAsHeading(text: string): boolean {
  if (LIST_MARKER.test(text)) return false
  return !(SENTENCE_END.test(text) && text.split(/\s+/).length > MAX_HEADING_SENTENCE_WORDS)
}

interface LineBuilder {
  y: number
  x: number
  left: number
  right: number
  size: number
  turns: number
  cells: string[]
  spans: { left: number; right: number }[]
  pendingSpace: boolean
  pendingCell: boolean
}

/**
 * Groups a page's text items (content-stream order, which is reading order for columns) into
 * lines: consecutive items on the same baseline join, with a space where the gap between them is
 * wider than a narrow space and a cell break where it is wider than 1.5 font sizes.
 */
export function pageLines(items: readonly unknown[]): PdfLine[] {
  const lines: PdfLine[] = []
  let current = null as LineBuilder | null
  for (const raw of items) {
    if (!isTextItem(raw) || raw.str.length === 0) continue
    const [a = 1, b = 0, c = 0, d = 1, e = 0, f = 0] = raw.transform
    const size = Math.hypot(c, d) || Math.hypot(a, b) || raw.height || 1
    const turns = (((Math.round(Math.atan2(b, a) / (Math.PI / 2)) % 4) + 4) % 4) as number
    const [x, y] = intoTextFrame(e, f, turns)
    const width = Math.abs(raw.width)
    const rtl = raw.dir === 'rtl'
    const blank = raw.str.trim() === ''
    const line = current
    const sameLine =
      line !== null &&
      line.turns === turns &&
      Math.abs(y - line.y) <= Math.max(line.size, size) * 0.5 &&
      (rtl || x >= line.left - size)
    if (!line || !sameLine) {
      if (line) finishLine(line, lines)
      current = null
      if (blank) continue
      current = {
        y,
        x,
        left: x,
        right: x + width,
        size,
        turns,
        cells: [raw.str],
        spans: [{ left: x, right: x + width }],
        pendingSpace: false,
        pendingCell: false,
      }
      continue
    }
    const gap = rtl ? line.left - (x + width) : x - line.right
    if (blank) {
      // A space far from the text before it (a table's padding) separates cells like a wide one.
      if (width > size * CELL_GAP || gap > size * CELL_GAP) line.pendingCell = true
      else line.pendingSpace = true
      // Nor does it move the line's edge: the gap to the next text is measured from the last text.
      continue
    } else if (line.pendingCell || gap > size * CELL_GAP) {
      line.cells.push(raw.str)
      line.spans.push({ left: x, right: x + width })
    } else {
      const last = line.cells.length - 1
      const cell = line.cells[last] ?? ''
      const space = (line.pendingSpace || gap > size * SPACE_GAP) && !/\s$/u.test(cell) && !/^\s/u.test(raw.str)
      line.cells[last] = `${cell}${space ? ' ' : ''}${raw.str}`
      const span = line.spans[last]
      if (span) {
        span.left = Math.min(span.left, x)
        span.right = Math.max(span.right, x + width)
      }
    }
    line.pendingSpace = false
    line.pendingCell = false
    line.left = Math.min(line.left, x)
    line.right = Math.max(line.right, x + width)
    line.size = Math.max(line.size, size)
  }
  if (current) finishLine(current, lines)
  return lines
}

function finishLine(line: LineBuilder, lines: PdfLine[]): void {
  const cells: string[] = []
  const spans: CellSpan[] = []
  line.cells.forEach((raw, i) => {
    const cell = oneLine(raw)
    if (!cell) return
    cells.push(cell)
    spans.push(line.spans[i] as CellSpan)
  })
  if (cells.length > 0) lines.push({ y: line.y, x: line.x, size: line.size, turns: line.turns, cells, spans })
}

/** Body size = the size most characters are set in; larger sizes rank as heading levels 1–6. */
export function fontProfile(lines: readonly PdfLine[]): FontProfile {
  const chars = new Map<number, number>()
  for (const line of lines) {
    const key = roundSize(line.size)
    chars.set(key, (chars.get(key) ?? 0) + line.cells.join('').length)
  }
  let bodySize = 0
  let most = -1
  for (const [size, count] of chars) {
    if (count > most) [bodySize, most] = [size, count]
  }
  const headingSizes = [...chars.keys()].filter((s) => s >= bodySize * HEADING_RATIO).sort((x, y) => y - x)
  return {
    bodySize,
    headingLevel: (size) => {
      const rank = headingSizes.indexOf(roundSize(size))
      return rank < 0 ? null : Math.min(rank + 1, 6)
    },
  }
}

/**
 * The blocks of every page of a document: fonts rank headings over the whole document, lines that
 * repeat at the same place on many pages (running heads) never title a table, and a table that
 * ends one page and goes on at the top of the next keeps its title and header there.
 */
export function layoutPages(pages: readonly (readonly PdfLine[])[]): Block[][] {
  const fonts = fontProfile(pages.flat())
  const furniture = runningLines(pages)
  let carry: TableCarry | null = null
  return pages.map((lines, i) => {
    const laid = pageBlocks(lines, i + 1, fonts, furniture, carry)
    carry = laid.carry
    return laid.blocks
  })
}

/**
 * A page's lines as blocks: tables (see pageTables) where runs of lines have several cells, other
 * lines grouped into paragraphs at vertical gaps, size changes and jumps back up (a new column),
 * and short paragraphs set larger than the body become headings. `carried` is the previous page's
 * last table when it ended that page.
 */
export function pageBlocks(
  lines: readonly PdfLine[],
  page: number,
  fonts: FontProfile,
  furniture: Furniture = () => false,
  carried: TableCarry | null = null,
): { readonly blocks: Block[]; readonly carry: TableCarry | null } {
  const { tables, carry } = pageTables(lines, fonts, furniture, carried)
  const taken = new Uint8Array(lines.length)
  for (const table of tables) for (const index of table.lines) taken[index] = 1
  const tableAt = new Map(tables.map((table) => [table.at, table.block]))
  const blocks: Block[] = []
  const spacing = lineSpacing(lines)
  let paragraph: PdfLine[] = []
  const flush = () => {
    if (paragraph.length > 0) blocks.push(textBlock(paragraph, page, fonts))
    paragraph = []
  }
  for (let i = 0; i < lines.length; i++) {
    const table = tableAt.get(i)
    if (table) {
      flush()
      blocks.push({ ...table, page })
    }
    if (taken[i]) continue
    const line = lines[i] as PdfLine
    const previous = paragraph.at(-1)
    if (previous && startsNewParagraph(previous, line, spacing, fonts)) flush()
    paragraph.push(line)
  }
  flush()
  return { blocks, carry }
}

/** Running heads and feet are short; longer lines are never looked up. */
const MAX_RUNNING_CHARS = 100

/**
 * Lines found at the same height with the same text (numbers aside: "Page 3") on at least a fifth
 * of the pages, and on three at least: running heads and feet.
 */
export function runningLines(pages: readonly (readonly PdfLine[])[]): Furniture {
  const counts = new Map<string, number>()
  const key = (line: PdfLine, shift: number) =>
    `${line.turns}|${Math.round(line.y / 3) + shift}|${line.cells.join(' ').replace(/\d+/gu, '#')}`
  for (const lines of pages) {
    const seen = new Set<string>()
    for (const line of lines) {
      if (line.cells.length > 1 || (line.cells[0] as string).length > MAX_RUNNING_CHARS) continue
      const k = key(line, 0)
      if (seen.has(k)) continue
      seen.add(k)
      counts.set(k, (counts.get(k) ?? 0) + 1)
    }
  }
  const least = Math.max(3, Math.ceil(pages.length / 5))
  return (line) =>
    line.cells.length === 1 &&
    (line.cells[0] as string).length <= MAX_RUNNING_CHARS &&
    [-1, 0, 1].some((shift) => (counts.get(key(line, shift)) ?? 0) >= least)
}

/** Number of characters other than whitespace: below a threshold a page counts as having no text. */
export function visibleChars(lines: readonly PdfLine[]): number {
  let count = 0
  for (const line of lines) for (const cell of line.cells) count += visibleLength(cell)
  return count
}

function textBlock(lines: readonly PdfLine[], page: number, fonts: FontProfile): Block {
  const text = joinLines(lines.map((line) => line.cells.join(' ')))
  const size = Math.max(...lines.map((line) => line.size))
  const level = fonts.headingLevel(size)
  if (
    level !== null &&
    lines.length <= MAX_HEADING_LINES &&
    text.length <= MAX_HEADING_CHARS &&
    /\p{L}/u.test(text) &&
    readsAsHeading(text)
  ) {
    return { kind: 'heading', level, text, page }
  }
  return { kind: 'paragraph', text, page }
}

function startsNewParagraph(previous: PdfLine, line: PdfLine, spacing: number, fonts: FontProfile): boolean {
  if (previous.turns !== line.turns) return true
  const size = Math.max(previous.size, line.size)
  const drop = previous.y - line.y
  if (drop < -size * 0.5) return true
  if (drop > Math.max(spacing * 1.4, size * 1.3)) return true
  if (Math.abs(previous.size - line.size) > size * 0.15) return true
  return (fonts.headingLevel(previous.size) === null) !== (fonts.headingLevel(line.size) === null)
}

/**
 * The page's normal line spacing: the tightest baseline distance between consecutive lines of one
 * size (paragraph breaks and table rows are the wider ones). Overlapping lines are ignored.
 */
function lineSpacing(lines: readonly PdfLine[]): number {
  let spacing = 0
  for (let i = 1; i < lines.length; i++) {
    const [a, b] = [lines[i - 1] as PdfLine, lines[i] as PdfLine]
    const drop = a.y - b.y
    if (a.turns !== b.turns || a.size !== b.size || drop < a.size * 0.8 || drop > a.size * 3) continue
    if (spacing === 0 || drop < spacing) spacing = drop
  }
  return spacing
}

/** Rotates a point so text running at `turns` quarter turns runs left to right, baseline up. */
function intoTextFrame(x: number, y: number, turns: number): [number, number] {
  switch (turns) {
    case 1:
      return [y, -x]
    case 2:
      return [-x, -y]
    case 3:
      return [-y, x]
    default:
      return [x, y]
  }
}

function roundSize(size: number): number {
  return Math.round(size * 2) / 2
}

function isTextItem(value: unknown): value is PdfTextItem {
  if (typeof value !== 'object' || value === null) return false
  const item = value as Partial<PdfTextItem>
  return typeof item.str === 'string' && Array.isArray(item.transform) && typeof item.width === 'number'
}
