import { cleanText, oneLine } from '../../lib/whitespace.js'
import type { Block, HeadingBlock, ImageBlock, ParagraphBlock, TableBlock } from '../model.js'
import type { ChunkingOptions } from './chunking-options.js'
import { imageChunks } from './image-chunks.js'
import type { Located } from './located.js'
import { proseChunks } from './prose-chunks.js'
import { overlapOf } from './prose-overlap.js'
import type { Unit } from './prose-unit.js'
import { tableChunks } from './table-chunks.js'
import { measure, splitToBudget, truncateToTokens } from './text.js'
import { countTokens } from './tokens.js'

interface Heading {
  readonly level: number
  readonly text: string
  readonly page: number | undefined
}

const PATH_SEPARATOR = ' > '

/**
 * Pages a heading heads at most with no other heading after it. One misread from a page (an
 * exhibit's title before an appendix whose headings are not told apart, a paragraph set large)
 * would otherwise open every chunk of the hundred pages that follow, its words matching in all.
 */
const HEADING_REACH_PAGES = 10

/**
 * The level below which headings only subdivide a section: the smallest level used more than
 * once, so a document whose single top heading is its title is cut at its next level.
 */
function sectionLevel(blocks: readonly Block[]): number {
  const counts = new Map<number, number>()
  for (const block of blocks) if (block.kind === 'heading') counts.set(block.level, (counts.get(block.level) ?? 0) + 1)
  const levels = [...counts.keys()].sort((a, b) => a - b)
  return levels.find((level) => (counts.get(level) ?? 0) > 1) ?? levels[0] ?? 1
}

/** Walks the blocks once, giving out chunks as soon as they are complete. */
export class Chunker {
  /** Complete chunks not given out yet. */
  private readonly chunks: Located[] = []
  private readonly budget: number
  private readonly overlap: number
  /** A prose chunk smaller than this continues onto the next page rather than ending alone. */
  private readonly minChunk: number
  private readonly topLevel: number

  private path: Heading[] = []
  /** Whether the innermost heading of the path has appeared in a chunk yet. */
  private covered = true
  private units: Unit[] = []
  private unitTokens = 0
  private prefix = ''
  private prefixTokens = 0
  private sheet: string | undefined
  /** Image chunks met inside pending prose: they follow the prose chunk that surrounds them. */
  private deferred: Located[] = []

  constructor(blocks: readonly Block[], options: ChunkingOptions) {
    this.budget = Math.max(16, Math.floor(options.chunkTokens))
    this.overlap = Math.max(0, Math.min(Math.floor(options.overlapTokens), Math.floor(this.budget / 2)))
    this.minChunk = Math.floor(this.budget / 4)
    this.topLevel = sectionLevel(blocks)
  }

  /** Takes the next block; gives out the chunks that are complete now. */
  *add(block: Block): Generator<Located> {
    if (block.kind === 'table') yield* this.table(block)
    else if (block.kind === 'heading') this.heading(block)
    else if (block.kind === 'paragraph') this.paragraph(block)
    else this.image(block)
    yield* this.chunks.splice(0)
  }

  /** Gives out the last chunks. */
  *finish(): Generator<Located> {
    this.flush(false)
    if (!this.covered) this.title()
    yield* this.chunks.splice(0)
  }

  /** The headings over content on `page`: those within their reach of it. */
  private pathText(page?: number): string {
    const path =
      page === undefined
        ? this.path
        : this.path.filter((heading) => heading.page === undefined || page - heading.page <= HEADING_REACH_PAGES)
    if (path.length === 0) return ''
    const full = path.map((heading) => heading.text).join(PATH_SEPARATOR)
    const limit = Math.floor(this.budget / 4)
    if (countTokens(full) <= limit) return full
    // A deep or verbose path would crowd out the content: keep its innermost heading only.
    return truncateToTokens(path[path.length - 1]?.text ?? '', limit)
  }

  /** Tokens available to the units of the current chunk, given its prefix. */
  private room(): number {
    // A line break after the prefix, and a small margin for token merges across joins.
    return Math.max(8, this.budget - (this.prefix ? this.prefixTokens + 1 : 0) - 2)
  }

  private startChunk(page: number | undefined): void {
    this.prefix = this.pathText(page)
    this.prefixTokens = this.prefix ? countTokens(this.prefix) : 0
  }

  private heading(block: HeadingBlock): void {
    const text = oneLine(block.text)
    if (!text) return
    const level = Math.max(1, Math.floor(block.level))
    const innermost = this.path[this.path.length - 1]
    // A heading with nothing under it before a sibling or parent heading still gets a chunk.
    if (!this.covered && innermost && level <= innermost.level) this.title()
    const headingText = truncateToTokens(text, Math.floor(this.budget / 4))
    const headingTokens = countTokens(headingText)
    // A short sub-section stays with what precedes it, its heading shown as a line of the chunk.
    const inline =
      this.units.length > 0 &&
      level > this.topLevel &&
      this.unitTokens < this.budget / 2 &&
      this.unitTokens + 1 + headingTokens <= this.room()
    if (!inline) this.flush(false)
    this.path = this.path.filter((heading) => heading.level < level)
    this.path.push({ level, text: headingText, page: block.page })
    this.covered = false
    if (inline) {
      this.push({
        text: headingText,
        tokens: headingTokens,
        firstPage: block.page,
        lastPage: block.page,
        joinBefore: '\n',
        heading: true,
      })
    }
  }

  private paragraph(block: ParagraphBlock): void {
    const text = cleanText(block.text)
    if (!text) return
    this.locate(block.page, block.sheet)
    if (this.units.length === 0) this.startChunk(block.page)
    // Measured against this chunk's room; push re-cuts a piece if a flush changes the prefix.
    const room = this.room()
    const tokens = measure(text, room)
    const unit = { firstPage: block.page, lastPage: block.page, heading: false }
    if (tokens <= room) {
      this.push({ ...unit, text, tokens, joinBefore: '\n' })
      return
    }
    let first = true
    for (const piece of splitToBudget(text, room)) {
      this.push({ ...unit, ...piece, joinBefore: first ? '\n' : ' ' })
      first = false
    }
  }

  /** Ends the current chunk where the page or sheet changes, unless it is still small. */
  private locate(page: number | undefined, sheet: string | undefined): void {
    if (this.units.length === 0) {
      this.sheet = sheet
      return
    }
    if (sheet !== this.sheet) {
      this.flush(false)
      this.sheet = sheet
      return
    }
    const lastPage = this.units[this.units.length - 1]?.lastPage
    if (page !== undefined && lastPage !== undefined && page !== lastPage && this.unitTokens >= this.minChunk) {
      this.flush(false)
    }
  }

  private push(unit: Unit): void {
    if (this.units.length === 0) this.startChunk(unit.firstPage)
    const room = this.room()
    if (unit.tokens > room) {
      // Only when a flush changed the prefix since the unit was measured.
      let first = true
      for (const piece of splitToBudget(unit.text, room)) {
        this.push({ ...unit, ...piece, joinBefore: first ? unit.joinBefore : ' ' })
        first = false
      }
      return
    }
    if (this.units.length > 0 && this.unitTokens + 1 + unit.tokens > room) {
      this.flush(true, unit.tokens)
      this.push(unit)
      return
    }
    this.unitTokens += (this.units.length > 0 ? 1 : 0) + unit.tokens
    this.units.push(unit)
    this.covered = true
  }

  /**
   * Emits the pending prose. `continued` means the section goes on (the budget is full): the next
   * chunk then starts with the end of this one (the overlap) when the next `nextTokens` leave room.
   */
  private flush(continued: boolean, nextTokens = 0): void {
    if (continued) {
      // Trailing sub-headings are in the path, so the next chunk's prefix carries them.
      while (this.units.length > 1 && this.units[this.units.length - 1]?.heading) this.units.pop()
    }
    const { chunks, last: emitted } = proseChunks(this.units, {
      prefix: this.prefix,
      prefixTokens: this.prefixTokens,
      budget: this.budget,
      sheet: this.sheet,
    })
    for (const chunk of chunks) this.chunks.push(chunk)
    this.units = []
    this.unitTokens = 0
    this.chunks.push(...this.deferred)
    this.deferred = []
    if (!continued || emitted.length === 0) return
    const tail = overlapOf(emitted, this.overlap)
    if (!tail) return
    this.startChunk(tail.firstPage)
    // The overlap never pushes the content that follows it out of the chunk.
    if (tail.tokens + 1 + nextTokens <= this.room()) this.push(tail)
  }

  /** A chunk for a heading that has no content of its own: its path. */
  private title(): void {
    const text = this.pathText()
    this.covered = true
    if (!text) return
    const page = this.path[this.path.length - 1]?.page
    this.chunks.push({
      category: 'title',
      text,
      tokens: countTokens(text),
      pageNumber: page !== undefined ? String(page) : null,
      rowIdx: null,
    })
  }

  /** A table's chunks one by one: a million-row table is never held as chunks all at once. */
  private *table(block: TableBlock): Generator<Located> {
    this.flush(false)
    yield* this.chunks.splice(0)
    for (const chunk of tableChunks(block, this.pathText(block.page) || (block.sheet ?? ''), this.budget)) {
      this.covered = true
      yield chunk
    }
  }

  /** An image's chunks: after the pending prose when there is some, which surrounds the image. */
  private image(block: ImageBlock): void {
    const chunks = imageChunks(block, this.pathText(block.page), this.budget)
    if (chunks.length === 0) return
    const target = this.units.length ? this.deferred : this.chunks
    for (const chunk of chunks) target.push(chunk)
    this.covered = true
  }
}
