/**
 * Magic numbers short enough, or printable enough, to open a text file by chance: `BM` (BMP),
 * `ID3` (MP3), `MZ` (Windows executables), `%PDF`, an ISO base media box (`....ftyp`, `....moov`,
 * `....free`: MP4, QuickTime), `RIFF` (WAV, AVI, WebP). A file-type match on one of them wins only
 * when the header fields its format requires after the magic are there too; for every other
 * signature the match stands.
 */

/** Sizes a BMP's DIB header can have (BITMAPCOREHEADER … BITMAPV5HEADER). */
const BMP_DIB_SIZES = new Set([12, 40, 52, 56, 64, 108, 124])

/** `BM`, the whole file's size, two reserved zero words, the pixel offset, and a known DIB header size. */
function isBmp(bytes: Uint8Array, size: number): boolean {
  if (bytes.length < 26) return false
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const declared = view.getUint32(2, true)
  const reserved = view.getUint32(6, true)
  const pixels = view.getUint32(10, true)
  const dib = view.getUint32(14, true)
  // Some writers leave the size field at zero; none writes one larger than the file.
  return (
    (declared === 0 || declared <= size) &&
    reserved === 0 &&
    BMP_DIB_SIZES.has(dib) &&
    pixels >= 14 + dib &&
    pixels <= size
  )
}

/** `ID3`, a major version 2–4, a revision below 0xFF, and a tag size of four 7-bit bytes. */
function isId3(bytes: Uint8Array): boolean {
  if (bytes.length < 10) return false
  const major = bytes[3] as number
  const revision = bytes[4] as number
  return major >= 2 && major <= 4 && revision < 0xff && [6, 7, 8, 9].every((i) => (bytes[i] as number) < 0x80)
}

/** `MZ` and, where its header says (`e_lfanew`), a `PE\0\0` or `NE`/`LE` header within the file. */
function isExecutable(bytes: Uint8Array): boolean {
  if (bytes.length < 64) return false
  const offset = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(0x3c, true)
  if (offset < 64 || offset + 4 > bytes.length) return false
  const a = bytes[offset]
  const b = bytes[offset + 1]
  return (a === 0x50 && b === 0x45 && bytes[offset + 2] === 0 && bytes[offset + 3] === 0) || (a === 0x4e && b === 0x45)
}

/** A first box whose big-endian size fits the file (or is 0/1: to the end, 64-bit) and whose type is four printable bytes. */
function isIsoMedia(bytes: Uint8Array, size: number): boolean {
  if (bytes.length < 12) return false
  const boxSize = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(0, false)
  if (boxSize !== 0 && boxSize !== 1 && (boxSize < 8 || boxSize > size)) return false
  return [4, 5, 6, 7].every((i) => (bytes[i] as number) >= 0x20 && (bytes[i] as number) < 0x7f)
}

/** `RIFF`, a chunk size that fits the file, and a four-byte form type (`WAVE`, `AVI `, `WEBP`). */
function isRiff(bytes: Uint8Array, size: number): boolean {
  if (bytes.length < 12) return false
  const chunk = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(4, true)
  return chunk >= 4 && chunk + 8 <= size + 1
}

/** `%PDF`, and the object syntax every PDF has near its start or its end within the first bytes. */
function isPdf(bytes: Uint8Array): boolean {
  return /\d+\s+\d+\s+obj\b|\bxref\b|\bstartxref\b|%%EOF/.test(Buffer.from(bytes).toString('latin1'))
}

/** File-type extensions (`ext`) of the formats found in ISO base media boxes. */
const ISO_MEDIA_EXTENSIONS = new Set([
  'mov',
  'mp4',
  'm4a',
  'm4v',
  'm4b',
  'm4p',
  '3gp',
  '3g2',
  'f4v',
  'f4a',
  'f4b',
  'heic',
  'avif',
  'jp2',
  'mj2',
  'qt',
  'cr3',
])
const RIFF_EXTENSIONS = new Set(['wav', 'avi', 'webp', 'ani', 'qcp'])

/**
 * Whether a file-type match is borne out by its header (`bytes`: the file's first bytes, `size`:
 * its length): false only for a weak signature whose required fields are missing.
 */
export function signatureHolds(
  match: { readonly ext: string; readonly mime: string },
  bytes: Uint8Array,
  size: number,
): boolean {
  const starts = (text: string) => Buffer.from(bytes.subarray(0, text.length)).toString('latin1') === text
  if (match.ext === 'bmp' && starts('BM')) return isBmp(bytes, size)
  if (match.ext === 'pdf' && starts('%PDF')) return isPdf(bytes)
  if (match.ext === 'mp3' && starts('ID3')) return isId3(bytes)
  if ((match.ext === 'exe' || match.ext === 'dll') && starts('MZ')) return isExecutable(bytes)
  if (ISO_MEDIA_EXTENSIONS.has(match.ext)) return isIsoMedia(bytes, size)
  if (RIFF_EXTENSIONS.has(match.ext) && starts('RIFF')) return isRiff(bytes, size)
  return true
}
