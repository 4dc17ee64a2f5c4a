import { oneLine } from '../../lib/whitespace.js'
import type { ImageBlock, ParagraphBlock } from '../model.js'

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
