import { open } from 'node:fs/promises'
import { extname } from 'node:path'
import { fileTypeFromFile } from 'file-type'
import iconv from 'iconv-lite'
import { CFB_MIME_TYPE, compoundFileType } from '../../ingestion/compound-file.js'
import { sniffTextEncoding } from '../../ingestion/text-decoding.js'

/** What is stored when neither the content nor the name says more. */
export const UNKNOWN_MIME_TYPE = 'application/octet-stream'

// Formats with no magic number: recognised by name, and only when the bytes really are text.
const TEXT_EXTENSIONS: Readonly<Record<string, string>> = {
  '.csv': 'text/csv',
  '.tsv': 'text/tab-separated-values',
  '.tab': 'text/tab-separated-values',
  '.txt': 'text/plain',
  '.text': 'text/plain',
  '.log': 'text/plain',
  '.md': 'text/markdown',
  '.markdown': 'text/markdown',
  '.html': 'text/html',
  '.htm': 'text/html',
  '.xhtml': 'application/xhtml+xml',
  '.json': 'application/json',
  '.xml': 'application/xml',
  '.eml': 'message/rfc822',
  '.rtf': 'application/rtf',
  '.yaml': 'application/yaml',
  '.yml': 'application/yaml',
}

const SNIFF_BYTES = 64 * 1024

async function head(path: string): Promise<Buffer> {
  const handle = await open(path, 'r')
  try {
    const buffer = Buffer.alloc(SNIFF_BYTES)
    const { bytesRead } = await handle.read(buffer, 0, SNIFF_BYTES, 0)
    return buffer.subarray(0, bytesRead)
  } finally {
    await handle.close()
  }
}

/** Headers common enough in mail that two of them (one naming a sender or relay) mark a message. */
const MAIL_HEADERS = new Set([
  'from',
  'to',
  'cc',
  'subject',
  'date',
  'message-id',
  'mime-version',
  'received',
  'return-path',
  'reply-to',
  'sender',
  'delivered-to',
  'content-type',
  'x-mailer',
])
const SENDER_HEADERS = ['from', 'sender', 'received', 'return-path']

/**
 * Text that starts with an RFC 822 header block: only `Name: value` lines (and folded
 * continuations) up to the first blank line, naming a sender or relay and at least two
 * well-known mail headers. A leading mbox `From ` line is allowed.
 */
export function looksLikeEmail(text: string): boolean {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/)
  if (lines[0]?.startsWith('From ')) lines.shift()
  const names: string[] = []
  for (const line of lines) {
    if (line === '') break
    if (/^[ \t]/.test(line)) {
      if (names.length === 0) return false
      continue
    }
    const match = /^([!-9;-~]+):/.exec(line)
    if (!match?.[1]) return false
    names.push(match[1].toLowerCase())
    if (names.length > 500) break
  }
  const known = new Set(names.filter((name) => MAIL_HEADERS.has(name)))
  return known.size >= 2 && SENDER_HEADERS.some((name) => known.has(name))
}

/**
 * The MIME type of a stored upload, from its content first (magic numbers), then, for text
 * formats that have none, from the file name's extension once the bytes are known to be text.
 * Other text is `text/plain`; anything else (and an empty file with an unknown name) is
 * application/octet-stream. Never rejects: ingestion decides what it can read.
 */
export async function detectMimeType(path: string, fileName: string, size: number): Promise<string> {
  const byExtension = TEXT_EXTENSIONS[extname(fileName).toLowerCase()]
  if (size === 0) return byExtension ?? UNKNOWN_MIME_TYPE
  const bytes = await head(path)
  const encoding = sniffTextEncoding(bytes, { truncated: size > bytes.length })
  // UTF-16 text with a byte-order mark looks like an MPEG audio frame to file-type.
  const utf16Text = encoding === 'utf-16le' || encoding === 'utf-16be'
  const sniffed = utf16Text ? undefined : await fileTypeFromFile(path)
  // XHTML starts with an XML declaration; its name says which it is.
  if (sniffed?.mime === 'application/xml' && (byExtension === 'text/html' || byExtension === 'application/xhtml+xml')) {
    return byExtension
  }
  // A CFB container (Word 97–2003, Outlook, …): which one is read from its root entries.
  if (sniffed?.mime === CFB_MIME_TYPE) return compoundFileType(path, fileName)
  if (sniffed) return sniffed.mime
  if (!encoding) return UNKNOWN_MIME_TYPE
  if ((byExtension === undefined || byExtension === 'text/plain') && looksLikeEmail(iconv.decode(bytes, encoding))) {
    return 'message/rfc822'
  }
  return byExtension ?? 'text/plain'
}

/** `document_type` of the metadata: `image` for images, `text` for everything else. */
export function documentTypeOf(mimeType: string): 'image' | 'text' {
  return mimeType.startsWith('image/') ? 'image' : 'text'
}
