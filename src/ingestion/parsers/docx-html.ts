import { load } from 'cheerio'
import type { Block } from '../model.js'
import type { DomNode } from './dom-node.js'
import { imageBlock, joinLines, tableOfCells } from './text-blocks.js'

/** `src` of an `<img>` standing for an embedded image → its OCR text. */
export type ImageTexts = ReadonlyMap<string, { readonly imageId: string; readonly text: string }>

const HEADING = /^h([1-6])$/

/**
 * Mammoth's HTML as blocks, in document order: `h1`–`h6` headings with their level, paragraphs,
 * list items as paragraphs (nested lists after their item), tables with the first row as header,
 * and OCR'd images as image blocks right after the block that holds them.
 */
export function docxHtmlBlocks(html: string, images: ImageTexts): Block[] {
  const $ = load(html)
  const root = $.root()[0] as unknown as DomNode
  const blocks: Block[] = []
  for (const node of root.children ?? []) walk(node, blocks, images)
  return blocks
}

function walk(node: DomNode, blocks: Block[], images: ImageTexts): void {
  if (node.type === 'text') {
    const text = joinLines([node.data ?? ''])
    if (text) blocks.push({ kind: 'paragraph', text })
    return
  }
  if (node.type !== 'tag') return
  const name = node.name ?? ''
  const heading = HEADING.exec(name)
  if (heading) {
    const text = textOf(node)
    if (text) blocks.push({ kind: 'heading', level: Number(heading[1]), text })
  } else if (name === 'ul' || name === 'ol') {
    for (const item of node.children ?? []) {
      if (item.type !== 'tag' || item.name !== 'li') continue
      const text = textOf(item, true)
      if (text) blocks.push({ kind: 'paragraph', text })
      for (const child of item.children ?? []) {
        if (child.type === 'tag' && (child.name === 'ul' || child.name === 'ol')) walk(child, blocks, images)
      }
    }
  } else if (name === 'table') {
    const table = tableOf(node)
    if (table) blocks.push(table)
  } else if (name === 'html' || name === 'body' || name === 'head') {
    for (const child of node.children ?? []) walk(child, blocks, images)
    return
  } else {
    const text = textOf(node)
    if (text) blocks.push({ kind: 'paragraph', text })
  }
  for (const src of imageSources(node)) {
    const image = images.get(src)
    const block = image ? imageBlock(image.imageId, image.text) : null
    if (block) blocks.push(block)
  }
}

function tableOf(table: DomNode): Block | null {
  const rows = rowsOf(table)
    .map((row) => (row.children ?? []).filter((c) => c.type === 'tag' && (c.name === 'td' || c.name === 'th')))
    .map((cells) => cells.map((cell) => textOf(cell)))
    .filter((cells) => cells.some((cell) => cell.length > 0))
  return tableOfCells(rows)
}

/** The table's own rows (thead, tbody, tfoot or direct), not those of tables nested in cells. */
function rowsOf(table: DomNode): DomNode[] {
  const rows: DomNode[] = []
  for (const child of table.children ?? []) {
    if (child.type !== 'tag') continue
    if (child.name === 'tr') rows.push(child)
    else if (child.name === 'thead' || child.name === 'tbody' || child.name === 'tfoot') {
      rows.push(...(child.children ?? []).filter((r) => r.type === 'tag' && r.name === 'tr'))
    }
  }
  return rows
}

/** Visible text with block boundaries and `<br>` as spaces; `skipLists` leaves nested lists out. */
function textOf(node: DomNode, skipLists = false): string {
  const parts: string[] = []
  const visit = (n: DomNode) => {
    if (n.type === 'text') parts.push(n.data ?? '')
    else if (n.type === 'tag') {
      if (skipLists && (n.name === 'ul' || n.name === 'ol')) return
      if (n.name === 'br' || n.name === 'p' || n.name === 'li') parts.push('\n')
      for (const child of n.children ?? []) visit(child)
    }
  }
  for (const child of node.children ?? []) visit(child)
  return joinLines(parts.join('').split('\n'))
}

function imageSources(node: DomNode): string[] {
  const found: string[] = []
  const visit = (n: DomNode) => {
    if (n.type !== 'tag') return
    if (n.name === 'img' && n.attribs?.src) found.push(n.attribs.src)
    for (const child of n.children ?? []) visit(child)
  }
  visit(node)
  return found
}
