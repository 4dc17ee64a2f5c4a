import type { RawImage } from '../ocr/ocr.js'

/** Far beyond any scan; stops a forged header from asking for gigabytes. */
const MAX_PIXELS = 100_000_000

/**
 * Decodes an uncompressed Windows bitmap (1, 4, 8, 24 or 32 bits per pixel; BI_RGB, or
 * BI_BITFIELDS with the usual BGRA masks) into RGB pixels — sharp's prebuilt libvips cannot read
 * BMP. Throws an Error with a readable reason for anything else (RLE, OS/2 headers, truncation).
 */
export function decodeBmp(bytes: Buffer): RawImage {
  if (bytes.length < 54 || bytes.toString('latin1', 0, 2) !== 'BM') throw new Error('not a BMP file')
  const dataOffset = bytes.readUInt32LE(10)
  const headerSize = bytes.readUInt32LE(14)
  if (headerSize < 40) throw new Error('unsupported BMP header')
  const width = bytes.readInt32LE(18)
  const rawHeight = bytes.readInt32LE(22)
  const bitsPerPixel = bytes.readUInt16LE(28)
  const compression = bytes.readUInt32LE(30)
  const height = Math.abs(rawHeight)
  if (width <= 0 || height === 0 || width * height > MAX_PIXELS) throw new Error('invalid BMP dimensions')
  const bitfields32 = compression === 3 && bitsPerPixel === 32
  if (compression !== 0 && !bitfields32) throw new Error('compressed BMP is not supported')
  if (![1, 4, 8, 24, 32].includes(bitsPerPixel)) throw new Error(`${bitsPerPixel}-bit BMP is not supported`)
  const rowBytes = Math.ceil((width * bitsPerPixel) / 32) * 4
  if (dataOffset + rowBytes * height > bytes.length) throw new Error('truncated BMP')
  const palette = bitsPerPixel <= 8 ? readPalette(bytes, 14 + headerSize, bytes.readUInt32LE(46), bitsPerPixel) : []
  const out = new Uint8Array(width * height * 3)
  for (let y = 0; y < height; y++) {
    // Rows are stored bottom-up unless the height is negative.
    const row = dataOffset + (rawHeight > 0 ? height - 1 - y : y) * rowBytes
    for (let x = 0; x < width; x++) {
      const target = (y * width + x) * 3
      if (bitsPerPixel >= 24) {
        const at = row + x * (bitsPerPixel / 8)
        out[target] = bytes[at + 2] ?? 0
        out[target + 1] = bytes[at + 1] ?? 0
        out[target + 2] = bytes[at] ?? 0
      } else {
        const bitOffset = x * bitsPerPixel
        const byte = bytes[row + (bitOffset >> 3)] ?? 0
        const index = (byte >> (8 - bitsPerPixel - (bitOffset & 7))) & ((1 << bitsPerPixel) - 1)
        const colour = palette[index] ?? [0, 0, 0]
        out.set(colour, target)
      }
    }
  }
  return { data: out, width, height, channels: 3 }
}

function readPalette(bytes: Buffer, start: number, declared: number, bitsPerPixel: number): [number, number, number][] {
  const count = declared > 0 ? Math.min(declared, 1 << bitsPerPixel) : 1 << bitsPerPixel
  const palette: [number, number, number][] = []
  for (let i = 0; i < count && start + i * 4 + 2 < bytes.length; i++) {
    const at = start + i * 4
    palette.push([bytes[at + 2] ?? 0, bytes[at + 1] ?? 0, bytes[at] ?? 0])
  }
  return palette
}
