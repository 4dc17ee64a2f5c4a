import { open } from 'node:fs/promises'
import { decodeFileStream, detectFileEncoding } from '../detection/text-decoding.js'
import { IngestError, ingestErrors } from '../errors.js'
import type { Block, ParagraphBlock, ParsedDocument, ParseInput, Parser } from '../model.js'
import { TEXT_TYPES } from './formats.js'
import { type XmlEvent, XmlScanner } from './xml-scan.js'

/** Paragraphs longer than this are split at line (or word) boundaries so no block is unbounded. */
const MAX_PARAGRAPH_CHARS = 20_000

// biome-ignore lint/suspicious/noControlCharactersInRegex: removing control characters is the point
const CONTROL_CHARACTERS = /[\u0000-\u0008\u000b\u000e-\u001f\u007f]/g

const XML_TYPES = new Set(['application/xml', 'text/xml'])

function paragraph(text: string): ParagraphBlock {
  return { kind: 'paragraph', text }
}

/** Cuts `text` before `limit` at the last newline, else the last space, else hard. */
function cutPoint(text: string, limit: number): number {
  const newline = text.lastIndexOf('\n', limit)
  if (newline > limit / 2) return newline + 1
  const space = text.lastIndexOf(' ', limit)
  return space > limit / 2 ? space + 1 : limit
}

/** Cleans a paragraph (trailing spaces, control characters) and splits it when it is too long. */
export function paragraphBlocks(raw: string): ParagraphBlock[] {
  let text = raw
    .replace(CONTROL_CHARACTERS, '')
    .replace(/[ \t]+\n/g, '\n')
    .trim()
  const blocks: ParagraphBlock[] = []
  while (text.length > MAX_PARAGRAPH_CHARS) {
    const cut = cutPoint(text, MAX_PARAGRAPH_CHARS)
    const head = text.slice(0, cut).trim()
    if (head) blocks.push(paragraph(head))
    text = text.slice(cut).trim()
  }
  if (text) blocks.push(paragraph(text))
  return blocks
}

/** Splits streamed text into paragraphs on blank lines (or form feeds) without holding the whole text. */
export class ParagraphSplitter {
  private carry = ''
  readonly blocks: Block[] = []

  write(piece: string): void {
    let text = this.carry + piece
    // A '\r' at the end may be the first half of '\r\n'.
    let held = ''
    if (text.endsWith('\r')) {
      held = '\r'
      text = text.slice(0, -1)
    }
    text = text.replace(/\r\n?/g, '\n').replace(/\f/g, '\n\n')
    const parts = text.split(/\n[ \t]*\n/)
    const last = parts.pop() ?? ''
    for (const part of parts) this.blocks.push(...paragraphBlocks(part))
    this.carry = last + held
    if (this.carry.length > MAX_PARAGRAPH_CHARS * 2) {
      const cut = cutPoint(this.carry, MAX_PARAGRAPH_CHARS)
      this.blocks.push(...paragraphBlocks(this.carry.slice(0, cut)))
      this.carry = this.carry.slice(cut)
    }
  }

  end(): Block[] {
    this.blocks.push(...paragraphBlocks(this.carry.replace(/\r\n?/g, '\n')))
    this.carry = ''
    return this.blocks
  }
}

interface Frame {
  /** Direct text and the text of leaf children, in order. */
  parts: string[]
  hasText: boolean
  hasChildren: boolean
}

const collapse = (text: string): string => text.replace(/\s+/g, ' ').trim()
/** Embedded binaries (base64 runs) carry no readable text. */
const isBase64Run = (line: string): boolean => line.length > 200 && /^[A-Za-z0-9+/=]+$/.test(line)

/**
 * Text content of an XML document. An element with text of its own (or no children) becomes one
 * line in its parent; an element holding only elements becomes a paragraph of its children's
 * lines. Attributes, comments, processing instructions and the DTD are dropped; no entity is
 * expanded beyond the predefined five.
 */
export class XmlTextCollector {
  private readonly scanner = new XmlScanner()
  private readonly stack: Frame[] = [{ parts: [], hasText: false, hasChildren: false }]
  readonly blocks: Block[] = []

  write(chunk: string): void {
    this.handle(this.scanner.write(chunk))
  }

  end(): Block[] {
    this.handle(this.scanner.end())
    while (this.stack.length > 1) this.close()
    const root = this.stack[0]
    if (root) this.flush(root)
    return this.blocks
  }

  private top(): Frame {
    const frame = this.stack[this.stack.length - 1]
    if (!frame) throw new Error('xml frame stack is empty')
    return frame
  }

  private handle(events: readonly XmlEvent[]): void {
    for (const event of events) {
      if (event.type === 'text') {
        const frame = this.top()
        frame.parts.push(event.text)
        if (event.text.trim()) frame.hasText = true
      } else if (event.type === 'open') {
        this.top().hasChildren = true
        this.stack.push({ parts: [], hasText: false, hasChildren: false })
      } else if (this.stack.length > 1) {
        this.close()
      }
    }
  }

  private close(): void {
    const frame = this.stack.pop()
    const parent = this.top()
    if (!frame) return
    if (frame.hasText || !frame.hasChildren) {
      const text = collapse(frame.parts.join(''))
      if (text && !isBase64Run(text.replace(/ /g, ''))) parent.parts.push(text)
      if (!parent.hasText && parent.parts.join('').length > MAX_PARAGRAPH_CHARS / 5) this.flush(parent)
    } else {
      this.flush(frame)
    }
  }

  private flush(frame: Frame): void {
    const lines = frame.hasText ? [collapse(frame.parts.join(''))] : frame.parts.map(collapse).filter(Boolean)
    if (lines.length > 0) this.blocks.push(...paragraphBlocks(lines.join('\n')))
    frame.parts = []
  }
}

/** The `encoding="…"` of an XML declaration, read from the first bytes when they are ASCII-compatible. */
async function declaredXmlEncoding(path: string): Promise<string | null> {
  const handle = await open(path, 'r')
  try {
    const head = Buffer.alloc(256)
    const { bytesRead } = await handle.read(head, 0, head.length, 0)
    const text = head.subarray(0, bytesRead).toString('latin1')
    return /^(?:\uFEFF|ï»¿)?<\?xml[^>]*encoding\s*=\s*["']([A-Za-z0-9._-]+)["']/.exec(text)?.[1] ?? null
  } finally {
    await handle.close()
  }
}

async function parseText(input: ParseInput): Promise<ParsedDocument> {
  const isXml = XML_TYPES.has(input.mimeType)
  const declaredCharset = isXml ? await declaredXmlEncoding(input.path) : null
  const encoding = await detectFileEncoding(input.path, { declaredCharset })
  const sink = isXml ? new XmlTextCollector() : new ParagraphSplitter()
  for await (const piece of decodeFileStream(input.path, encoding)) sink.write(piece)
  const blocks = sink.end()
  input.progress(1, 1)
  return { blocks, pageCount: 1, documentType: 'text' }
}

/** Plain text in any common encoding, plus JSON, YAML and XML read as text (paragraphs on blank lines). */
export const textParser: Parser = {
  mimeTypes: TEXT_TYPES,
  async parse(input) {
    try {
      return await parseText(input)
    } catch (error) {
      if (error instanceof IngestError) throw error
      throw ingestErrors.corrupt('text', error instanceof Error ? error.message : String(error), error)
    }
  },
}
