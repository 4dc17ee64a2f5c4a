import type { Block } from '../model.js'
import { type ChartText, chartBlocks } from './pptx-charts.js'
import { imageBlock, joinLines, tableOfCells } from './text-blocks.js'

/** The parts of an officeparser 7.8 AST node the conversion reads. */
export interface AstNode {
  readonly type: string
  readonly text?: string
  readonly children?: readonly AstNode[]
  readonly notes?: readonly AstNode[]
  readonly metadata?: {
    readonly level?: number
    readonly slideNumber?: number
    readonly attachmentName?: string
  }
}

/** OCR text of the document's image attachments, by attachment name. */
export type AttachmentTexts = ReadonlyMap<string, string>

/** Nodes that are layout or annotations, not document content. */
const SKIPPED = new Set(['header', 'footer', 'comment', 'slideMaster', 'break', 'embed'])
const TEXT_LIKE = new Set(['paragraph', 'list', 'text', 'code', 'definitionTerm', 'definitionDescription'])

/**
 * An officeparser AST as blocks in document order. Slides set `page` to their slide number and
 * are followed by their speaker notes (as paragraphs on the same slide, without the notes page's
 * slide-number field); headings keep their level; tables take their first row as header; images
 * with OCR text become image blocks (`p<slide>-img<n>` on slides, `img<n>` elsewhere); charts
 * whose part was read (`charts`, by file name) become their title and a table (pptx-charts.ts).
 */
export function astBlocks(
  content: readonly AstNode[],
  images: AttachmentTexts,
  charts: ReadonlyMap<string, ChartText> = new Map(),
): Block[] {
  const out: Block[] = []
  const counter = { images: 0, charts }
  for (const node of content) convert(node, undefined, out, images, counter)
  return out
}

/** The file names of the chart parts the AST's chart nodes reference (`chart1.xml`…). */
export function chartNames(content: readonly AstNode[]): Set<string> {
  const names = new Set<string>()
  const visit = (node: AstNode) => {
    const name = node.metadata?.attachmentName
    if (node.type === 'chart' && name) names.add(name)
    for (const child of node.children ?? []) visit(child)
  }
  for (const node of content) visit(node)
  return names
}

/** Slides (and ODP pages) in the AST: its page count for presentations. */
export function slideCount(content: readonly AstNode[]): number {
  return content.filter((node) => node.type === 'slide').length
}

interface Counter {
  images: number
  /** Chart texts by part file name (PPTX), read outside officeparser. */
  readonly charts: ReadonlyMap<string, ChartText>
}

function convert(node: AstNode, page: number | undefined, out: Block[], images: AttachmentTexts, counter: Counter) {
  if (SKIPPED.has(node.type)) return
  const at = page === undefined ? {} : { page }
  if (node.type === 'slide') {
    const slide = node.metadata?.slideNumber ?? page
    const slideCounter = { images: 0, charts: counter.charts }
    for (const child of node.children ?? []) convert(child, slide, out, images, slideCounter)
    for (const note of node.notes ?? []) {
      for (const paragraph of flatten(note)) {
        const text = textOf(paragraph)
        if (text && text !== String(slide)) out.push({ kind: 'paragraph', text, ...(slide ? { page: slide } : {}) })
      }
    }
    return
  }
  if (node.type === 'heading') {
    const text = textOf(node)
    if (text) out.push({ kind: 'heading', level: clampLevel(node.metadata?.level), text, ...at })
  } else if (node.type === 'table') {
    const table = tableOf(node)
    if (table) out.push({ ...table, ...at })
    return
  } else if (node.type === 'chart') {
    const chart = counter.charts.get(node.metadata?.attachmentName ?? '')
    if (chart) out.push(...chartBlocks(chart, page))
    return
  } else if (node.type === 'image') {
    const name = node.metadata?.attachmentName
    const text = name ? images.get(name) : undefined
    if (text) {
      counter.images++
      const id = page === undefined ? `img${counter.images}` : `p${page}-img${counter.images}`
      const block = imageBlock(id, text, page)
      if (block) out.push(block)
    }
    return
  } else if (TEXT_LIKE.has(node.type) || (node.text && !node.children?.length)) {
    const text = textOf(node)
    if (text) out.push({ kind: 'paragraph', text, ...at })
  } else {
    for (const child of node.children ?? []) convert(child, page, out, images, counter)
    for (const note of node.notes ?? []) convert(note, page, out, images, counter)
    return
  }
  // Images inside a paragraph or heading follow its text.
  for (const child of node.children ?? []) {
    if (child.type === 'image' || child.type === 'drawing') convert(child, page, out, images, counter)
  }
}

/** A notes node's paragraphs (notes may nest paragraphs in shapes). */
function flatten(node: AstNode): AstNode[] {
  if (TEXT_LIKE.has(node.type) || node.type === 'heading') return [node]
  return (node.children ?? []).flatMap(flatten)
}

function tableOf(node: AstNode): Block | null {
  const rows = (node.children ?? [])
    .filter((row) => row.type === 'row')
    .map((row) => (row.children ?? []).filter((cell) => cell.type === 'cell').map((cell) => textOf(cell)))
    .filter((cells) => cells.some((cell) => cell.length > 0))
  return tableOfCells(rows)
}

/** The node's text, else its descendants' text: lines of running text joined by spaces. */
function textOf(node: AstNode): string {
  if (typeof node.text === 'string' && node.text.trim()) return joinLines(node.text.split('\n'))
  const parts: string[] = []
  const visit = (n: AstNode) => {
    if (n.type === 'text' && n.text) parts.push(n.text)
    else for (const child of n.children ?? []) visit(child)
    if (TEXT_LIKE.has(n.type) && n.type !== 'text') parts.push('\n')
  }
  for (const child of node.children ?? []) visit(child)
  return joinLines(parts.join('').split('\n'))
}

function clampLevel(level: number | undefined): number {
  return Math.min(6, Math.max(1, Math.round(level ?? 1)))
}
