import msgreader, { type FieldsData } from '@kenjiuno/msgreader'
import { codepageEncoding, decodeText } from '../detection/text-decoding.js'
import { ingestErrors } from '../errors.js'
import type { Block, ParsedDocument, ParseInput, Parser } from '../model.js'
import {
  type Attachment,
  attachmentBlocks,
  nestBlocks,
  newAttachmentBudget,
  type ParserLookup,
  readWithParsers,
} from './attachments.js'
import { toIngestError } from './failures.js'
import { MSG } from './formats.js'
import { declaredHtmlCharset, htmlToBlocks } from './html.js'
import { readSource } from './source.js'
import { ParagraphSplitter } from './text.js'

// The package is CommonJS with its class as `exports.default`: Node's ESM import gives the exports
// object as the default, bundlers that honour `__esModule` (vitest) give the class itself.
type MsgReaderClass = typeof msgreader.default
const MsgReader: MsgReaderClass =
  (msgreader as unknown as { default?: MsgReaderClass }).default ?? (msgreader as unknown as MsgReaderClass)

/** An Outlook item attached to an Outlook item… is read this many levels deep, then only noted. */
export const MAX_MSG_DEPTH = 3

function toArrayBuffer(bytes: Buffer): ArrayBuffer {
  return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer
}

/** PidTagAttachFlags (MS-OXCMSG 2.2.2.18), and its ATT_MHTML_REF bit: a resource the HTML body shows. */
const PID_TAG_ATTACH_FLAGS = 0x37140003
const ATT_MHTML_REF = 0x4

interface OpenedItem {
  readonly reader: InstanceType<typeof MsgReader>
  readonly fields: FieldsData
  /** PidTagAttachFlags of each attachment that has them (the library does not decode them). */
  readonly attachFlags: WeakMap<FieldsData, number>
}

function readerOf(raw: Buffer, attachFlags: WeakMap<FieldsData, number>, ansiEncoding?: string) {
  const reader = new MsgReader(toArrayBuffer(raw))
  reader.parserConfig = {
    ...(ansiEncoding ? { ansiEncoding } : {}),
    propertyObserver: (fields, tag, value) => {
      if (tag === PID_TAG_ATTACH_FLAGS && value && value.length >= 4) {
        attachFlags.set(fields, Buffer.from(value.buffer, value.byteOffset, 4).readUInt32LE(0))
      }
    },
  }
  return reader
}

/**
 * The item's properties. Strings stored in 8-bit form (older Outlook) are decoded with the item's
 * code page, so a second pass reads them again once the first has found it (the library reads them
 * as Latin-1 by default).
 */
function openItem(raw: Buffer): OpenedItem {
  const attachFlags = new WeakMap<FieldsData, number>()
  const first = readerOf(raw, attachFlags)
  const fields = first.getFileData()
  if (fields.error || fields.dataType !== 'msg') {
    throw ingestErrors.corrupt('MSG', fields.error ?? 'not an Outlook item')
  }
  const encoding = codepageEncoding(fields.messageCodepage ?? fields.internetCodepage)
  if (!encoding || encoding === 'iso-8859-1') return { reader: first, fields, attachFlags }
  const reader = readerOf(raw, attachFlags, encoding)
  return { reader, fields: reader.getFileData(), attachFlags }
}

/** The value of a header in the transport headers the item kept, unfolded. */
function transportHeader(fields: FieldsData, name: string): string | undefined {
  const headers = (fields.headers ?? '').replace(/\r?\n[ \t]+/g, ' ')
  const line = headers.split(/\r?\n/).find((l) => l.toLowerCase().startsWith(`${name.toLowerCase()}:`))
  return line?.slice(name.length + 1).trim()
}

/**
 * How the item is encrypted for its recipients, or null: S/MIME (an `IPM.Note.SMIME` class other
 * than a clear-signed one, or an `application/pkcs7-mime` envelope), PGP/MIME (`multipart/encrypted`)
 * or Microsoft Information Rights Management (an `.rpmsg` payload). Such an item carries no
 * readable text, only the encrypted payload as an attachment.
 */
export function encryptionOf(fields: FieldsData): string | null {
  const messageClass = (fields.messageClass ?? '').toLowerCase()
  const attachments = fields.attachments ?? []
  const contentType = (transportHeader(fields, 'content-type') ?? '').toLowerCase()
  if (
    messageClass.includes('rpmsg') ||
    attachments.some((a) => (a.fileName ?? a.name ?? '').toLowerCase() === 'message.rpmsg')
  ) {
    return 'Information Rights Management'
  }
  if (messageClass.startsWith('ipm.note.smime') && !messageClass.includes('multipartsigned')) return 'S/MIME'
  if (contentType.startsWith('multipart/encrypted'))
    return contentType.includes('pgp') ? 'PGP/MIME' : 'multipart/encrypted'
  if (/^application\/(x-)?pkcs7-mime/.test(contentType) && !contentType.includes('signed-data')) return 'S/MIME'
  const blankBody = !(fields.body ?? '').trim()
  if (blankBody && attachments.some((a) => (a.attachMimeTag ?? '').toLowerCase() === 'application/pgp-encrypted')) {
    return 'PGP/MIME'
  }
  return null
}

/** `Name <address>`, the SMTP address when the item has one (an Exchange DN says nothing to a reader). */
function person(name: string | undefined, address: string | undefined): string {
  const cleanName = (name ?? '').replace(/\s+/g, ' ').trim()
  const cleanAddress = (address ?? '').trim()
  if (!cleanAddress || cleanAddress.toLowerCase() === cleanName.toLowerCase()) return cleanName
  return cleanName ? `${cleanName} <${cleanAddress}>` : cleanAddress
}

const smtp = (address: string | undefined, type: string | undefined): string | undefined =>
  address && (type === undefined || type.toUpperCase() === 'SMTP') && address.includes('@') ? address : undefined

function sender(fields: FieldsData): string {
  return person(
    fields.senderName,
    fields.senderSmtpAddress ??
      smtp(fields.senderEmail, fields.senderAddressType) ??
      fields.sentRepresentingSmtpAddress,
  )
}

function recipients(fields: FieldsData, type: 'to' | 'cc' | 'bcc'): string {
  return (fields.recipients ?? [])
    .filter((r) => (r.recipType ?? 'to') === type)
    .map((r) => person(r.name, r.smtpAddress ?? smtp(r.email, r.addressType)))
    .filter(Boolean)
    .join(', ')
}

/** The Date header as ISO 8601 when it parses, else the time the item was submitted or delivered. */
function dateOf(fields: FieldsData): string {
  for (const raw of [transportHeader(fields, 'date'), fields.clientSubmitTime, fields.messageDeliveryTime]) {
    if (!raw) continue
    const parsed = new Date(raw)
    return Number.isNaN(parsed.getTime()) ? raw : parsed.toISOString()
  }
  return ''
}

/** The HTML body as text: the Unicode property, else the bytes in the item's internet code page. */
function htmlBody(fields: FieldsData): string {
  if (fields.bodyHtml?.trim()) return fields.bodyHtml
  if (!fields.html || fields.html.length === 0) return ''
  const bytes = Buffer.from(fields.html)
  const declaredCharset = declaredHtmlCharset(bytes) ?? codepageEncoding(fields.internetCodepage)
  return decodeText(bytes, { declaredCharset })
}

function bodyBlocks(fields: FieldsData, html: string): Block[] {
  const text = fields.body ?? ''
  if (text.trim()) {
    const splitter = new ParagraphSplitter()
    splitter.write(text)
    return splitter.end()
  }
  if (html.trim()) return nestBlocks(htmlToBlocks(html).blocks, 1, '')
  return []
}

/**
 * Pictures the body shows (hidden, flagged as a resource of the HTML body, or referenced as `cid:`
 * by it) are part of the body, not documents of their own.
 */
function isInlineImage(attachment: FieldsData, flags: number | undefined, html: string): boolean {
  const type = (attachment.attachMimeTag ?? '').toLowerCase()
  const name = (attachment.fileName ?? attachment.name ?? '').toLowerCase()
  const image = type.startsWith('image/') || /\.(png|jpe?g|gif|bmp|tiff?|webp)$/.test(name)
  if (!image) return false
  if (attachment.attachmentHidden || ((flags ?? 0) & ATT_MHTML_REF) !== 0) return true
  const id = attachment.pidContentId?.replace(/^<|>$/g, '')
  return Boolean(id && html.includes(`cid:${id}`))
}

async function parseItem(
  raw: Buffer,
  input: ParseInput,
  parsers: ParserLookup,
  depth: number,
): Promise<ParsedDocument> {
  const { reader, fields, attachFlags } = openItem(raw)
  const encryption = encryptionOf(fields)
  if (encryption) throw ingestErrors.encrypted('e-mail (MSG)', encryption)

  const blocks: Block[] = []
  const subject = fields.subject?.replace(/\s+/g, ' ').trim()
  if (subject) blocks.push({ kind: 'heading', level: 1, text: subject })
  const headers = [
    ['From', sender(fields)],
    ['To', recipients(fields, 'to')],
    ['Cc', recipients(fields, 'cc')],
    ['Bcc', recipients(fields, 'bcc')],
    ['Date', dateOf(fields)],
  ]
    .filter(([, value]) => value)
    .map(([key, value]) => `${key}: ${value}`)
  if (headers.length > 0) blocks.push({ kind: 'paragraph', text: headers.join('\n') })
  const html = htmlBody(fields)
  blocks.push(...bodyBlocks(fields, html))

  const attachments = (fields.attachments ?? []).filter((a) => !isInlineImage(a, attachFlags.get(a), html))
  if (attachments.length > 0) {
    const supported = new Set(parsers.supportedMimeTypes())
    const withParsers = readWithParsers(parsers, input)
    const read = async (mimeType: string, path: string, name: string, content: Buffer) => {
      if (mimeType !== MSG) return withParsers(mimeType, path, name, content)
      if (depth >= MAX_MSG_DEPTH) return `not read: Outlook items nested more than ${MAX_MSG_DEPTH} deep`
      return [...(await parseItem(content, input, parsers, depth + 1)).blocks]
    }
    const budget = newAttachmentBudget()
    let index = 0
    for (const attachment of attachments) {
      index++
      blocks.push(...(await attachmentOf(reader, attachment, index, budget, supported, read)))
    }
  }
  return subject
    ? { blocks, pageCount: 1, title: subject, documentType: 'text' }
    : { blocks, pageCount: 1, documentType: 'text' }
}

/** One attachment's blocks; an embedded Outlook item comes out of the library as a `.msg` file of its own. */
async function attachmentOf(
  reader: InstanceType<typeof MsgReader>,
  attachment: FieldsData,
  index: number,
  budget: ReturnType<typeof newAttachmentBudget>,
  supported: ReadonlySet<string>,
  read: Parameters<typeof attachmentBlocks>[4],
): Promise<Block[]> {
  const name = attachment.fileName || attachment.name || attachment.fileNameShort || ''
  const contentType = attachment.attachMimeTag || (attachment.innerMsgContent ? MSG : 'application/octet-stream')
  let file: Attachment
  try {
    const data = reader.getAttachment(attachment)
    file = { name: data.fileName || name, contentType, content: Buffer.from(data.content) }
  } catch (error) {
    const label = name || `attachment ${index}`
    const reason = toIngestError('attachment', error).message
    return [
      { kind: 'heading', level: 2, text: `Attachment: ${label}` },
      { kind: 'paragraph', text: `${label} (${contentType}) could not be read: ${reason}` },
    ]
  }
  return attachmentBlocks(file, index, budget, supported, read)
}

/**
 * Outlook items (.msg) read like e-mail (`message/rfc822`): a heading with the subject, a
 * paragraph with From/To/Cc/Bcc/Date, the body (the plain-text body, else the HTML body read as
 * HTML), then each attachment under "Attachment: <name>", read by the parser for its sniffed type
 * (an attached or embedded Outlook item by this parser, 3 levels deep at most) or noted. Strings
 * of older items are decoded with the item's code page. An item encrypted for its recipients
 * (S/MIME, PGP/MIME, Rights Management) is a permanent "encrypted" error. `parsers` are the
 * registry's, given by the registry, so that this module does not import it.
 */
export function createMsgParser(parsers: ParserLookup): Parser {
  return {
    mimeTypes: [MSG],
    async parse(input) {
      try {
        const doc = await parseItem(await readSource(input.path), input, parsers, 0)
        input.progress(1, 1)
        return doc
      } catch (error) {
        throw toIngestError('MSG', error)
      }
    },
  }
}
