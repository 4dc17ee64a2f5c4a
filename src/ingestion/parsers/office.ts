import { type OfficeParserAST, parseOffice } from 'officeparser'
import sharp from 'sharp'
import yauzl from 'yauzl'
import { IngestError, ingestErrors } from '../errors.js'
import type { Block, ParseInput } from '../model.js'
import type { OcrEngine } from '../ocr/ocr.js'
import { toIngestError } from './failures.js'
import { type AstNode, astBlocks, chartNames } from './office-ast.js'
import { readCharts } from './pptx-charts.js'
import { readSource } from './source.js'

/**
 * Slides and ODF pages have no pixel size; an image's share of the page is estimated against a
 * 1280 × 720 px slide (a 16:9 slide at 96 dpi), like DOCX does against a Letter page.
 */
const PAGE_PIXELS = 1280 * 720

export interface OfficeDocument {
  readonly blocks: Block[]
  readonly content: readonly AstNode[]
  readonly title?: string
}

/**
 * Parses an ODF, PPTX or RTF file with officeparser 7.8, configured so it never OCRs, downloads or
 * loads pdf.js: OCR of embedded images (ADVANCED loader) is ours. officeparser's own decompression
 * limits mirror the zip guard's, as a second line against archives that lie about their sizes.
 * Every failure is an IngestError.
 */
export async function parseOfficeFile(
  input: ParseInput,
  fileType: 'pptx' | 'odp' | 'odt' | 'rtf',
  format: string,
  ocr: OcrEngine,
): Promise<OfficeDocument> {
  const bytes = await readSource(input.path)
  const advanced = input.options.loaderType === 'ADVANCED'
  let ast: OfficeParserAST
  try {
    ast = await parseOffice(bytes, {
      fileType,
      ocr: false,
      extractAttachments: advanced,
      ignoreNotes: false,
      ignoreComments: true,
      ignoreHeadersAndFooters: true,
      ignoreSlideMasters: true,
      includeRawContent: false,
      outputErrorToConsole: false,
      onWarning: () => undefined,
      decompressionLimits: {
        maxUncompressedBytes: input.limits.maxZipUncompressedBytes,
        maxZipEntries: input.limits.maxZipEntries,
      },
    })
  } catch (error) {
    // An encrypted ODF file's XML is ciphertext: the parser sees it as damaged.
    if ((fileType === 'odt' || fileType === 'odp') && (await odfEncrypted(input.path))) {
      throw ingestErrors.passwordProtected(format)
    }
    throw officeError(format, error)
  }
  const images = advanced ? await ocrAttachments(ast, input, ocr) : new Map<string, string>()
  const content = ast.content as unknown as readonly AstNode[]
  // officeparser reads chart parts only with its attachments (all images too): charts are read here.
  // A chart part that cannot be read costs its chart, not the deck.
  const charts =
    fileType === 'pptx' ? await readCharts(input.path, chartNames(content)).catch(() => new Map()) : new Map()
  const blocks = astBlocks(content, images, charts)
  const title = ast.metadata?.title?.trim() || blocks.find((block) => block.kind === 'heading')?.text
  return { blocks, content, ...(title ? { title } : {}) }
}

async function ocrAttachments(ast: OfficeParserAST, input: ParseInput, ocr: OcrEngine): Promise<Map<string, string>> {
  const texts = new Map<string, string>()
  for (const attachment of ast.attachments ?? []) {
    if (attachment.type !== 'image' || !attachment.data) continue
    try {
      const bytes = Buffer.from(attachment.data, 'base64')
      const { width = 0, height = 0 } = await sharp(bytes).metadata()
      if (width * height < Math.max(input.options.imageMinSizeRatio * PAGE_PIXELS, 32 * 32)) continue
      const { text } = await ocr.recognize(bytes, input.ocrLanguages)
      if (text) texts.set(attachment.name, text)
    } catch (error) {
      // An image sharp cannot read (EMF, WMF, SVG…) or too slow to read is skipped; a broken OCR engine is not.
      if (error instanceof IngestError && !error.permanent) throw error
    }
  }
  return texts
}

function officeError(format: string, error: unknown): IngestError {
  const code = (error as { officeIssue?: { code?: string } } | null)?.officeIssue?.code
  const message = error instanceof Error ? error.message : String(error)
  if (code === 'ZIP_SIZE_LIMIT_EXCEEDED' || code === 'ZIP_ENTRY_COUNT_LIMIT_EXCEEDED') {
    return ingestErrors.limit(`the ${format} archive is too large to unpack (${message})`)
  }
  return toIngestError(format, error)
}

/** Largest manifest read; real ones are a few KB. */
const MAX_MANIFEST_BYTES = 1024 * 1024

/** Whether an ODF package declares encrypted entries (`manifest:encryption-data` in its manifest). */
async function odfEncrypted(path: string): Promise<boolean> {
  let zip: yauzl.ZipFile | undefined
  try {
    zip = await yauzl.openPromise(path, { lazyEntries: true, autoClose: false, strictFileNames: false })
    for await (const entry of zip.eachEntry()) {
      if (entry.fileName !== 'META-INF/manifest.xml') continue
      if (entry.uncompressedSize > MAX_MANIFEST_BYTES) return false
      const chunks: Buffer[] = []
      for await (const chunk of await zip.openReadStreamPromise(entry)) chunks.push(chunk as Buffer)
      return Buffer.concat(chunks).toString('utf8').includes('encryption-data')
    }
    return false
  } catch {
    return false
  } finally {
    zip?.close()
  }
}
