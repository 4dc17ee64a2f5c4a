import { open } from 'node:fs/promises'
import { extname } from 'node:path'
import { fileTypeFromFile } from 'file-type'

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

/** UTF-16 with a byte-order mark, or UTF-8 without NUL bytes (a multi-byte character may be cut at the end). */
function looksLikeText(bytes: Buffer): boolean {
  if (bytes.length >= 2 && ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff))) {
    return true
  }
  if (bytes.includes(0)) return false
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes, { stream: true })
    return true
  } catch {
    return false
  }
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
  const sniffed = await fileTypeFromFile(path)
  if (sniffed) return sniffed.mime
  if (!looksLikeText(await head(path))) return UNKNOWN_MIME_TYPE
  return byExtension ?? 'text/plain'
}

/** `document_type` of the metadata: `image` for images, `text` for everything else. */
export function documentTypeOf(mimeType: string): 'image' | 'text' {
  return mimeType.startsWith('image/') ? 'image' : 'text'
}
