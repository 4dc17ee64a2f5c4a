import type { PDFPageProxy } from 'unpdf/pdfjs'
import type { ParagraphBlock } from '../model.js'
import { pdfOps } from './pdf-runtime.js'
import { joinLines } from './text-blocks.js'

/** Annotation types whose appearance never carries document text. */
const TEXTLESS = new Set(['Link', 'Popup'])
/** A horizontal gap wider than this share of the font size between two runs is a word space. */
const SPACE_GAP = 0.25
/** A TJ adjustment more negative than this (thousandths of an em) is a word space. */
const SPACED_KERN = -250

interface Glyph {
  readonly unicode?: string
  readonly width?: number
}

interface AnnotationText {
  readonly rect: readonly number[]
  readonly text: string
}

/**
 * Text drawn only by a page's annotation appearances: filled-in form fields, push-button captions,
 * free-text notes and stamps. pdf.js's text layer leaves them out, but they are printed on the page
 * (`pdftotext` reads them), so they are read as paragraphs — one per annotation, top to bottom,
 * after the page's own text. pdf.js skips hidden and no-view annotations itself. The operator list
 * (the same one `pageImages` uses, so it is built once) is only asked for when the page has an
 * annotation with an appearance that can hold text.
 */
export async function annotationParagraphs(page: PDFPageProxy, pageNumber: number): Promise<ParagraphBlock[]> {
  const annotations = (await page.getAnnotations()) as { subtype?: string; hasAppearance?: boolean }[]
  if (!annotations.some((a) => a.hasAppearance && !TEXTLESS.has(a.subtype ?? ''))) return []
  const ops = await pdfOps()
  const list = await page.getOperatorList()
  const found: AnnotationText[] = []
  let current: { rect: readonly number[]; lines: string[] } | null = null
  // Text-space position, enough to tell word gaps and new lines apart (no full matrix needed).
  let size = 1
  let lineX = 0
  let x = 0
  let depth = 0
  for (let i = 0; i < list.fnArray.length; i++) {
    const fn = list.fnArray[i]
    const args: unknown[] = list.argsArray[i] ?? []
    if (fn === ops.beginAnnotation) {
      if (depth++ === 0) current = { rect: Array.isArray(args[1]) ? (args[1] as number[]) : [0, 0, 0, 0], lines: [''] }
      continue
    }
    if (fn === ops.endAnnotation) {
      if (--depth === 0 && current) {
        const text = joinLines(current.lines)
        if (text) found.push({ rect: current.rect, text })
        current = null
      }
      continue
    }
    if (!current) continue
    if (fn === ops.setFont && typeof args[1] === 'number') size = Math.abs(args[1]) || 1
    else if (fn === ops.beginText || fn === ops.setTextMatrix || fn === ops.nextLine) {
      lineX = 0
      x = 0
      newLine(current.lines)
    } else if (fn === ops.moveText || fn === ops.setLeadingMoveText) {
      const [tx = 0, ty = 0] = args as number[]
      lineX += tx
      if (ty !== 0) newLine(current.lines)
      else if (lineX - x > size * SPACE_GAP) append(current.lines, ' ')
      x = lineX
    } else if (fn === ops.showText && Array.isArray(args[0])) {
      for (const item of args[0] as (Glyph | number | null)[]) {
        if (typeof item === 'number') {
          if (item < SPACED_KERN) append(current.lines, ' ')
          x -= (item / 1000) * size
        } else if (item) {
          append(current.lines, item.unicode ?? '')
          x += ((item.width ?? 0) / 1000) * size
        }
      }
    }
  }
  found.sort((a, b) => (b.rect[3] ?? 0) - (a.rect[3] ?? 0) || (a.rect[0] ?? 0) - (b.rect[0] ?? 0))
  return found.map(({ text }) => ({ kind: 'paragraph', text, page: pageNumber }))
}

function newLine(lines: string[]): void {
  if (lines.at(-1) !== '') lines.push('')
}

function append(lines: string[], text: string): void {
  lines[lines.length - 1] = `${lines.at(-1) ?? ''}${text}`
}
