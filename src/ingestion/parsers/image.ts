import sharp from 'sharp'
import { IngestError, ingestErrors } from '../errors.js'
import type { Block, ParsedDocument, ParseInput, Parser } from '../model.js'
import { type OcrEngine, type OcrInput, sharedOcr } from '../ocr/ocr.js'
import { decodeBmp } from './bmp.js'
import { IMAGE_TYPES } from './formats.js'
import { readSource } from './source.js'
import { paragraphBlocks } from './text-blocks.js'

/** Formats whose extra pages are document pages; GIF and WebP frames are animation. */
const PAGED_FORMATS = new Set(['tiff'])
const MAX_INPUT_PIXELS = 100_000_000

/**
 * Pictures read by OCR (`document_type` `image`): paragraphs split at blank lines. A multi-page
 * TIFF is read page by page, blocks carrying their page; a single picture has no page. A picture
 * without recognisable text gives a document with no blocks, not an error.
 */
export function createImageParser(ocr: OcrEngine = sharedOcr): Parser {
  return { mimeTypes: IMAGE_TYPES, parse: (input) => parseImage(input, ocr) }
}

export const imageParser: Parser = createImageParser()

async function parseImage(input: ParseInput, ocr: OcrEngine): Promise<ParsedDocument> {
  const bytes = await readSource(input.path)
  let image: OcrInput = bytes
  let pages = 1
  try {
    if (isBmp(bytes)) {
      image = decodeBmp(bytes)
    } else {
      const meta = await sharp(bytes, { limitInputPixels: MAX_INPUT_PIXELS }).metadata()
      if (meta.format && PAGED_FORMATS.has(meta.format)) pages = Math.max(1, meta.pages ?? 1)
    }
  } catch (error) {
    throw unreadable(error)
  }
  if (pages > input.limits.maxPages) {
    throw ingestErrors.limit(`the image has ${pages} pages, more than the limit of ${input.limits.maxPages}`)
  }
  const blocks: Block[] = []
  for (let page = 0; page < pages; page++) {
    try {
      const { text } = await ocr.recognize(image, input.ocrLanguages, { page, sidewaysRetry: true })
      blocks.push(...paragraphBlocks(text, pages > 1 ? page + 1 : undefined))
    } catch (error) {
      if (error instanceof IngestError) throw error
      throw unreadable(error)
    }
    input.progress(page + 1, pages)
  }
  return { blocks, pageCount: pages, documentType: 'image' }
}

/** sharp's prebuilt libvips has no BMP loader; those are decoded here. */
function isBmp(bytes: Buffer): boolean {
  return bytes.length >= 2 && bytes[0] === 0x42 && bytes[1] === 0x4d
}

function unreadable(error: unknown): IngestError {
  const message = error instanceof Error ? error.message : String(error)
  if (/pixel limit/i.test(message)) {
    return ingestErrors.limit(`the image has more than ${MAX_INPUT_PIXELS / 1_000_000} million pixels`)
  }
  return ingestErrors.corrupt('image', message.split('\n')[0] || 'unreadable image', error)
}
