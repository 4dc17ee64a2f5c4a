import { marked, type Token, type Tokens } from 'marked'
import { readTextFile } from '../detection/text-decoding.js'
import type { Block, ParsedDocument, Parser } from '../model.js'
import { toIngestError } from './failures.js'
import { MARKDOWN_TYPES } from './formats.js'
import { htmlToBlocks } from './html.js'
import { paragraphBlocks } from './text.js'

const ENTITIES: Readonly<Record<string, string>> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
}

/** The few entities Markdown authors write by hand, and numeric references. */
function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]{1,6}|#\d{1,7}|[a-z]+);/gi, (whole, ref: string) => {
    if (ref[0] !== '#') return ENTITIES[ref.toLowerCase()] ?? whole
    const code =
      ref[1] === 'x' || ref[1] === 'X' ? Number.parseInt(ref.slice(2), 16) : Number.parseInt(ref.slice(1), 10)
    return code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff) ? String.fromCodePoint(code) : whole
  })
}

/** Plain text of inline tokens: emphasis and links unwrapped, images as their alt text, inline HTML stripped. */
function inline(tokens: readonly Token[] | undefined): string {
  if (!tokens) return ''
  let out = ''
  for (const token of tokens) {
    switch (token.type) {
      case 'br':
        out += '\n'
        break
      case 'html':
        out += decodeEntities(token.text.replace(/<br\s*\/?>/gi, '\n').replace(/<[^>]*>/g, ''))
        break
      case 'codespan':
      case 'escape':
      case 'image':
        out += decodeEntities(token.text)
        break
      default:
        out +=
          'tokens' in token && token.tokens
            ? inline(token.tokens)
            : decodeEntities('text' in token ? String(token.text) : '')
    }
  }
  return out
}

function blocksOf(tokens: readonly Token[], out: Block[]): void {
  for (const token of tokens) {
    switch (token.type) {
      case 'heading': {
        const text = inline(token.tokens).replace(/\s+/g, ' ').trim()
        if (text) out.push({ kind: 'heading', level: (token as Tokens.Heading).depth, text })
        break
      }
      case 'paragraph':
      case 'text':
        out.push(...paragraphBlocks(inline('tokens' in token ? token.tokens : undefined) || String(token.text ?? '')))
        break
      case 'code':
        out.push(...paragraphBlocks((token as Tokens.Code).text))
        break
      case 'blockquote':
        blocksOf((token as Tokens.Blockquote).tokens, out)
        break
      case 'list':
        for (const item of (token as Tokens.List).items) blocksOf(item.tokens, out)
        break
      case 'table': {
        const table = token as Tokens.Table
        const cell = (c: Tokens.TableCell): string => inline(c.tokens).replace(/\s+/g, ' ').trim()
        out.push({
          kind: 'table',
          header: table.header.map(cell),
          rows: table.rows.map((row, i) => ({ rowNumber: i + 2, cells: row.map(cell) })),
        })
        break
      }
      case 'html':
        out.push(...htmlToBlocks((token as Tokens.HTML).text).blocks)
        break
      default:
        break
    }
  }
}

/** YAML front matter (`---` … `---`) is metadata, not a setext heading: kept as one paragraph. */
function splitFrontMatter(text: string): { frontMatter: string | null; body: string } {
  const match = /^---\r?\n([\s\S]{0,10000}?)\r?\n(?:---|\.\.\.)\r?\n/.exec(text)
  if (!match) return { frontMatter: null, body: text }
  return { frontMatter: match[1] ?? '', body: text.slice(match[0].length) }
}

/** Markdown as blocks: headings, paragraphs, list items, code blocks (as paragraphs), tables (header row = row 1). */
export function markdownToBlocks(markdown: string): Block[] {
  const { frontMatter, body } = splitFrontMatter(markdown)
  const blocks: Block[] = frontMatter ? paragraphBlocks(frontMatter) : []
  blocksOf(marked.lexer(body), blocks)
  return blocks
}

/** Markdown files; the title is the first level-1 heading (else the first heading). */
export const markdownParser: Parser = {
  mimeTypes: MARKDOWN_TYPES,
  async parse(input): Promise<ParsedDocument> {
    try {
      const blocks = markdownToBlocks(await readTextFile(input.path))
      input.progress(1, 1)
      const headings = blocks.filter((block) => block.kind === 'heading')
      const title = (headings.find((block) => block.level === 1) ?? headings[0])?.text
      return title
        ? { blocks, pageCount: 1, title, documentType: 'text' }
        : { blocks, pageCount: 1, documentType: 'text' }
    } catch (error) {
      throw toIngestError('Markdown', error)
    }
  },
}
