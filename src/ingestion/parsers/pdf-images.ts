import type { PDFPageProxy } from 'unpdf/pdfjs'
import type { RawImage } from '../ocr/ocr.js'
import { pdfOps } from './pdf-runtime.js'

/** An image drawn on a PDF page, decoded, with what OCR needs to read it upright. */
export interface PageImage {
  readonly image: RawImage
  /** Drawn area over page area, 0–1. */
  readonly ratio: number
  /** Clockwise degrees that make the pixels upright as displayed. */
  readonly rotate: number
  /** Mirror top-bottom before rotating. */
  readonly flip: boolean
}

type Matrix = readonly [number, number, number, number, number, number]

const IDENTITY: Matrix = [1, 0, 0, 1, 0, 0]
/** Icons, bullets and rules are never worth OCR. */
const MIN_PIXELS = 32 * 32
const MAX_IMAGES_PER_PAGE = 20
/** pdf.js never delivers an image it failed to decode; do not wait for it forever. */
const OBJECT_WAIT_MS = 10_000

/** pdf.js ImageKind values. */
const GRAYSCALE_1BPP = 1
const RGB_24BPP = 2
const RGBA_32BPP = 3

interface DecodedImage {
  readonly width?: number
  readonly height?: number
  readonly kind?: number
  readonly data?: Uint8Array | Uint8ClampedArray
}

/**
 * The images a page draws that cover at least `minRatio` of its area, in drawing order, as raw
 * pixels. No canvas is involved: the operator list gives each image's transform (its drawn size
 * and orientation) and pdf.js has already decoded the pixels into `page.objs`.
 */
export async function pageImages(page: PDFPageProxy, minRatio: number): Promise<PageImage[]> {
  const ops = await pdfOps()
  const list = await page.getOperatorList()
  const [x0 = 0, y0 = 0, x1 = 0, y1 = 0] = page.view
  const pageArea = Math.abs((x1 - x0) * (y1 - y0)) || 1
  const found: PageImage[] = []
  const stack: Matrix[] = []
  let ctm: Matrix = IDENTITY
  for (let i = 0; i < list.fnArray.length && found.length < MAX_IMAGES_PER_PAGE; i++) {
    const fn = list.fnArray[i]
    const args: unknown[] = list.argsArray[i] ?? []
    if (fn === ops.save || fn === ops.beginGroup) {
      stack.push(ctm)
      const group = args[0] as { matrix?: unknown } | undefined
      if (fn === ops.beginGroup && isMatrix(group?.matrix)) ctm = multiply(ctm, group.matrix)
    } else if (
      fn === ops.restore ||
      fn === ops.endGroup ||
      fn === ops.paintFormXObjectEnd ||
      fn === ops.endAnnotation
    ) {
      ctm = stack.pop() ?? ctm
    } else if (fn === ops.transform && isMatrix(args)) {
      ctm = multiply(ctm, args)
    } else if (fn === ops.paintFormXObjectBegin) {
      stack.push(ctm)
      if (isMatrix(args[0])) ctm = multiply(ctm, args[0])
    } else if (fn === ops.beginAnnotation) {
      stack.push(ctm)
      if (isMatrix(args[2])) ctm = multiply(ctm, args[2])
      if (isMatrix(args[3])) ctm = multiply(ctm, args[3])
    } else if (fn === ops.paintImageXObject || fn === ops.paintInlineImageXObject || fn === ops.paintImageMaskXObject) {
      const ratio = Math.min(1, Math.abs(ctm[0] * ctm[3] - ctm[1] * ctm[2]) / pageArea)
      if (ratio < minRatio) continue
      // Image XObjects come as an object id; inline images as the image; masks as an image whose data is an id.
      const decoded = await decodedImage(page, args[0])
      const image = decoded ? toRawImage(decoded, fn === ops.paintImageMaskXObject) : null
      if (image) found.push({ image, ratio, ...orientation(ctm, page.rotate) })
    }
  }
  return found
}

async function decodedImage(page: PDFPageProxy, arg: unknown): Promise<DecodedImage | null> {
  if (typeof arg === 'string') return resolveObject(page, arg)
  if (typeof arg !== 'object' || arg === null) return null
  const image = arg as Omit<DecodedImage, 'data'> & { readonly data?: unknown }
  if (typeof image.data !== 'string') return image as DecodedImage
  const stored = await resolveObject(page, image.data)
  return stored ? { width: image.width, height: image.height, kind: image.kind, ...stored } : null
}

/** The decoded image pdf.js delivers for an operator-list id (it may arrive just after the list). */
function resolveObject(page: PDFPageProxy, id: string): Promise<DecodedImage | null> {
  const objects = id.startsWith('g_') ? page.commonObjs : page.objs
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(null), OBJECT_WAIT_MS)
    timer.unref()
    try {
      objects.get(id, (value: unknown) => {
        clearTimeout(timer)
        resolve((value as DecodedImage | null) ?? null)
      })
    } catch {
      clearTimeout(timer)
      resolve(null)
    }
  })
}

function toRawImage(decoded: DecodedImage, isMask: boolean): RawImage | null {
  const { width = 0, height = 0, data } = decoded
  if (!data || width * height < MIN_PIXELS) return null
  const bytes = new Uint8Array(data.buffer, data.byteOffset, data.byteLength)
  if (isMask || decoded.kind === GRAYSCALE_1BPP) {
    if (bytes.length < Math.ceil(width / 8) * height) return null
    return { data: unpackBits(bytes, width, height), width, height, channels: 1 }
  }
  const channels = decoded.kind === RGB_24BPP ? 3 : decoded.kind === RGBA_32BPP ? 4 : 0
  if (channels === 0 || bytes.length < width * height * channels) return null
  return { data: bytes, width, height, channels }
}

/**
 * 1-bit rows (padded to bytes) to 8-bit gray. Which bit value means ink differs between plain
 * 1-bit images and stencil masks, so the majority colour is taken as the paper (white).
 */
function unpackBits(bytes: Uint8Array, width: number, height: number): Uint8Array {
  const out = new Uint8Array(width * height)
  const rowBytes = Math.ceil(width / 8)
  let set = 0
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const bit = ((bytes[y * rowBytes + (x >> 3)] ?? 0) >> (7 - (x & 7))) & 1
      out[y * width + x] = bit
      set += bit
    }
  }
  const paper = set * 2 >= out.length ? 1 : 0
  for (let i = 0; i < out.length; i++) out[i] = out[i] === paper ? 255 : 0
  return out
}

/**
 * How to turn the pixels so they read as displayed. Pixel row 0 is the top of the image (unit
 * square v = 1); in display space (y down) the image's "right" is (a, -b) and its "down" (-c, d).
 */
function orientation(ctm: Matrix, pageRotation: number): { rotate: number; flip: boolean } {
  const [a, b, c, d] = ctm
  const quarter = ((Math.round(Math.atan2(-b, a) / (Math.PI / 2)) % 4) + 4) % 4
  const theta = (quarter * Math.PI) / 2
  // After a clockwise turn by theta the image's "down" should point at (-sin, cos).
  const flip = -c * -Math.sin(theta) + d * Math.cos(theta) < 0
  return { rotate: (quarter * 90 + (pageRotation || 0)) % 360, flip }
}

function isMatrix(value: unknown): value is Matrix {
  return (
    (Array.isArray(value) || ArrayBuffer.isView(value)) &&
    (value as ArrayLike<unknown>).length === 6 &&
    Array.from(value as ArrayLike<unknown>).every((n) => typeof n === 'number' && Number.isFinite(n))
  )
}

/** `m` applied inside `ctm` (PDF `cm`; pdf.js Util.transform). */
function multiply(ctm: Matrix, m: ArrayLike<number>): Matrix {
  const [a, b, c, d, e, f] = ctm
  const [m0 = 1, m1 = 0, m2 = 0, m3 = 1, m4 = 0, m5 = 0] = Array.from(m)
  return [a * m0 + c * m1, b * m0 + d * m1, a * m2 + c * m3, b * m2 + d * m3, a * m4 + c * m5 + e, b * m4 + d * m5 + f]
}
