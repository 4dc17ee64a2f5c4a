import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { basename, join } from 'node:path'
import { type AddressObject, type Attachment, type ParsedMail, simpleParser } from 'mailparser'
import { detectMimeType, UNKNOWN_MIME_TYPE } from '../../domain/knowledge-base/file-types.js'
import { IngestError } from '../errors.js'
import type { Block, ParsedDocument, ParseInput, Parser } from '../model.js'
import { decodeText, sniffTextEncoding } from '../text-decoding.js'
import { toIngestError } from './failures.js'
import { EMAIL_TYPES } from './formats.js'
import { htmlToBlocks } from './html.js'
import { ParagraphSplitter } from './text.js'

/** A message inside a message inside a message… is read this many levels deep, then only noted. */
export const MAX_EMAIL_DEPTH = 3
/** Attachments read per message; the rest are only noted. */
const MAX_ATTACHMENTS_READ = 20
/** An attachment larger than this is only noted. */
const MAX_ATTACHMENT_BYTES = 50 * 1024 * 1024
/** All attachments read from one message, together. */
const MAX_ATTACHMENTS_TOTAL_BYTES = 100 * 1024 * 1024

function addresses(value: AddressObject | AddressObject[] | undefined): string {
  if (!value) return ''
  return (Array.isArray(value) ? value : [value])
    .map((a) => a.text)
    .filter(Boolean)
    .join(', ')
}

/** Headings of embedded content move `by` levels down (at most 6); page numbers of an attachment are not the e-mail's. */
function nest(blocks: readonly Block[], by: number, imagePrefix: string): Block[] {
  return blocks.map((block): Block => {
    const { page: _page, ...rest } = block
    if (rest.kind === 'heading') return { ...rest, level: Math.min(6, rest.level + by) }
    if (rest.kind === 'image') return { ...rest, imageId: `${imagePrefix}${rest.imageId}` }
    return rest
  })
}

function sizeText(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(1)} MiB`
  if (bytes >= 1024) return `${Math.round(bytes / 1024)} KiB`
  return `${bytes} bytes`
}

interface Budget {
  read: number
  bytes: number
}

/** Reads one attachment through the parser registered for its (sniffed) type, from a temp file. */
async function attachmentBlocks(
  attachment: Attachment,
  index: number,
  input: ParseInput,
  depth: number,
  budget: Budget,
): Promise<Block[]> {
  const name = basename(attachment.filename ?? '') || `attachment ${index}`
  const label = `Attachment: ${name}`
  const note = (reason: string): Block[] => [
    { kind: 'heading', level: 2, text: label },
    { kind: 'paragraph', text: `${name} (${attachment.contentType}, ${sizeText(attachment.size)}) ${reason}` },
  ]
  if (budget.read >= MAX_ATTACHMENTS_READ) return note(`not read: more than ${MAX_ATTACHMENTS_READ} attachments`)
  if (attachment.size > MAX_ATTACHMENT_BYTES || budget.bytes + attachment.size > MAX_ATTACHMENTS_TOTAL_BYTES) {
    return note('not read: too large')
  }
  budget.read++
  budget.bytes += attachment.size

  const dir = await mkdtemp(join(tmpdir(), 'lantern-eml-'))
  try {
    const path = join(dir, `attachment${/\.[A-Za-z0-9]{1,8}$/.exec(name)?.[0] ?? ''}`)
    await writeFile(path, attachment.content)
    const declared = attachment.contentType.toLowerCase()
    const sniffed = await detectMimeType(path, name, attachment.size, declared)
    const { parserFor, supportedMimeTypes } = await import('./registry.js')
    const supported = new Set(supportedMimeTypes())
    const mimeType =
      sniffed !== UNKNOWN_MIME_TYPE && (supported.has(sniffed) || !supported.has(declared)) ? sniffed : declared
    const prefix = `a${index}-`
    if (mimeType === 'message/rfc822') {
      if (depth >= MAX_EMAIL_DEPTH) return note(`not read: messages nested more than ${MAX_EMAIL_DEPTH} deep`)
      const inner = await parseMessage(attachment.content, input, depth + 1)
      return [{ kind: 'heading', level: 2, text: label }, ...nest(inner.blocks, 2, prefix)]
    }
    if (!supported.has(mimeType)) return note('(not a readable type)')
    const parsed = await parserFor(mimeType).parse({
      ...input,
      path,
      mimeType,
      filename: name,
      progress: () => {},
    })
    return [{ kind: 'heading', level: 2, text: label }, ...nest(parsed.blocks, 2, prefix)]
  } catch (error) {
    const failure = toIngestError('attachment', error)
    if (!failure.permanent) throw failure
    return note(`could not be read: ${failure.message}`)
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
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
  if (mail.html) return nest(htmlToBlocks(mail.html).blocks, 1, '')
  return []
}

/** An RFC 822 message as blocks; a UTF-16 file is turned back into bytes mailparser can read. */
async function parseMessage(raw: Buffer, input: ParseInput, depth: number): Promise<ParsedDocument> {
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

  const budget: Budget = { read: 0, bytes: 0 }
  let index = 0
  for (const attachment of mail.attachments) {
    index++
    // Images the HTML body shows inline are part of the body, not documents of their own.
    if (attachment.related && attachment.contentType.startsWith('image/')) continue
    blocks.push(...(await attachmentBlocks(attachment, index, input, depth, budget)))
  }
  return subject
    ? { blocks, pageCount: 1, title: subject, documentType: 'text' }
    : { blocks, pageCount: 1, documentType: 'text' }
}

/**
 * E-mail (message/rfc822): a heading with the subject, a paragraph with From/To/Cc/Date, the body
 * (the text part, else the HTML part read as HTML), then each attachment under a heading
 * "Attachment: <name>" — read by the parser for its sniffed type, or noted with its name and type
 * when unsupported, too large, past the count limit, or nested more than 3 messages deep.
 */
export const emailParser: Parser = {
  mimeTypes: EMAIL_TYPES,
  async parse(input) {
    try {
      const raw = await readFile(input.path)
      const doc = await parseMessage(raw, input, 0)
      input.progress(1, 1)
      return doc
    } catch (error) {
      if (error instanceof IngestError) throw error
      throw toIngestError('e-mail', error)
    }
  },
}
