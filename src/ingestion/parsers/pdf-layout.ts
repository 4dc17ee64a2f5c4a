import { oneLine, visibleLength } from '../../lib/whitespace.js'
import type { Block, TableRow } from '../model.js'
import { joinLines } from './text-blocks.js'

/** The part of a pdf.js text item the layout needs. */
export interface PdfTextItem {
  readonly str: string
  readonly transform: readonly number[]
  readonly width: number
  readonly height: number
  readonly dir?: string
}

/** One visual line of a page, in the coordinates of its own text direction. */
export interface PdfLine {
  /** Baseline across the text direction; larger is higher on the page. */
  readonly y: number
  readonly x: number
  readonly size: number
  /** Quarter turns of the text direction (0 for normal horizontal text). */
  readonly turns: number
  /** Runs separated by wide gaps: table cells when several consecutive lines have them. */
  readonly cells: readonly string[]
}

/** Font statistics of the whole document: body size and heading levels by size. */
export interface FontProfile {
  readonly bodySize: number
  headingLevel(size: number): number | null
}

/** A gap wider than this many font sizes separates table cells (word spaces are ~0.3). */
const CELL_GAP = 1.5
const SPACE_GAP = 0.12
const HEADING_RATIO = 1.2
const MAX_HEADING_CHARS = 200
const MAX_HEADING_LINES = 3

interface LineBuilder {
  y: number
  x: number
  left: number
  right: number
  size: number
  turns: number
  cells: string[]
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
        pendingSpace: false,
        pendingCell: false,
      }
      continue
    }
    const gap = rtl ? line.left - (x + width) : x - line.right
    if (blank) {
      if (width > size * CELL_GAP) line.pendingCell = true
      else line.pendingSpace = true
    } else if (line.pendingCell || gap > size * CELL_GAP) {
      line.cells.push(raw.str)
    } else {
      const last = line.cells.length - 1
      const cell = line.cells[last] ?? ''
      const space = (line.pendingSpace || gap > size * SPACE_GAP) && !/\s$/u.test(cell) && !/^\s/u.test(raw.str)
      line.cells[last] = `${cell}${space ? ' ' : ''}${raw.str}`
    }
    if (!blank) {
      line.pendingSpace = false
      line.pendingCell = false
    }
    line.left = Math.min(line.left, x)
    line.right = Math.max(line.right, x + width)
    line.size = Math.max(line.size, size)
  }
  if (current) finishLine(current, lines)
  return lines
}

function finishLine(line: LineBuilder, lines: PdfLine[]): void {
  const cells = line.cells.map(oneLine).filter(Boolean)
  if (cells.length > 0) lines.push({ y: line.y, x: line.x, size: line.size, turns: line.turns, cells })
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
 * A page's lines as blocks: runs of two or more lines with several cells become a table (first
 * row as header), other lines are grouped into paragraphs at vertical gaps, size changes and
 * jumps back up (a new column), and short paragraphs set larger than the body become headings.
 */
export function pageBlocks(lines: readonly PdfLine[], page: number, fonts: FontProfile): Block[] {
  const blocks: Block[] = []
  const spacing = lineSpacing(lines)
  let paragraph: PdfLine[] = []
  const flush = () => {
    if (paragraph.length > 0) blocks.push(textBlock(paragraph, page, fonts))
    paragraph = []
  }
  for (let i = 0; i < lines.length; ) {
    const run = tableRun(lines, i)
    if (run.length >= 2) {
      flush()
      blocks.push(tableBlock(run, page))
      i += run.length
      continue
    }
    const line = lines[i] as PdfLine
    const previous = paragraph.at(-1)
    if (previous && startsNewParagraph(previous, line, spacing, fonts)) flush()
    paragraph.push(line)
    i++
  }
  flush()
  return blocks
}

/** Number of characters other than whitespace: below a threshold a page counts as having no text. */
export function visibleChars(lines: readonly PdfLine[]): number {
  let count = 0
  for (const line of lines) for (const cell of line.cells) count += visibleLength(cell)
  return count
}

function tableRun(lines: readonly PdfLine[], start: number): PdfLine[] {
  const run: PdfLine[] = []
  for (let i = start; i < lines.length; i++) {
    const line = lines[i] as PdfLine
    const previous = run.at(-1)
    if (line.cells.length < 2) break
    if (previous && (previous.turns !== line.turns || previous.y - line.y > previous.size * 4 || line.y > previous.y))
      break
    run.push(line)
  }
  return run
}

function tableBlock(run: readonly PdfLine[], page: number): Block {
  const [first, ...rest] = run
  const rows: TableRow[] = rest.map((line, i) => ({ rowNumber: i + 2, cells: line.cells }))
  return { kind: 'table', page, header: first ? first.cells : null, rows }
}

function textBlock(lines: readonly PdfLine[], page: number, fonts: FontProfile): Block {
  const text = joinLines(lines.map((line) => line.cells.join(' ')))
  const size = Math.max(...lines.map((line) => line.size))
  const level = fonts.headingLevel(size)
  if (level !== null && lines.length <= MAX_HEADING_LINES && text.length <= MAX_HEADING_CHARS && /\p{L}/u.test(text)) {
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
