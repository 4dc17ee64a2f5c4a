import { getDocumentProxy, getResolvedPDFJS } from 'unpdf'
import type { PDFDocumentProxy } from 'unpdf/pdfjs'
import { ingestErrors } from '../errors.js'

// pdf.js 5 (bundled by unpdf 1.7) compiles font data with ArrayBuffer#transferToFixedLength, which
// Node 20 lacks: without it every page whose operator list loads a font stops at the first text.
// The copy keeps the semantics pdf.js relies on (a buffer of the requested length); the original
// is simply left to the garbage collector instead of being detached.
const arrayBufferProto = ArrayBuffer.prototype as unknown as Record<string, unknown>
if (typeof arrayBufferProto.transferToFixedLength !== 'function') {
  Object.defineProperty(ArrayBuffer.prototype, 'transferToFixedLength', {
    configurable: true,
    writable: true,
    value(this: ArrayBuffer, length?: number): ArrayBuffer {
      const size = length ?? this.byteLength
      const copy = new ArrayBuffer(size)
      new Uint8Array(copy).set(new Uint8Array(this, 0, Math.min(size, this.byteLength)))
      return copy
    },
  })
}

/** Images larger than this many pixels are not decoded (a 300 dpi A3 scan is about 17 M). */
const MAX_IMAGE_PIXELS = 50_000_000

/**
 * Opens a PDF with the single pdf.js copy of the process (unpdf's), eval disabled and warnings
 * silenced. A PDF that needs a user password → `passwordProtected`; anything unreadable →
 * `corrupt('PDF', …)`. Encrypted PDFs with an empty user password open normally.
 */
export async function openPdf(data: Uint8Array): Promise<PDFDocumentProxy> {
  try {
    return await getDocumentProxy(data, {
      isEvalSupported: false,
      verbosity: 0,
      maxImageSize: MAX_IMAGE_PIXELS,
      isOffscreenCanvasSupported: false,
      isImageDecoderSupported: false,
      stopAtErrors: false,
    })
  } catch (error) {
    if (errorName(error) === 'PasswordException') throw ingestErrors.passwordProtected()
    throw ingestErrors.corrupt('PDF', pdfMessage(error), error)
  }
}

/** pdf.js operator codes (`OPS`), from the same pdf.js copy that opened the document. */
export async function pdfOps(): Promise<Readonly<Record<string, number>>> {
  const pdfjs = await getResolvedPDFJS()
  return pdfjs.OPS as Readonly<Record<string, number>>
}

export function errorName(error: unknown): string {
  return error instanceof Error || (typeof error === 'object' && error !== null && 'name' in error)
    ? String((error as { name: unknown }).name)
    : ''
}

export function pdfMessage(error: unknown): string {
  const message =
    typeof error === 'object' && error !== null && 'message' in error
      ? String((error as { message: unknown }).message)
      : String(error)
  return message.replace(/\.$/, '') || 'unreadable PDF structure'
}
