import { readFile } from 'node:fs/promises'
import { type AddressObject, type ParsedMail, simpleParser } from 'mailparser'
import { decodeText, sniffTextEncoding } from '../detection/text-decoding.js'
import { IngestError } from '../errors.js'
import type { Block, ParsedDocument, ParseInput, Parser } from '../model.js'
import { attachmentBlocks, nestBlocks, newAttachmentBudget, type ParserLookup, readWithParsers } from './attachments.js'
import { toIngestError } from './failures.js'
import { EMAIL_TYPES } from './formats.js'
import { htmlToBlocks } from './html.js'
import { ParagraphSplitter } from './text.js'

/** A message inside a message inside a message… is read this many levels deep, then only noted. */
export const MAX_EMAIL_DEPTH = 3

function addresses(value: AddressObject | AddressObject[] | undefined): string {
  if (!value) return ''
  return (Array.isArray(value) ? value : [value])
    .map((a) => a.text)
    .filter(Boolean)
    .join(', ')
}

/** The Date header as ISO 8601 when it parses, else as written (mailparser puts "now" in place of a bad one). */
function dateOf(mail: ParsedMail): string {
  const line = mail.headerLines.find((header) => header.key === 'date')?.line
  const raw = line?.replace(/^date:\s*/i, '').trim()
  if (!raw) return ''
  const parsed = new Date(raw)
  return Number.isNaN(parsed.getTime()) ? raw : parsed.toISOString()
}

function bodyBlocks(mail: ParsedMail): Block[] {
  const text = mail.text ?? ''
  if (text.trim()) {
    const splitter = new ParagraphSplitter()
    splitter.write(text)
    return splitter.end()
  }
  if (mail.html) return nestBlocks(htmlToBlocks(mail.html).blocks, 1, '')
  return []
}

/** An RFC 822 message as blocks; a UTF-16 file is turned back into bytes mailparser can read. */
async function parseMessage(
  raw: Buffer,
  input: ParseInput,
  depth: number,
  parsers: ParserLookup,
): Promise<ParsedDocument> {
  const encoding = sniffTextEncoding(raw.subarray(0, 4096), { truncated: raw.length > 4096 })
  const source = encoding === 'utf-16le' || encoding === 'utf-16be' ? decodeText(raw) : raw
  const mail = await simpleParser(source, {
    skipHtmlToText: true,
    skipTextToHtml: true,
    skipImageLinks: true,
    keepCidLinks: true,
  })
  const blocks: Block[] = []
  const subject = mail.subject?.replace(/\s+/g, ' ').trim()
  if (subject) blocks.push({ kind: 'heading', level: 1, text: subject })
  const headers = [
    ['From', addresses(mail.from)],
    ['To', addresses(mail.to)],
    ['Cc', addresses(mail.cc)],
    ['Date', dateOf(mail)],
  ]
    .filter(([, value]) => value)
    .map(([key, value]) => `${key}: ${value}`)
  if (headers.length > 0) blocks.push({ kind: 'paragraph', text: headers.join('\n') })
  blocks.push(...bodyBlocks(mail))

  // Not a message after all (no header block ended by a blank line): keep its text.
  if (blocks.length === 0 && mail.attachments.length === 0) {
    const splitter = new ParagraphSplitter()
    splitter.write(typeof source === 'string' ? source : decodeText(source))
    blocks.push(...splitter.end())
  }

  if (mail.attachments.length > 0) {
    const supported = new Set(parsers.supportedMimeTypes())
    const withParsers = readWithParsers(parsers, input)
    const read = async (mimeType: string, path: string, name: string, content: Buffer) => {
      if (mimeType !== 'message/rfc822') return withParsers(mimeType, path, name, content)
      if (depth >= MAX_EMAIL_DEPTH) return `not read: messages nested more than ${MAX_EMAIL_DEPTH} deep`
      return [...(await parseMessage(content, input, depth + 1, parsers)).blocks]
    }
    const budget = newAttachmentBudget()
    let index = 0
    for (const attachment of mail.attachments) {
      index++
      // Images the HTML body shows inline are part of the body, not documents of their own.
      if (attachment.related && attachment.contentType.startsWith('image/')) continue
      const file = { name: attachment.filename ?? '', contentType: attachment.contentType, content: attachment.content }
      blocks.push(...(await attachmentBlocks(file, index, budget, supported, read)))
    }
  }
  return subject
    ? { blocks, pageCount: 1, title: subject, documentType: 'text' }
    : { blocks, pageCount: 1, documentType: 'text' }
}

/**
 * E-mail (message/rfc822): a heading with the subject, a paragraph with From/To/Cc/Date, the body
 * (the text part, else the HTML part read as HTML), then each attachment under a heading
 * "Attachment: <name>" — read by the parser for its sniffed type, or noted with its name and type
 * when unsupported, too large, past the count limit, or nested more than 3 messages deep. The
 * attachments' parsers are the registry's, given by the registry, so that this module does not
 * import it.
 */
export function createEmailParser(parsers: ParserLookup): Parser {
  return {
    mimeTypes: EMAIL_TYPES,
    async parse(input) {
      try {
        const raw = await readFile(input.path)
        const doc = await parseMessage(raw, input, 0, parsers)
        input.progress(1, 1)
        return doc
      } catch (error) {
        if (error instanceof IngestError) throw error
        throw toIngestError('e-mail', error)
      }
    },
  }
}
