import { oneLine } from '../../lib/whitespace.js'
import type { ImageBlock, ParagraphBlock, TableBlock } from '../model.js'

/**
 * Joins lines of running text into one string: a word hyphenated at a line end is rejoined
 * ("infor-" + "mation"), other lines are joined by a space; whitespace is collapsed.
 */
export function joinLines(lines: readonly string[]): string {
  let text = ''
  for (const raw of lines) {
    const line = oneLine(raw)
    if (!line) continue
    if (!text) text = line
    else if (/\p{L}-$/u.test(text) && /^\p{Ll}/u.test(line)) text = text.slice(0, -1) + line
    else text = `${text} ${line}`
  }
  return text
}

/** Splits text (OCR output, plain text) into paragraphs at blank lines, on `page` when given. */
export function paragraphBlocks(text: string, page?: number): ParagraphBlock[] {
  return text
    .split(/\n\s*\n/u)
    .map((part) => joinLines(part.split('\n')))
    .filter((paragraph) => paragraph.length > 0)
    .map((paragraph) =>
      page === undefined ? { kind: 'paragraph', text: paragraph } : { kind: 'paragraph', text: paragraph, page },
    )
}

/** One image block holding OCR text, its paragraphs separated by blank lines. */
export function imageBlock(imageId: string, text: string, page?: number): ImageBlock | null {
  const body = paragraphBlocks(text)
    .map((p) => p.text)
    .join('\n\n')
  if (!body) return null
  return page === undefined ? { kind: 'image', imageId, text: body } : { kind: 'image', imageId, text: body, page }
}

/**
 * A table of a document's own markup (Word, OpenDocument): the first non-empty row is its header,
 * unless it is the only row. Null without rows.
 */
export function tableOfCells(rows: readonly string[][]): TableBlock | null {
  const [first, ...rest] = rows
  if (!first) return null
  if (rest.length === 0) return { kind: 'table', header: null, rows: [{ rowNumber: 1, cells: first }] }
  return { kind: 'table', header: first, rows: rest.map((cells, i) => ({ rowNumber: i + 2, cells })) }
}
