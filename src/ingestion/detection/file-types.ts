import { open } from 'node:fs/promises'
import { extname } from 'node:path'
import { fileTypeFromFile } from 'file-type'
import iconv from 'iconv-lite'
import { CSV_TYPES, EMAIL_TYPES, HTML_TYPES, MARKDOWN_TYPES, RTF_TYPES, TEXT_TYPES } from '../parsers/formats.js'
import { CFB_MIME_TYPE, compoundFileType } from './compound-file.js'
import { isExcelBinary, XLSB_MIME_TYPE } from './excel-binary.js'
import { sniffTextEncoding } from './text-decoding.js'
import { signatureHolds } from './weak-signatures.js'

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
  '.ndjson': 'application/x-ndjson',
  '.jsonl': 'application/x-ndjson',
  '.rst': 'text/plain',
  '.org': 'text/plain',
  '.adoc': 'text/plain',
  '.tex': 'text/plain',
  '.ini': 'text/plain',
  '.cfg': 'text/plain',
  '.conf': 'text/plain',
  '.toml': 'text/plain',
  '.properties': 'text/plain',
  '.out': 'text/plain',
  '.err': 'text/plain',
  '.sql': 'text/plain',
  '.css': 'text/plain',
  '.js': 'text/plain',
  '.mjs': 'text/plain',
  '.cjs': 'text/plain',
  '.ts': 'text/plain',
  '.tsx': 'text/plain',
  '.jsx': 'text/plain',
  '.py': 'text/plain',
  '.rb': 'text/plain',
  '.php': 'text/plain',
  '.java': 'text/plain',
  '.kt': 'text/plain',
  '.scala': 'text/plain',
  '.go': 'text/plain',
  '.rs': 'text/plain',
  '.c': 'text/plain',
  '.h': 'text/plain',
  '.cc': 'text/plain',
  '.cpp': 'text/plain',
  '.hpp': 'text/plain',
  '.cs': 'text/plain',
  '.swift': 'text/plain',
  '.m': 'text/plain',
  '.r': 'text/plain',
  '.pl': 'text/plain',
  '.lua': 'text/plain',
  '.sh': 'text/plain',
  '.bash': 'text/plain',
  '.ps1': 'text/plain',
  '.bat': 'text/plain',
}

/** The text types a parser reads (formats.ts): a declared one is stored as it is. */
const READ_AS_DECLARED: ReadonlySet<string> = new Set([
  ...CSV_TYPES,
  ...HTML_TYPES,
  ...MARKDOWN_TYPES,
  ...TEXT_TYPES,
  ...RTF_TYPES,
  ...EMAIL_TYPES,
])
/** Declared types outside `text/*` that are text all the same (scripts, queries), read as plain text. */
const PLAIN_TEXT_APPLICATIONS = new Set(['application/javascript', 'application/x-sh', 'application/sql'])

/**
 * The text type a declared type says: itself when a parser reads it, `text/plain` for another
 * `text/*` or a script; undefined when it says no text (`application/octet-stream`, an image…).
 */
function declaredTextType(declared: string | undefined): string | undefined {
  const type = declared?.split(';')[0]?.trim().toLowerCase()
  if (!type) return undefined
  if (READ_AS_DECLARED.has(type)) return type
  return type.startsWith('text/') || PLAIN_TEXT_APPLICATIONS.has(type) ? 'text/plain' : undefined
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
 * The MIME type of a stored upload.
 *
 * The content decides first (magic numbers, by `file-type`), except that a signature text can
 * start with by chance (`BM`, `ID3`, `MZ`, `%PDF`, a media box, `RIFF`) counts, when the bytes read
 * as text, only if its format's header fields are there too (weak-signatures.ts): `BM…` is not a
 * bitmap in `notes.txt`. Bytes that read as text (UTF-8, UTF-16 or UTF-32 with or without a BOM,
 * a legacy charset such as Latin-1; no NUL bytes or control characters beyond a trace) are then
 * text: of the type their name or declared type says, else `text/plain`, or `message/rfc822` when
 * they open with mail headers. Anything else (and an empty file with an unknown name) is
 * application/octet-stream. Never rejects: ingestion decides what it can read. `declaredType` is what the client declared (a multipart part's type, or the
 * type stored at upload when the document is processed again).
 */
export async function detectMimeType(
  path: string,
  fileName: string,
  size: number,
  declaredType?: string,
): Promise<string> {
  const byExtension = TEXT_EXTENSIONS[extname(fileName).toLowerCase()]
  const namedText = byExtension ?? declaredTextType(declaredType)
  if (size === 0) return namedText ?? UNKNOWN_MIME_TYPE
  const bytes = await head(path)
  const encoding = sniffTextEncoding(bytes, { truncated: size > bytes.length })
  const mailOrText = (type: string) =>
    type === 'text/plain' && encoding && looksLikeEmail(iconv.decode(bytes, encoding)) ? 'message/rfc822' : type
  // Text in UTF-16 or UTF-32 looks like an MPEG audio frame (or worse) to file-type.
  const wide = encoding?.startsWith('utf-16') || encoding?.startsWith('utf-32')
  const sniffed = wide ? undefined : await fileTypeFromFile(path)
  if (sniffed && (!encoding || signatureHolds(sniffed, bytes, size))) {
    // A CFB container (Word, Excel or PowerPoint 97–2003, Outlook, …): which one is read from its root entries.
    if (sniffed.mime === CFB_MIME_TYPE) return compoundFileType(path, fileName)
    // An Excel binary workbook is a ZIP that file-type does not name.
    if (sniffed.mime === 'application/zip' && (await isExcelBinary(path, size))) return XLSB_MIME_TYPE
    // XHTML starts with an XML declaration; its name says which it is.
    const xhtml =
      sniffed.mime === 'application/xml' && (namedText === 'text/html' || namedText === 'application/xhtml+xml')
    return xhtml ? namedText : sniffed.mime
  }
  if (!encoding) return UNKNOWN_MIME_TYPE
  return mailOrText(namedText ?? 'text/plain')
}

/** `document_type` of the metadata: `image` for images, `text` for everything else. */
export function documentTypeOf(mimeType: string): 'image' | 'text' {
  return mimeType.startsWith('image/') ? 'image' : 'text'
}
