import mammoth from 'mammoth'
import sharp from 'sharp'
import { IngestError } from '../errors.js'
import type { ParsedDocument, ParseInput, Parser } from '../model.js'
import { type OcrEngine, sharedOcr } from '../ocr/ocr.js'
import { docxHtmlBlocks } from './docx-html.js'
import { openDocxPackage } from './docx-package.js'
import { toIngestError } from './failures.js'
import { DOCX } from './formats.js'
import { guardZip } from './zip-guard.js'

/**
 * A DOCX has no fixed page size in pixels, so an image's share of "the page" is estimated against
 * a Letter/A4 page at 96 dpi (816 × 1056 px): with the default ratio 0.1 an image needs ~86,000
 * pixels (about 300 × 290) to be OCR'd.
 */
const PAGE_PIXELS = 816 * 1056
const IMAGE_SRC = 'lantern-image:'

/**
 * DOCX through mammoth's HTML (headings keep their level, tables keep rows, lists become
 * paragraphs; ruby reads `base(reading)`, see docx-package.ts). The zip guard runs first. With the ADVANCED loader, embedded images large enough
 * (see PAGE_PIXELS) are OCR'd into image blocks `img<n>` where they appear. DOCX has no reliable
 * page numbers, so `pageCount` is 1 and blocks carry no page.
 */
export function createDocxParser(ocr: OcrEngine = sharedOcr): Parser {
  return { mimeTypes: [DOCX], parse: (input) => parseDocx(input, ocr) }
}

export const docxParser: Parser = createDocxParser()

async function parseDocx(input: ParseInput, ocr: OcrEngine): Promise<ParsedDocument> {
  await guardZip(input.path, input.limits, 'DOCX')
  const advanced = input.options.loaderType === 'ADVANCED'
  const images = new Map<string, { imageId: string; text: string }>()
  let seen = 0
  let docx: Awaited<ReturnType<typeof openDocxPackage>> | undefined
  try {
    docx = await openDocxPackage(input.path)
    // mammoth reads the package through `file` (its unzip accepts one) so ruby can be rewritten first.
    const result = await mammoth.convertToHtml({ file: docx.file } as unknown as { path: string }, {
      externalFileAccess: false,
      ignoreEmptyParagraphs: true,
      // Always replace mammoth's default data-URI images: the bytes are only read when OCR'd.
      convertImage: mammoth.images.imgElement(async (image) => {
        seen++
        if (!advanced) return { src: '' }
        const imageId = `img${seen}`
        const text = await ocrImage(await image.readAsBuffer(), input, ocr)
        if (text) images.set(`${IMAGE_SRC}${seen}`, { imageId, text })
        return { src: `${IMAGE_SRC}${seen}` }
      }),
    })
    const blocks = docxHtmlBlocks(result.value, images)
    const title = blocks.find((block) => block.kind === 'heading')?.text
    return { blocks, pageCount: 1, documentType: 'text', ...(title ? { title } : {}) }
  } catch (error) {
    throw toIngestError('DOCX', error)
  } finally {
    docx?.close()
  }
}

/** OCR text of an embedded image big enough to matter; '' for small or unreadable ones (EMF, WMF…). */
async function ocrImage(bytes: Buffer, input: ParseInput, ocr: OcrEngine): Promise<string> {
  try {
    const { width = 0, height = 0 } = await sharp(bytes).metadata()
    if (width * height < input.options.imageMinSizeRatio * PAGE_PIXELS || width * height < 32 * 32) return ''
    return (await ocr.recognize(bytes, input.ocrLanguages)).text
  } catch (error) {
    if (error instanceof IngestError && !error.permanent) throw error
    return ''
  }
}
