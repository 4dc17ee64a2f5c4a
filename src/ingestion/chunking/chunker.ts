import { cleanText, oneLine } from '../../lib/whitespace.js'
import type { Block, HeadingBlock, ImageBlock, ParagraphBlock, ParsedDocument, TableBlock } from '../model.js'
import type { ChunkDraft } from '../pipeline/pipeline-types.js'
import { chunkTable } from './tables.js'
import { measure, splitToBudget, tailWithin, truncateToTokens } from './text.js'
import { countTokens, endOf, endOfJoined, joinedTokens, startOf, startOfJoined } from './tokens.js'

/** Who the chunks belong to: what their metadata names. */
export interface ChunkingContext {
  readonly documentId: string
  /** `/hr/leave.pdf`: the metadata `source`. */
  readonly objectName: string
  readonly filename: string
  readonly mimeType: string
}

export interface ChunkingOptions {
  /** Largest chunk, in cl100k_base tokens, heading path included. */
  readonly chunkTokens: number
  /** Tokens of a prose chunk repeated at the start of the next one of the same section. */
  readonly overlapTokens: number
}

export const DEFAULT_CHUNKING: ChunkingOptions = { chunkTokens: 400, overlapTokens: 40 }

type Category = 'text' | 'title' | 'table' | 'image'

/** A run of prose: a paragraph, a sentence of a long one, or a sub-heading shown inline. */
interface Unit {
  readonly text: string
  readonly tokens: number
  readonly firstPage: number | undefined
  readonly lastPage: number | undefined
  /** How it is joined to the unit before it: sentences of one paragraph by a space. */
  readonly joinBefore: ' ' | '\n'
  readonly heading: boolean
}

/** The chunk body of some units (see Chunker.bodies): its tokens, and its ends for the next join. */
interface Body {
  readonly tokens: number | undefined
  /** startOf and endOf of the body's text. */
  readonly start: string
  readonly end: string
}

interface Heading {
  readonly level: number
  readonly text: string
  readonly page: number | undefined
}

interface Located {
  readonly category: Category
  readonly text: string
  readonly tokens: number
  readonly pageNumber: string | null
  readonly rowIdx: string | null
  readonly row?: number
  readonly imageId?: string
}

const PATH_SEPARATOR = ' > '

function range(first: number, last: number): string {
  return first === last ? String(first) : `${first}-${last}`
}

function pageRange(first: number | undefined, last: number | undefined): string | null {
  if (first === undefined || last === undefined) return null
  return range(Math.min(first, last), Math.max(first, last))
}

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
class Chunker {
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

  private pathText(): string {
    if (this.path.length === 0) return ''
    const full = this.path.map((heading) => heading.text).join(PATH_SEPARATOR)
    const limit = Math.floor(this.budget / 4)
    if (countTokens(full) <= limit) return full
    // A deep or verbose path would crowd out the content: keep its innermost heading only.
    return truncateToTokens(this.path[this.path.length - 1]?.text ?? '', limit)
  }

  /** Tokens available to the units of the current chunk, given its prefix. */
  private room(): number {
    // A line break after the prefix, and a small margin for token merges across joins.
    return Math.max(8, this.budget - (this.prefix ? this.prefixTokens + 1 : 0) - 2)
  }

  private startChunk(): void {
    this.prefix = this.pathText()
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
    if (this.units.length === 0) this.startChunk()
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
    if (this.units.length === 0) this.startChunk()
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
    const emitted = this.drain(this.units)
    this.units = []
    this.unitTokens = 0
    this.chunks.push(...this.deferred)
    this.deferred = []
    if (!continued || emitted.length === 0) return
    const tail = this.overlapFrom(emitted)
    if (!tail) return
    this.startChunk()
    // The overlap never pushes the content that follows it out of the chunk.
    if (tail.tokens + 1 + nextTokens <= this.room()) this.push(tail)
  }

  /** The last sentences (at most `overlap` tokens) of the prose just emitted, as one unit. */
  private overlapFrom(emitted: readonly Unit[]): Unit | undefined {
    if (this.overlap === 0) return undefined
    const used: Unit[] = []
    let tokens = 0
    for (let i = emitted.length - 1; i >= 0 && tokens < this.overlap; i--) {
      const unit = emitted[i] as Unit
      if (unit.heading) break
      used.unshift(unit)
      tokens += unit.tokens + 1
    }
    if (used.length === 0) return undefined
    const text = tailWithin(
      used.map((unit, index) => (index ? unit.joinBefore : '') + unit.text).join(''),
      this.overlap,
    )
    if (!text) return undefined
    return {
      text,
      tokens: countTokens(text),
      firstPage: used[used.length - 1]?.lastPage,
      lastPage: used[used.length - 1]?.lastPage,
      joinBefore: '\n',
      heading: false,
    }
  }

  /** Emits `units` as one or more chunks within the budget; returns the units of the last one. */
  private drain(units: Unit[]): Unit[] {
    let rest = units
    let last: Unit[] = []
    while (rest.length) {
      const bodies = this.bodies(rest)
      let count = rest.length
      let tokens = this.chunkTokens(rest, bodies, count)
      while (tokens > this.budget && count > 1) {
        count--
        tokens = this.chunkTokens(rest, bodies, count)
      }
      const group = rest.slice(0, count)
      rest = rest.slice(count)
      if (tokens > this.budget) {
        // One unit over by a merge or two: cut it finer.
        const only = group[0] as Unit
        const smaller = [...splitToBudget(only.text, Math.max(4, only.tokens - (tokens - this.budget) - 4))].map(
          (piece, index): Unit => ({ ...only, ...piece, joinBefore: index ? ' ' : only.joinBefore }),
        )
        if (smaller.length > 1) {
          rest = [...smaller, ...rest]
          continue
        }
      }
      const pages = group.filter((unit) => unit.firstPage !== undefined)
      const firstPage = Math.min(...pages.map((unit) => unit.firstPage as number))
      const lastPage = Math.max(...pages.map((unit) => unit.lastPage as number))
      this.chunks.push({
        category: group.every((unit) => unit.heading) ? 'title' : 'text',
        text: this.compose(group),
        tokens,
        pageNumber: pages.length ? pageRange(firstPage, lastPage) : (this.sheet ?? null),
        rowIdx: null,
      })
      last = group
    }
    return last
  }

  private compose(units: readonly Unit[]): string {
    const body = units.map((unit, index) => (index ? unit.joinBefore : '') + unit.text).join('')
    return this.prefix ? `${this.prefix}\n${body}` : body
  }

  /**
   * The bodies of chunks of the first 1, 2, … units: their tokens, each count from the one before
   * and the unit's own (see joinedTokens), and their ends, which is all later joins read; undefined
   * tokens once a join could not be decided there.
   */
  private bodies(units: readonly Unit[]): Body[] {
    const bodies: Body[] = []
    let previous: Body | undefined
    for (const unit of units) {
      const body: Body = previous
        ? {
            tokens:
              previous.tokens === undefined
                ? undefined
                : joinedTokens(previous.end, previous.tokens, unit.joinBefore, startOf(unit.text), unit.tokens),
            start: startOfJoined(previous.start, unit.joinBefore, unit.text),
            end: endOfJoined(previous.end, unit.joinBefore, unit.text),
          }
        : { tokens: unit.tokens, start: startOf(unit.text), end: endOf(unit.text) }
      bodies.push(body)
      previous = body
    }
    return bodies
  }

  /** Exact tokens of the chunk of the first `count` units (counted whole where a join was undecided). */
  private chunkTokens(units: readonly Unit[], bodies: readonly Body[], count: number): number {
    const body = bodies[count - 1] as Body
    const joined =
      body.tokens === undefined
        ? undefined
        : this.prefix
          ? joinedTokens(this.prefix, this.prefixTokens, '\n', body.start, body.tokens)
          : body.tokens
    return joined ?? countTokens(this.compose(units.slice(0, count)))
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
    const prefix = this.pathText() || (block.sheet ?? '')
    for (const chunk of chunkTable(block, prefix, this.budget)) {
      const rowIdx = range(chunk.firstRow, chunk.lastRow)
      this.covered = true
      yield {
        category: 'table',
        text: chunk.text,
        tokens: chunk.tokens,
        pageNumber: block.sheet !== undefined ? `${block.sheet}!${rowIdx}` : pageRange(block.page, block.page),
        rowIdx,
        row: chunk.firstRow,
      }
    }
  }

  private image(block: ImageBlock): void {
    const text = cleanText(block.text)
    if (!text) return
    const prefix = this.pathText()
    const prefixTokens = prefix ? countTokens(prefix) + 1 : 0
    const room = Math.max(8, this.budget - prefixTokens - 2)
    const pageNumber = block.sheet ?? pageRange(block.page, block.page)
    let pieces: string[] = []
    let used = 0
    const emit = (): void => {
      if (pieces.length === 0) return
      const chunkText = prefix ? `${prefix}\n${pieces.join(' ')}` : pieces.join(' ')
      ;(this.units.length ? this.deferred : this.chunks).push({
        category: 'image',
        text: chunkText,
        tokens: countTokens(chunkText),
        pageNumber,
        rowIdx: null,
        imageId: block.imageId,
      })
      this.covered = true
      pieces = []
      used = 0
    }
    for (const piece of splitToBudget(text, room)) {
      if (pieces.length && used + 1 + piece.tokens > room) emit()
      pieces.push(piece.text)
      used += (pieces.length > 1 ? 1 : 0) + piece.tokens
    }
    emit()
  }
}

/**
 * Cuts a parsed document into chunks of at most `chunkTokens` cl100k_base tokens that follow its
 * structure, in reading order (an image's chunks come right after the prose chunk around it):
 * - prose: paragraphs packed together under their heading path (`Leave policy > Annual leave`,
 *   the first line of the chunk); a new section at the document's section level always starts a
 *   new chunk, a short sub-section may stay with what precedes it (its heading as a line); long
 *   paragraphs are cut at sentence boundaries; consecutive chunks of one section share about
 *   `overlapTokens` tokens; a chunk ends at a page break unless it is still small, so
 *   `page_number` is a page (`"3"`) or, when it spans pages, a range (`"3-4"`);
 * - tables: rows grouped to the budget, the table's title and unit (one line) and its header row
 *   repeated at the top of every chunk, cells joined by ` | `, so that every row can be read and
 *   cited alone; `row_idx` holds the source rows (`"12"`, `"12-40"`) and, for spreadsheets,
 *   `page_number` is `<sheet>!<rows>` (`"Sales!12-40"`);
 * - images: their OCR text in chunks of their own with `image_id`.
 * Every chunk carries the spec 2.9 metadata for its kind.
 */
export function chunkDocument(
  parsed: ParsedDocument,
  context: ChunkingContext,
  options: ChunkingOptions = DEFAULT_CHUNKING,
): ChunkDraft[] {
  return [...chunksOf(parsed, context, options)]
}

/** The chunks of chunkDocument one at a time, as they are cut. */
export function* chunksOf(
  parsed: ParsedDocument,
  context: ChunkingContext,
  options: ChunkingOptions = DEFAULT_CHUNKING,
): Generator<ChunkDraft> {
  const chunker = new Chunker(parsed.blocks, options)
  let idx = 0
  for (const block of parsed.blocks) {
    for (const chunk of chunker.add(block)) yield draftOf(chunk, idx++, parsed, context)
  }
  for (const chunk of chunker.finish()) yield draftOf(chunk, idx++, parsed, context)
}

function draftOf(chunk: Located, idx: number, parsed: ParsedDocument, context: ChunkingContext): ChunkDraft {
  const metadata: Record<string, string | number | boolean> = {
    document_type: parsed.documentType,
    filename: context.filename,
    filetype: context.mimeType,
    category: chunk.category,
    idx,
  }
  if (chunk.pageNumber !== null) metadata.page_number = chunk.pageNumber
  if (chunk.imageId !== undefined) metadata.image_id = chunk.imageId
  if (chunk.row !== undefined) metadata.row = chunk.row
  metadata.source = context.objectName
  metadata.academy_file = false
  metadata.lantern_document_id = context.documentId
  return {
    idx,
    text: chunk.text,
    tokenCount: chunk.tokens,
    pageNumber: chunk.pageNumber,
    rowIdx: chunk.rowIdx,
    metadata,
  }
}
