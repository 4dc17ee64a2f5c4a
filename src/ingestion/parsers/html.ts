import { readFile } from 'node:fs/promises'
import { load } from 'cheerio'
import { decodeText } from '../detection/text-decoding.js'
import type { Block, ParsedDocument, Parser, TableBlock } from '../model.js'
import type { DomNode } from './dom-node.js'
import { toIngestError } from './failures.js'
import { HTML_TYPES } from './formats.js'
import { detectHeader, kindOfText } from './table-builder.js'
import { splitUnit } from './table-units.js'
import { paragraphBlocks } from './text.js'

const SKIPPED = new Set([
  'script',
  'style',
  'nav',
  'footer',
  'aside',
  'noscript',
  'template',
  'head',
  'svg',
  'math',
  'iframe',
  'object',
  'embed',
  'canvas',
  'select',
  'textarea',
  'input',
  'button',
])
const BLOCKS = new Set([
  'address',
  'article',
  'blockquote',
  'body',
  'caption',
  'center',
  'dd',
  'details',
  'dialog',
  'div',
  'dl',
  'dt',
  'fieldset',
  'figcaption',
  'figure',
  'form',
  'header',
  'hgroup',
  'hr',
  'html',
  'legend',
  'li',
  'main',
  'menu',
  'ol',
  'p',
  'section',
  'summary',
  'table',
  'tbody',
  'td',
  'tfoot',
  'th',
  'thead',
  'tr',
  'ul',
])
const HEADING = /^h([1-6])$/
const SECTIONS = new Set(['thead', 'tbody', 'tfoot'])

const children = (node: DomNode): readonly DomNode[] => node.children ?? []
const isElement = (node: DomNode): boolean => node.type === 'tag' || node.type === 'script' || node.type === 'style'
const isHidden = (node: DomNode): boolean =>
  node.attribs?.hidden !== undefined ||
  node.attribs?.['aria-hidden'] === 'true' ||
  /display\s*:\s*none/i.test(node.attribs?.style ?? '')

/** Collapses runs of spaces; keeps the line breaks `<br>` produced. */
function tidy(raw: string): string {
  return raw
    .split('\n')
    .map((line) => line.replace(/[\s\u00a0]+/g, ' ').trim())
    .filter(Boolean)
    .join('\n')
}

/** Text of an element and its descendants, skipping what the walker skips; `<br>` as a line break. */
function inlineText(node: DomNode, out: string[], pre = false): void {
  for (const child of children(node)) {
    if (child.type === 'text') out.push(pre ? (child.data ?? '') : (child.data ?? '').replace(/\s+/g, ' '))
    else if (isElement(child) && child.name && !SKIPPED.has(child.name) && !isHidden(child)) {
      if (child.name === 'br') out.push('\n')
      else {
        const block = BLOCKS.has(child.name) || HEADING.test(child.name)
        if (block) out.push('\n')
        inlineText(child, out, pre || child.name === 'pre')
        if (block) out.push('\n')
      }
    }
  }
}

function textOf(node: DomNode): string {
  const out: string[] = []
  inlineText(node, out)
  return tidy(out.join(''))
}

/** The rows of a table, not descending into nested tables. */
function tableRows(table: DomNode): DomNode[] {
  const rows: DomNode[] = []
  for (const child of children(table)) {
    if (child.name === 'tr') rows.push(child)
    else if (child.name && SECTIONS.has(child.name)) rows.push(...children(child).filter((row) => row.name === 'tr'))
  }
  return rows
}

function rowCells(row: DomNode): { texts: string[]; allHeaders: boolean } {
  const texts: string[] = []
  let allHeaders = true
  for (const cell of children(row)) {
    if (cell.name !== 'td' && cell.name !== 'th') continue
    if (cell.name === 'td') allHeaders = false
    texts.push(textOf(cell).replace(/\n/g, ' '))
    const span = Math.min(Number(cell.attribs?.colspan ?? '1') || 1, 100)
    for (let i = 1; i < span; i++) texts.push('')
  }
  return { texts, allHeaders: allHeaders && texts.length > 0 }
}

/** A data table (several rows and columns, no nested table) as a table block; null for layout tables. */
function tableBlock(table: DomNode): TableBlock | null {
  const hasNestedTable = (node: DomNode): boolean =>
    children(node).some((child) => child.name === 'table' || hasNestedTable(child))
  if (hasNestedTable(table)) return null
  const rows = tableRows(table).map(rowCells)
  if (rows.length < 2 || Math.max(...rows.map((row) => row.texts.length)) < 2) return null
  const inThead = children(table).some((child) => child.name === 'thead')
  const first = rows[0]
  const header =
    first && (first.allHeaders || inThead)
      ? true
      : detectHeader(rows.slice(0, 20).map((row) => row.texts.map((text) => ({ text, kind: kindOfText(text) }))))
  const width = Math.max(...rows.map((row) => row.texts.length))
  const padded = rows.map((row) => [...row.texts, ...Array<string>(width - row.texts.length).fill('')])
  const body = padded
    .map((cells, i) => ({ rowNumber: i + 1, cells }))
    .slice(header ? 1 : 0)
    .filter((row) => row.cells.some((cell) => cell !== ''))
  return { kind: 'table', header: header ? (padded[0] ?? null) : null, rows: body }
}

/** A table's `<caption>` as its title, and the unit when the caption ends with one ("(in thousands)"). */
function captionFields(caption: DomNode | undefined): { title?: string; unit?: string } {
  const text = caption ? textOf(caption).replace(/\s+/g, ' ').trim() : ''
  if (!text) return {}
  const split = splitUnit(text)
  if (!split) return { title: text }
  return split.rest ? { title: split.rest, unit: split.unit } : { unit: split.unit }
}

/** Walks the document in order, turning headings, paragraphs, list items and tables into blocks. */
class Walker {
  readonly blocks: Block[] = []
  private buffer: string[] = []

  flush(): void {
    const text = tidy(this.buffer.join(''))
    this.buffer = []
    if (text) this.blocks.push(...paragraphBlocks(text))
  }

  walk(node: DomNode): void {
    for (const child of children(node)) {
      if (child.type === 'text') {
        this.buffer.push((child.data ?? '').replace(/\s+/g, ' '))
        continue
      }
      if (!isElement(child) || !child.name || SKIPPED.has(child.name) || isHidden(child)) continue
      const name = child.name
      const heading = HEADING.exec(name)
      if (heading) {
        this.flush()
        const text = textOf(child).replace(/\n/g, ' ')
        if (text) this.blocks.push({ kind: 'heading', level: Number(heading[1]), text })
      } else if (name === 'br') {
        this.buffer.push('\n')
      } else if (name === 'pre') {
        this.flush()
        const out: string[] = []
        inlineText(child, out, true)
        const text = out
          .join('')
          .split('\n')
          .map((line) => line.trimEnd())
          .join('\n')
          .trim()
        if (text) this.blocks.push(...paragraphBlocks(text))
      } else if (name === 'table') {
        this.flush()
        const table = tableBlock(child)
        if (table) {
          const caption = children(child).find((c) => c.name === 'caption')
          if (table.header || table.rows.length > 0) this.blocks.push({ ...table, ...captionFields(caption) })
        } else {
          this.walk(child)
          this.flush()
        }
      } else if (BLOCKS.has(name)) {
        this.flush()
        this.walk(child)
        this.flush()
      } else {
        this.walk(child)
      }
    }
  }
}

/** Blocks and `<title>` (else the first h1) of an HTML string. */
export function htmlToBlocks(html: string): { blocks: Block[]; title?: string } {
  const $ = load(html)
  const root = $.root()[0] as unknown as DomNode
  const walker = new Walker()
  walker.walk(root)
  walker.flush()
  const title =
    $('title').first().text().replace(/\s+/g, ' ').trim() ||
    walker.blocks.filter((block) => block.kind === 'heading').find((block) => block.level === 1)?.text
  return title ? { blocks: walker.blocks, title } : { blocks: walker.blocks }
}

/** The charset an HTML file declares in its first bytes (`<meta charset>`, http-equiv, XML declaration). */
export function declaredHtmlCharset(bytes: Uint8Array): string | null {
  const head = Buffer.from(bytes.subarray(0, 4096)).toString('latin1')
  const meta = /<meta[^>]*?charset\s*=\s*["']?\s*([A-Za-z0-9._:-]+)/i.exec(head)
  if (meta?.[1]) return meta[1]
  return /^<\?xml[^>]*encoding\s*=\s*["']([A-Za-z0-9._-]+)["']/.exec(head)?.[1] ?? null
}

/**
 * HTML and XHTML: decoded with the declared charset (unless the bytes are a BOM'd or valid UTF-8
 * text), scripts, styles, navigation, footers, asides and hidden elements dropped; headings as
 * heading blocks, paragraphs and list items as paragraphs, data tables as table blocks (header
 * from `<th>`/`<thead>`, else detected; rows numbered within the table, header = row 1).
 */
export const htmlParser: Parser = {
  mimeTypes: HTML_TYPES,
  async parse(input): Promise<ParsedDocument> {
    try {
      const bytes = await readFile(input.path)
      const html = decodeText(bytes, { declaredCharset: declaredHtmlCharset(bytes) })
      const { blocks, title } = htmlToBlocks(html)
      input.progress(1, 1)
      return title
        ? { blocks, pageCount: 1, title, documentType: 'text' }
        : { blocks, pageCount: 1, documentType: 'text' }
    } catch (error) {
      throw toIngestError('HTML', error)
    }
  },
}
