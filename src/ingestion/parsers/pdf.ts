import type { PDFDocumentProxy, PDFPageProxy } from 'unpdf/pdfjs'
import { IngestError, ingestErrors } from '../errors.js'
import type { Block, ParsedDocument, ParseInput, Parser } from '../model.js'
import { type OcrEngine, sharedOcr } from '../ocr.js'
import { annotationParagraphs } from './pdf-annotations.js'
import { type PageImage, pageImages } from './pdf-images.js'
import { fontProfile, type PdfLine, pageBlocks, pageLines, visibleChars } from './pdf-layout.js'
import { openPdf, pdfMessage } from './pdf-runtime.js'
import { readSource } from './source.js'
import { imageBlock, paragraphBlocks } from './text-blocks.js'

/** A page with fewer visible characters than this has no usable text layer (a scan). */
const MIN_PAGE_CHARS = 20
/**
 * On a page without text every picture but specks is the content (scans are sometimes stored as
 * strips or tiles), so `imageMinSizeRatio` — meant to skip logos beside text — does not apply.
 */
const SCANNED_PAGE_MIN_RATIO = 0.01
const BACKGROUND_RATIO = 0.9

interface PageContent {
  readonly lines: readonly PdfLine[]
  /** OCR blocks that follow the page's text (a scan's paragraphs, or image blocks). */
  readonly extra: readonly Block[]
}

/**
 * PDF through unpdf's pdf.js: per-page text in reading order (lines, paragraphs, headings by font
 * size, gap-separated rows as tables), every block carrying its page. Pages without usable text
 * are OCR'd from the images they draw (all but specks); with the ADVANCED loader, images covering
 * at least `imageMinSizeRatio` of a text page (but not the whole page: a background or the scan
 * under a text layer) become `image` blocks `p<page>-img<n>`. Page cap, password and damage end in
 * a permanent IngestError. Vector-drawn text without a text layer is not read (no canvas renderer
 * in the process).
 */
export function createPdfParser(ocr: OcrEngine = sharedOcr): Parser {
  return { mimeTypes: ['application/pdf'], parse: (input) => parsePdf(input, ocr) }
}

export const pdfParser: Parser = createPdfParser()

async function parsePdf(input: ParseInput, ocr: OcrEngine): Promise<ParsedDocument> {
  const pdf = await openPdf(new Uint8Array(await readSource(input.path)))
  try {
    const total = pdf.numPages
    if (total > input.limits.maxPages) {
      throw ingestErrors.limit(`the PDF has ${total} pages, more than the limit of ${input.limits.maxPages}`)
    }
    const title = await readTitle(pdf)
    const forms = await hasFormFields(pdf)
    const pages: PageContent[] = []
    let readable = 0
    for (let n = 1; n <= total; n++) {
      const content = await readPage(pdf, n, input, ocr, forms)
      if (content) readable++
      pages.push(content ?? { lines: [], extra: [] })
      input.progress(n, total)
    }
    if (total > 0 && readable === 0) throw ingestErrors.corrupt('PDF', 'no page could be read')
    const fonts = fontProfile(pages.flatMap((page) => page.lines))
    const blocks = pages.flatMap((page, i) => [...pageBlocks(page.lines, i + 1, fonts), ...page.extra])
    return { blocks, pageCount: total, documentType: 'text', ...(title ? { title } : {}) }
  } catch (error) {
    if (error instanceof IngestError) throw error
    throw ingestErrors.corrupt('PDF', pdfMessage(error), error)
  } finally {
    await pdf.destroy().catch(() => undefined)
  }
}

/** A page's text and OCR; null when pdf.js cannot read the page at all (damaged page object). */
async function readPage(
  pdf: PDFDocumentProxy,
  n: number,
  input: ParseInput,
  ocr: OcrEngine,
  forms: boolean,
): Promise<PageContent | null> {
  let page: PDFPageProxy
  try {
    page = await pdf.getPage(n)
  } catch {
    return null
  }
  try {
    let lines: readonly PdfLine[]
    try {
      lines = pageLines((await page.getTextContent()).items)
    } catch {
      lines = []
    }
    const scanned = visibleChars(lines) < MIN_PAGE_CHARS
    // Form fields and other annotations are drawn over the page (and over a scan): their text
    // follows the page's. Asked for only in a document with form fields or on a page with hardly
    // any text: pdf.js's getAnnotations costs about 8 ms per page of a filing full of links.
    const annotations = forms || scanned ? await annotationParagraphs(page, n).catch(() => []) : []
    if (!scanned && input.options.loaderType !== 'ADVANCED') return { lines, extra: annotations }
    const minRatio = scanned
      ? Math.min(SCANNED_PAGE_MIN_RATIO, input.options.imageMinSizeRatio)
      : input.options.imageMinSizeRatio
    const drawn = await pageImages(page, minRatio).catch(() => [])
    // On a page with text, a picture covering the whole page is a background or the scan under an
    // OCR text layer: its words are already in the text.
    const images = scanned ? drawn : drawn.filter((image) => image.ratio < BACKGROUND_RATIO)
    const texts: string[] = []
    for (const image of images) texts.push(await readImage(ocr, image, input.ocrLanguages, scanned))
    if (scanned) {
      const text = texts.filter(Boolean).join('\n\n')
      // The scan's OCR replaces the few characters of text layer (page numbers, stamps) it already contains.
      return text ? { lines: [], extra: [...paragraphBlocks(text, n), ...annotations] } : { lines, extra: annotations }
    }
    const extra = texts.flatMap((text, i) => imageBlock(`p${n}-img${i + 1}`, text, n) ?? [])
    return { lines, extra: [...extra, ...annotations] }
  } finally {
    page.cleanup()
  }
}

/**
 * OCR text of one drawn image. An image OCR cannot read (or reads too slowly) is skipped; a broken
 * OCR engine (transient) fails the document so it is retried.
 */
async function readImage(
  ocr: OcrEngine,
  image: PageImage,
  languages: readonly string[],
  wholePage: boolean,
): Promise<string> {
  try {
    const options = { rotate: image.rotate, flip: image.flip, ...(wholePage ? { sidewaysRetry: true } : {}) }
    const result = await ocr.recognize(image.image, languages, options)
    return result.text
  } catch (error) {
    if (error instanceof IngestError && !error.permanent) throw error
    return ''
  }
}

async function readTitle(pdf: PDFDocumentProxy): Promise<string | undefined> {
  try {
    const { info, metadata } = (await pdf.getMetadata()) as unknown as {
      info?: Record<string, unknown>
      metadata?: { get(name: string): unknown } | null
    }
    const candidates = [info?.Title, metadata?.get('dc:title')]
    for (const candidate of candidates) {
      if (typeof candidate === 'string' && candidate.trim()) return candidate.replace(/\s+/gu, ' ').trim()
    }
  } catch {
    // A damaged info dictionary only costs the title.
  }
  return undefined
}

/** Whether the document has interactive form fields (read once: cheap, unlike per-page annotations). */
async function hasFormFields(pdf: PDFDocumentProxy): Promise<boolean> {
  try {
    const fields = await pdf.getFieldObjects()
    return fields !== null && Object.keys(fields).length > 0
  } catch {
    return false
  }
}
