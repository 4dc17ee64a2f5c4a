import type { PDFDocumentProxy, PDFPageProxy } from 'unpdf/pdfjs'
import { IngestError, ingestErrors } from '../errors.js'
import type { Block, ParsedDocument, ParseInput, Parser } from '../model.js'
import { type OcrEngine, sharedOcr } from '../ocr/ocr.js'
import { PDF } from './formats.js'
import { annotationParagraphs } from './pdf-annotations.js'
import { type PageImage, pageImages } from './pdf-images.js'
import { layoutPages, pageLines, visibleChars } from './pdf-layout.js'
import type { PdfLine } from './pdf-lines.js'
import {
  type MutoolDocument,
  MutoolFailure,
  type MutoolPage,
  mutoolOpen,
  mutoolPages,
  mutoolTimeoutMs,
  PAGES_PER_RUN,
} from './pdf-mutool.js'
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
 * PDF: per-page text in reading order (lines, paragraphs, headings by font size, gap-separated
 * rows as tables), every block carrying its page. The text layer comes from MuPDF's `mutool` when
 * the machine has it (`input.mutool`), else from unpdf's pdf.js; both feed the same layout rules.
 * Pages without usable text are OCR'd from the images they draw (all but specks); with the
 * ADVANCED loader, images covering at least `imageMinSizeRatio` of a text page (but not the whole
 * page: a background or the scan under a text layer) become `image` blocks `p<page>-img<n>`.
 * Pictures are always found by pdf.js, opened only for the pages that need it. Page cap, password
 * and damage end in a permanent IngestError. Vector-drawn text without a text layer is not read
 * (no canvas renderer in the process).
 */
export function createPdfParser(ocr: OcrEngine = sharedOcr): Parser {
  return { mimeTypes: [PDF], parse: (input) => parsePdf(input, ocr) }
}

export const pdfParser: Parser = createPdfParser()

async function parsePdf(input: ParseInput, ocr: OcrEngine): Promise<ParsedDocument> {
  let damage: string | null = null
  if (input.mutool) {
    try {
      return await parseWithMutool(input, input.mutool, ocr)
    } catch (error) {
      // A document MuPDF cannot open or draw is read by pdf.js, which has its own repairs and
      // gives the reasons users already know.
      if (!(error instanceof MutoolFailure)) throw error
      damage = error.damage
    }
  }
  return parseWithPdfjs(input, ocr, damage)
}

/** `damage`: what MuPDF found wrong with the file, if it looked (see parsedPdf). */
async function parseWithPdfjs(input: ParseInput, ocr: OcrEngine, damage: string | null): Promise<ParsedDocument> {
  const pdf = await openPdf(new Uint8Array(await readSource(input.path)))
  try {
    const total = pdf.numPages
    checkPageCap(total, input)
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
    return parsedPdf(pages, title, damage)
  } catch (error) {
    if (error instanceof IngestError) throw error
    throw ingestErrors.corrupt('PDF', pdfMessage(error), error)
  } finally {
    await pdf.destroy().catch(() => undefined)
  }
}

/**
 * The text layer from mutool, a batch of pages per run; a page that needs its pictures (a scan,
 * or any page with the ADVANCED loader) is then completed from pdf.js. MuPDF draws form fields and
 * annotations with the page, so their text is already in its lines (pdf.js adds them to scans).
 */
async function parseWithMutool(input: ParseInput, command: string, ocr: OcrEngine): Promise<ParsedDocument> {
  const budget = input.limits.timeBudgetMs
  // The first pages are dropped once laid out, like every later batch.
  const opened: { document: MutoolDocument; pages?: MutoolPage[] } = await mutoolOpen(
    command,
    input.path,
    PAGES_PER_RUN,
    input.limits.maxPages,
    Math.min(budget, mutoolTimeoutMs(PAGES_PER_RUN)),
  )
  const { pageCount: total, title } = opened.document
  // pdf.js, for pictures: opened at the first page that needs them; null when it cannot open the
  // file, whose text MuPDF read all the same.
  let pdf: Promise<PDFDocumentProxy | null> | undefined
  const openForPictures = async () => openPdf(new Uint8Array(await readSource(input.path))).catch(() => null)
  try {
    const pages: PageContent[] = []
    for (let first = 1; first <= total; first += PAGES_PER_RUN) {
      const last = Math.min(total, first + PAGES_PER_RUN - 1)
      const timeout = Math.min(budget, mutoolTimeoutMs(last - first + 1))
      const batch = opened.pages ?? (await mutoolPages(command, input.path, first, last, timeout))
      opened.pages = undefined
      for (const [i, items] of batch.entries()) {
        const n = first + i
        const lines = pageLines(items)
        let content: PageContent | null = null
        if (needsPictures(lines, input)) {
          pdf ??= openForPictures()
          const pictures = await pdf
          if (pictures) content = await readPage(pictures, n, input, ocr, false, lines)
        }
        pages.push(content ?? { lines, extra: [] })
        input.progress(n, total)
      }
    }
    return parsedPdf(pages, title ?? undefined, opened.document.damage)
  } catch (error) {
    if (error instanceof IngestError || error instanceof MutoolFailure) throw error
    throw ingestErrors.corrupt('PDF', pdfMessage(error), error)
  } finally {
    await (await pdf)?.destroy().catch(() => undefined)
  }
}

/** A page without usable text is read from its pictures; with the ADVANCED loader, every page's pictures are. */
function needsPictures(lines: readonly PdfLine[], input: ParseInput): boolean {
  return visibleChars(lines) < MIN_PAGE_CHARS || input.options.loaderType === 'ADVANCED'
}

function checkPageCap(total: number, input: ParseInput): void {
  if (total > input.limits.maxPages) {
    throw ingestErrors.limit(`the PDF has ${total} pages, more than the limit of ${input.limits.maxPages}`)
  }
}

/**
 * Headings are ranked against the whole document's font sizes, and tables go on across pages, so
 * blocks come after all pages (see layoutPages). A
 * document that gives nothing at all is blank, unless MuPDF found it damaged (`damage`): then
 * nothing was read because it is broken, and saying PROCESSED with no chunk would hide that.
 */
function parsedPdf(pages: readonly PageContent[], title: string | undefined, damage: string | null): ParsedDocument {
  const laid = layoutPages(pages.map((page) => page.lines))
  const blocks = pages.flatMap((page, i) => [...(laid[i] ?? []), ...page.extra])
  if (blocks.length === 0 && damage) throw ingestErrors.corrupt('PDF', `nothing in it could be read (${damage})`)
  return { blocks, pageCount: pages.length, documentType: 'text', ...(title ? { title } : {}) }
}

/**
 * A page's text (pdf.js's, unless `textLayer` was read elsewhere) and OCR; null when pdf.js cannot
 * read the page at all (damaged page object).
 */
async function readPage(
  pdf: PDFDocumentProxy,
  n: number,
  input: ParseInput,
  ocr: OcrEngine,
  forms: boolean,
  textLayer?: readonly PdfLine[],
): Promise<PageContent | null> {
  return withPage(pdf, n, async (page) => {
    const lines = textLayer ?? (await textLines(page))
    const scanned = visibleChars(lines) < MIN_PAGE_CHARS
    const content = needsPictures(lines, input) ? await picturesOf(page, n, lines, input, ocr) : { lines, extra: [] }
    // Form fields and other annotations are drawn over the page (and over a scan): their text
    // follows the page's. pdf.js's text layer leaves it out, so it is asked for in a document with
    // form fields or on a page with hardly any text (pdf.js's getAnnotations costs about 8 ms per
    // page of a filing full of links); MuPDF's lines hold it, lost only where OCR replaced them.
    const readAnnotations = textLayer ? content.lines !== lines : forms || scanned
    const annotations = readAnnotations ? await annotationParagraphs(page, n).catch(() => []) : []
    return { lines: content.lines, extra: [...content.extra, ...annotations] }
  })
}

async function textLines(page: PDFPageProxy): Promise<readonly PdfLine[]> {
  try {
    return pageLines((await page.getTextContent()).items)
  } catch {
    return []
  }
}

async function withPage<T>(
  pdf: PDFDocumentProxy,
  n: number,
  read: (page: PDFPageProxy) => Promise<T>,
): Promise<T | null> {
  let page: PDFPageProxy
  try {
    page = await pdf.getPage(n)
  } catch {
    return null
  }
  try {
    return await read(page)
  } finally {
    page.cleanup()
  }
}

/**
 * OCR of the pictures a page draws: a page without usable text is replaced by what its pictures
 * say (the scan's few characters of text layer, page numbers or stamps, are in it already);
 * otherwise large pictures become image blocks after the text.
 */
async function picturesOf(
  page: PDFPageProxy,
  n: number,
  lines: readonly PdfLine[],
  input: ParseInput,
  ocr: OcrEngine,
): Promise<PageContent> {
  const scanned = visibleChars(lines) < MIN_PAGE_CHARS
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
    return text ? { lines: [], extra: paragraphBlocks(text, n) } : { lines, extra: [] }
  }
  const extra = texts.flatMap((text, i) => imageBlock(`p${n}-img${i + 1}`, text, n) ?? [])
  return { lines, extra }
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
