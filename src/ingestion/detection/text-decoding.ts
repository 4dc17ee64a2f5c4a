import { createReadStream } from 'node:fs'
import { open } from 'node:fs/promises'
import iconv from 'iconv-lite'
import jschardet from 'jschardet'

/** How much of a file is looked at to choose its encoding. */
export const ENCODING_SAMPLE_BYTES = 64 * 1024

/** Below this, a legacy-charset guess from jschardet is ignored in favour of windows-1252. */
const MIN_DETECTOR_CONFIDENCE = 0.3
/** Share of C0 control bytes (other than tab, newlines, form feed, escape) that still counts as text. */
const MAX_CONTROL_RATIO = 0.01
/** Labels that browsers (WHATWG) decode as windows-1252, whose printable range is a superset. */
const WINDOWS_1252_ALIASES = new Set([
  'iso-8859-1',
  'iso8859-1',
  'latin1',
  'latin-1',
  'l1',
  'us-ascii',
  'ascii',
  'cp819',
])

export interface EncodingOptions {
  /** A charset the container declares (HTML `<meta>`, MIME header); used when the bytes are not UTF-8. */
  readonly declaredCharset?: string | null
  /** The sample is a prefix of a longer file, so a multi-byte character may be cut at its end. */
  readonly truncated?: boolean
}

function bomEncoding(bytes: Uint8Array): string | null {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return 'utf-8'
  // UTF-32's little-endian mark starts like UTF-16's.
  if (bytes[0] === 0xff && bytes[1] === 0xfe && bytes[2] === 0 && bytes[3] === 0) return 'utf-32le'
  if (bytes[0] === 0 && bytes[1] === 0 && bytes[2] === 0xfe && bytes[3] === 0xff) return 'utf-32be'
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf-16le'
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf-16be'
  return null
}

/** Mostly-Latin UTF-16 without a BOM: one byte of nearly every pair is zero, always on the same side. */
function utf16WithoutBom(bytes: Uint8Array): string | null {
  const pairs = Math.floor(bytes.length / 2)
  if (pairs < 2) return null
  let evenZeros = 0
  let oddZeros = 0
  for (let i = 0; i + 1 < bytes.length; i += 2) {
    if (bytes[i] === 0) evenZeros++
    if (bytes[i + 1] === 0) oddZeros++
  }
  if (oddZeros >= pairs * 0.4 && evenZeros <= pairs * 0.05) return 'utf-16le'
  if (evenZeros >= pairs * 0.4 && oddZeros <= pairs * 0.05) return 'utf-16be'
  return null
}

/**
 * UTF-32 without a BOM: in nearly every group of four bytes, the two high bytes of a character of
 * the Basic Multilingual Plane are zero and its low byte is not.
 */
function utf32WithoutBom(bytes: Uint8Array): string | null {
  const groups = Math.floor(bytes.length / 4)
  if (groups < 2) return null
  let little = 0
  let big = 0
  for (let i = 0; i + 3 < bytes.length; i += 4) {
    if (bytes[i + 3] === 0 && bytes[i + 2] === 0 && (bytes[i] !== 0 || bytes[i + 1] !== 0)) little++
    if (bytes[i] === 0 && bytes[i + 1] === 0 && (bytes[i + 3] !== 0 || bytes[i + 2] !== 0)) big++
  }
  if (little >= groups * 0.95) return 'utf-32le'
  if (big >= groups * 0.95) return 'utf-32be'
  return null
}

function isControl(code: number): boolean {
  return (
    (code < 0x20 && code !== 0x09 && code !== 0x0a && code !== 0x0c && code !== 0x0d && code !== 0x1b) || code === 0x7f
  )
}

function controlRatio(text: string): number {
  if (text.length === 0) return 0
  let controls = 0
  for (let i = 0; i < text.length; i++) if (isControl(text.charCodeAt(i))) controls++
  return controls / text.length
}

function isValidUtf8(bytes: Uint8Array, truncated: boolean): boolean {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes, { stream: truncated })
    return true
  } catch {
    return false
  }
}

/**
 * UTF-8 with a few bad bytes (a damaged or concatenated file): well-formed multi-byte sequences
 * outnumber stray high bytes four to one. Latin-1 text almost never forms valid sequences.
 */
function mostlyUtf8(bytes: Uint8Array): boolean {
  let valid = 0
  let invalid = 0
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i] as number
    if (b < 0x80) continue
    const length = b >= 0xc2 && b <= 0xdf ? 2 : b >= 0xe0 && b <= 0xef ? 3 : b >= 0xf0 && b <= 0xf4 ? 4 : 0
    let ok = length > 0 && i + length <= bytes.length
    for (let k = 1; ok && k < length; k++) ok = ((bytes[i + k] as number) & 0xc0) === 0x80
    if (ok) {
      valid++
      i += length - 1
    } else {
      invalid++
    }
  }
  return valid >= 4 * invalid && valid > 0
}

/** iconv-lite's name for a charset label, with the WHATWG latin-1 → windows-1252 rule; null when unknown. */
export function normaliseCharset(label: string | null | undefined): string | null {
  if (!label) return null
  const name = label
    .trim()
    .toLowerCase()
    .replace(/^["']|["']$/g, '')
  if (WINDOWS_1252_ALIASES.has(name)) return 'windows-1252'
  if (name === 'utf8') return 'utf-8'
  return iconv.encodingExists(name) ? name : null
}

/**
 * iconv-lite's name for a Windows code page number (Outlook's PidTagMessageCodepage, an OLE
 * property set's PID_CODEPAGE); null when there is none or iconv-lite lacks it.
 */
export function codepageEncoding(codepage: number | undefined): string | null {
  if (codepage === undefined || !Number.isInteger(codepage) || codepage <= 0) return null
  if (codepage === 65001) return 'utf-8'
  if (codepage === 1200) return 'utf-16le'
  if (codepage === 20127) return 'us-ascii'
  if (codepage >= 28591 && codepage <= 28605) return `iso-8859-${codepage - 28590}`
  const named: Readonly<Record<number, string>> = { 20932: 'euc-jp', 51932: 'euc-jp', 936: 'gbk', 54936: 'gb18030' }
  const name = named[codepage] ?? `cp${codepage}`
  return iconv.encodingExists(name) ? name : null
}

function guessLegacyCharset(bytes: Uint8Array): string {
  const guess = jschardet.detect(bytes)
  const name = normaliseCharset(guess.encoding)
  if (name && name !== 'utf-8' && guess.confidence >= MIN_DETECTOR_CONFIDENCE) return name
  return 'windows-1252'
}

/**
 * The encoding of a text sample, or null when the bytes do not look like text at all (NUL bytes
 * outside UTF-16 and UTF-32, many control characters). Order: BOM, UTF-32 then UTF-16 without BOM
 * (zero-byte patterns),
 * (nearly) valid UTF-8, the declared charset, then jschardet for legacy charsets with windows-1252 as the
 * fallback for single-byte text it is unsure about.
 */
export function sniffTextEncoding(sample: Uint8Array, options: EncodingOptions = {}): string | null {
  if (sample.length === 0) return 'utf-8'
  const truncated = options.truncated ?? false
  const bom = bomEncoding(sample)
  if (bom === 'utf-8') return bom
  const wide = bom ?? utf32WithoutBom(sample) ?? utf16WithoutBom(sample)
  if (wide) {
    const unit = wide.startsWith('utf-32') ? 4 : 2
    const whole = sample.subarray(0, sample.length - (sample.length % unit))
    return controlRatio(iconv.decode(whole, wide)) <= MAX_CONTROL_RATIO ? wide : null
  }
  if (sample.includes(0)) return null
  if (isValidUtf8(sample, truncated) || mostlyUtf8(sample)) return 'utf-8'
  let controls = 0
  for (const byte of sample) if (isControl(byte)) controls++
  if (controls / sample.length > MAX_CONTROL_RATIO) return null
  // A declared UTF-8 that is not valid UTF-8 is a wrong declaration: detect instead.
  const declared = normaliseCharset(options.declaredCharset)
  return declared && declared !== 'utf-8' ? declared : guessLegacyCharset(sample)
}

/** The encoding to decode with: as {@link sniffTextEncoding}, but never null (binary-looking bytes fall back too). */
export function detectEncoding(sample: Uint8Array, options: EncodingOptions = {}): string {
  const sniffed = sniffTextEncoding(sample, options)
  if (sniffed) return sniffed
  // Binary-looking (stray NULs, many controls), but the caller wants text anyway.
  return bomEncoding(sample) ?? (isValidUtf8(sample, options.truncated ?? false) ? 'utf-8' : 'windows-1252')
}

/** Decodes a whole buffer to a string without its BOM. Never throws: undecodable bytes become U+FFFD. */
export function decodeText(bytes: Uint8Array, options: EncodingOptions = {}): string {
  return iconv.decode(bytes, detectEncoding(bytes, options))
}

async function readSample(path: string): Promise<{ sample: Buffer; size: number }> {
  const handle = await open(path, 'r')
  try {
    const { size } = await handle.stat()
    const head = Buffer.alloc(Math.min(size, ENCODING_SAMPLE_BYTES))
    const { bytesRead } = await handle.read(head, 0, head.length, 0)
    const sample = head.subarray(0, bytesRead)
    // A file that starts in plain ASCII may still turn to Latin-1 further on: look at its end too.
    if (size > bytesRead && !sample.some((b) => b >= 0x80) && bomEncoding(sample) === null) {
      const tailLength = Math.min(ENCODING_SAMPLE_BYTES, size - bytesRead)
      const tail = Buffer.alloc(tailLength)
      const read = await handle.read(tail, 0, tailLength, size - tailLength)
      const tailBytes = tail.subarray(0, read.bytesRead)
      // Start at a line boundary so a cut multi-byte character does not fake invalid UTF-8.
      const lineStart = tailBytes.indexOf(0x0a)
      const usable = lineStart >= 0 ? tailBytes.subarray(lineStart + 1) : tailBytes
      if (!isValidUtf8(usable, false)) return { sample: usable, size }
    }
    return { sample, size }
  } finally {
    await handle.close()
  }
}

/** The encoding of a text file, chosen from its first (and, for ASCII starts, last) 64 KiB. */
export async function detectFileEncoding(path: string, options: EncodingOptions = {}): Promise<string> {
  const { sample, size } = await readSample(path)
  return detectEncoding(sample, { ...options, truncated: size > sample.length })
}

/** A whole text file as a string, decoded as {@link decodeText} does. */
export async function readTextFile(path: string, options: EncodingOptions = {}): Promise<string> {
  const encoding = await detectFileEncoding(path, options)
  const chunks: string[] = []
  for await (const text of decodeFileStream(path, encoding)) chunks.push(text)
  return chunks.join('')
}

/**
 * A text file decoded piece by piece (BOM removed, bad bytes replaced), so large files never
 * sit in memory whole. Read errors surface from the iteration.
 */
export async function* decodeFileStream(path: string, encoding: string): AsyncGenerator<string> {
  const decoder = iconv.getDecoder(encoding, { stripBOM: true })
  for await (const chunk of createReadStream(path, { highWaterMark: ENCODING_SAMPLE_BYTES })) {
    const text = decoder.write(chunk as Buffer)
    if (text) yield text
  }
  const rest = decoder.end()
  if (rest) yield rest
}

/** The first ENCODING_SAMPLE_BYTES of a file decoded, and whether that was the whole file. */
export async function readTextSample(path: string, encoding: string): Promise<{ text: string; complete: boolean }> {
  const handle = await open(path, 'r')
  try {
    const { size } = await handle.stat()
    const buffer = Buffer.alloc(Math.min(size, ENCODING_SAMPLE_BYTES))
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0)
    return { text: iconv.decode(buffer.subarray(0, bytesRead), encoding), complete: bytesRead >= size }
  } finally {
    await handle.close()
  }
}
