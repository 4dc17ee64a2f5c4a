/**
 * What every parser produces: the document's content as ordered blocks, each with the provenance
 * a citation needs (page, slide, sheet and rows). Chunking works on this, never on raw formats.
 */

/** Where a block sits in its source. Pages and slides are 1-based; rows are 1-based source rows. */
export interface Provenance {
  /** PDF page, PPTX/ODP slide; absent for formats without pages (text, csv, html…). */
  readonly page?: number
  /** Spreadsheet sheet name (XLSX/ODS). */
  readonly sheet?: string
}

export interface HeadingBlock extends Provenance {
  readonly kind: 'heading'
  /** 1 = top level. */
  readonly level: number
  readonly text: string
}

export interface ParagraphBlock extends Provenance {
  readonly kind: 'paragraph'
  readonly text: string
}

export interface TableRow {
  /** Row number in the source (csv line of the record, spreadsheet row), 1-based. */
  readonly rowNumber: number
  readonly cells: readonly string[]
}

export interface TableBlock extends Provenance {
  readonly kind: 'table'
  /**
   * Column headers repeated in every chunk of the table, one per column (a header over several
   * lines composed per column: "Three Months Ended July 2, 2023"); null when the table has none.
   */
  readonly header: readonly string[] | null
  readonly rows: readonly TableRow[]
  /** What the table is, as printed above or around it (a caption, a statement's name, a lead-in line). */
  readonly title?: string
  /** The unit its figures are in, as printed: "(in millions)", "en milliers d'euros". */
  readonly unit?: string
}

/** Text read from an image (OCR), standing alone or embedded in a page. */
export interface ImageBlock extends Provenance {
  readonly kind: 'image'
  /** Stable within the document, e.g. `p3-img1`; becomes the chunk metadata `image_id`. */
  readonly imageId: string
  readonly text: string
}

export type Block = HeadingBlock | ParagraphBlock | TableBlock | ImageBlock

export interface ParsedDocument {
  readonly blocks: readonly Block[]
  /** `doc_pages_count`: pages, slides or sheets; 1 for formats without pages. */
  readonly pageCount: number
  /** The document's own title when it has one (PDF info, HTML <title>, e-mail subject, first heading). */
  readonly title?: string
  /** `image` for pictures read by OCR, `text` otherwise (spec 2.7 `document_type`). */
  readonly documentType: 'text' | 'image'
}

/** Options a user set on the document (upload or metadata patch). */
export interface ParseOptions {
  readonly loaderType: 'STANDARD' | 'ADVANCED'
  readonly csvDelimiter: 'comma' | 'semicolon' | 'tab' | null
  /** Images smaller than this share of the page area are not OCR'd (ADVANCED). */
  readonly imageMinSizeRatio: number
}

/** Limits that protect the service from one hostile or huge file. */
export interface IngestLimits {
  readonly maxPages: number
  /** Zip-based formats (docx, pptx, xlsx, odt…): checked before any parser opens the archive. */
  readonly maxZipEntries: number
  readonly maxZipUncompressedBytes: number
  readonly maxZipRatio: number
  /** Wall-clock budget of one document, in milliseconds. */
  readonly timeBudgetMs: number
  /** Heap of the thread that parses one document, in MiB. */
  readonly memoryMb: number
}

export interface ParseInput {
  readonly path: string
  /** Sniffed at upload. */
  readonly mimeType: string
  readonly filename: string
  readonly options: ParseOptions
  readonly limits: IngestLimits
  /** OCR languages, tesseract codes (`eng`, `fra`…). */
  readonly ocrLanguages: readonly string[]
  /** MuPDF's `mutool` command for the text layer of PDFs; absent or null: pdf.js reads it. */
  readonly mutool?: string | null
  /** LibreOffice's `soffice`, to convert legacy Office formats (.xls, .xlsb, .ppt); absent or null: not installed. */
  readonly soffice?: string | null
  /** Reports progress in pages (or other units) done of total. */
  readonly progress: (done: number, total: number) => void
}

/** A parser for one format family. */
export interface Parser {
  /** MIME types it reads (as sniffed at upload). */
  readonly mimeTypes: readonly string[]
  parse(input: ParseInput): Promise<ParsedDocument>
}
