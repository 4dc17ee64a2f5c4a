import type { FontProfile, Furniture, PdfLine } from './pdf-lines.js'
import { isUnitPhrase, splitUnit } from './table-units.js'

/**
 * The title of a PDF table: the short heading or lines right above it ("CONSOLIDATED STATEMENTS OF
 * INCOME", "The components of lease expense were as follows (in millions):"), and the unit line
 * among them.
 */

/** Where a table is on its page, and what its title must not be taken from. */
export interface TitleSearch {
  readonly lines: readonly PdfLine[]
  /** Lines that are already part of a table (this one or another). */
  readonly taken: (index: number) => boolean
  /** Baseline of the table's highest line (header or first row). */
  readonly top: number
  readonly size: number
  readonly left: number
  readonly right: number
  readonly turns: number
}

export interface FoundTitle {
  readonly title?: string
  readonly unit?: string
  /** Lines that are the title and no longer prose (heading-size titles stay headings). */
  readonly lines: readonly number[]
}

/** The title's last line is at most this many font sizes above the table. */
const MAX_TITLE_GAP = 5
/** Lines of one paragraph are set this close (in font sizes). */
const MAX_LINE_GAP = 1.8
/** A title is a short paragraph: at most this many lines and characters. */
const MAX_TITLE_LINES = 4
const MAX_TITLE_CHARS = 250
/** How far up a longer lead-in paragraph is read for its last sentence. */
const MAX_LEAD_IN_LINES = 12

/**
 * The title right above a table. The paragraph nearest above (its last line at most MAX_TITLE_GAP
 * font sizes up, its lines set close together, one cell each, alone at their height and not
 * running heads) is the title when it is short and reads as one: a lead-in ending with a colon,
 * lines that end no sentence, or lines centred over the table; body-size title lines leave the
 * prose, heading-size ones stay headings (the chunk's heading path shows them) and name the table.
 * A longer paragraph ending with a colon gives its last sentence as the title and stays prose. A
 * unit phrase among the lines (a line, or in parentheses) is the unit.
 */
export function titleAbove(search: TitleSearch, fonts: FontProfile, furniture: Furniture): FoundTitle {
  const paragraph = paragraphAbove(search, fonts, furniture)
  const texts = paragraph.map(({ line }) => line.cells.join(' '))
  if (texts.length === 0) return { lines: [] }
  const last = texts.at(-1) as string
  const heading = fonts.headingLevel((paragraph[0] as { line: PdfLine }).line.size) !== null
  const short = texts.length <= MAX_TITLE_LINES && texts.join(' ').length <= MAX_TITLE_CHARS
  if (!short) {
    if (!/[:：]$/u.test(last)) return { lines: [] }
    const sentence = lastSentence(texts.join(' '))
    const split = splitUnit(sentence)
    const title = split ? split.rest : sentence
    return { ...(title.length <= MAX_TITLE_CHARS ? { title } : {}), ...(split ? { unit: split.unit } : {}), lines: [] }
  }
  const width = search.right - search.left
  const centred = paragraph.every(({ line }) => {
    const [left, right] = [line.x, lineRight(line)]
    return right - left < width * 0.75 && Math.abs((left + right) / 2 - (search.left + search.right) / 2) < width * 0.1
  })
  // A lead-in ends with a colon; a title ends no sentence, nor a clause of a list.
  const titleLike = heading || /[:：]$/u.test(last) || centred || !(texts.some(endsSentence) || /[;,]$/u.test(last))
  if (!titleLike) return { lines: [] }
  let unit: string | undefined
  const kept: string[] = []
  for (const text of texts) {
    if (unit === undefined && isUnitPhrase(text)) unit = text.replace(/\s*[:：.]$/u, '')
    else kept.push(text)
  }
  let title = kept.join(' ')
  if (unit === undefined) {
    const split = splitUnit(title)
    if (split) [title, unit] = [split.rest, split.unit]
  }
  return {
    ...(title ? { title } : {}),
    ...(unit ? { unit } : {}),
    lines: heading ? [] : paragraph.map(({ index }) => index),
  }
}

/** The lines of the paragraph right above the table, top first (at most MAX_LEAD_IN_LINES). */
function paragraphAbove(
  search: TitleSearch,
  fonts: FontProfile,
  furniture: Furniture,
): { line: PdfLine; index: number }[] {
  const { lines, size, top } = search
  const above = lines
    .map((line, index) => ({ line, index }))
    .filter(
      ({ line, index }) =>
        !search.taken(index) &&
        line.turns === search.turns &&
        line.y > top + size * 0.5 &&
        lineRight(line) > search.left &&
        line.x < search.right,
    )
    .sort((a, b) => a.line.y - b.line.y)
  const chosen: { line: PdfLine; index: number }[] = []
  let below = top
  for (let k = 0; k < above.length && chosen.length < MAX_LEAD_IN_LINES; k++) {
    const { line } = above[k] as { line: PdfLine; index: number }
    const limit = chosen.length === 0 ? size * MAX_TITLE_GAP : Math.max(line.size, size) * MAX_LINE_GAP
    if (line.y - below > limit) break
    // A line with company at its height (another column of text) is no title.
    const beside = above[k + 1]
    // A title line is one cell, or two when the second is its unit ("Segment Information" "(in millions)").
    const cells = line.cells.length === 1 || (line.cells.length === 2 && isUnitPhrase(line.cells[1] as string))
    if (!cells || (beside && Math.abs(beside.line.y - line.y) < size * 0.4) || furniture(line)) break
    const previous = chosen.at(-1)?.line
    if (
      previous &&
      ((fonts.headingLevel(line.size) !== null) !== (fonts.headingLevel(previous.size) !== null) ||
        Math.abs(previous.size - line.size) > size * 0.15)
    )
      break
    chosen.push(above[k] as { line: PdfLine; index: number })
    below = line.y
  }
  return chosen.reverse()
}

/** Whether a line ends a sentence (not an abbreviation such as "Inc." or "U.S."). */
function endsSentence(text: string): boolean {
  if (!/[.!?。]["'”’)]?$/u.test(text)) return false
  return !/(?:\b\p{Lu}[\p{L}]{0,3}\.|\b(?:\p{L}\.){2,})$/u.test(text)
}

/** The last sentence of a paragraph. */
function lastSentence(text: string): string {
  const starts = [...text.matchAll(/(?<!\b\p{Lu})[.!?。]["'”’)]?\s+(?=["“‘(]?\p{Lu})/gu)]
  const cut = starts.at(-1)
  return cut ? text.slice((cut.index ?? 0) + cut[0].length) : text
}

function lineRight(line: PdfLine): number {
  return line.spans.at(-1)?.right ?? line.x
}
