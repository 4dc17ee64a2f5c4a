import { ingestErrors } from '../errors.js'
import type { Parser } from '../model.js'
import {
  CFB,
  CSV_TYPES,
  DOC,
  DOCX,
  EMAIL_TYPES,
  EPUB,
  HTML_TYPES,
  IMAGE_TYPES,
  LEGACY_OFFICE_TYPES,
  MARKDOWN_TYPES,
  MSG,
  ODP,
  ODS_TYPES,
  ODT,
  PDF,
  PPTX,
  RTF_TYPES,
  TEXT_TYPES,
  XLSX_TYPES,
} from './formats.js'

/** A parser known by the MIME types it reads, its module loaded at its first document. */
interface ParserFamily {
  readonly mimeTypes: readonly string[]
  readonly load: () => Promise<Parser>
}

/**
 * Every parser, one per format family; lookup is by the MIME type sniffed at upload. A parser's
 * module (and its libraries: ExcelJS, mailparser, cheerio, mammoth…) is loaded when a document
 * needs it: a processing thread starts in about a third of the time, and one that reads only PDFs
 * never holds the others.
 */
const PARSERS: readonly ParserFamily[] = [
  { mimeTypes: [...XLSX_TYPES, ...ODS_TYPES], load: async () => (await import('./spreadsheet.js')).spreadsheetParser },
  { mimeTypes: CSV_TYPES, load: async () => (await import('./csv.js')).csvParser },
  { mimeTypes: HTML_TYPES, load: async () => (await import('./html.js')).htmlParser },
  { mimeTypes: MARKDOWN_TYPES, load: async () => (await import('./markdown.js')).markdownParser },
  { mimeTypes: TEXT_TYPES, load: async () => (await import('./text.js')).textParser },
  // E-mail and Outlook items read their attachments with the parsers given here, so neither imports the registry.
  {
    mimeTypes: EMAIL_TYPES,
    load: async () => (await import('./email.js')).createEmailParser({ parserFor, supportedMimeTypes }),
  },
  { mimeTypes: [PDF], load: async () => (await import('./pdf.js')).pdfParser },
  { mimeTypes: IMAGE_TYPES, load: async () => (await import('./image.js')).imageParser },
  { mimeTypes: [DOCX], load: async () => (await import('./docx.js')).docxParser },
  { mimeTypes: [PPTX, ODP], load: async () => (await import('./pptx.js')).presentationParser },
  { mimeTypes: [ODT], load: async () => (await import('./odf-text.js')).odtParser },
  { mimeTypes: RTF_TYPES, load: async () => (await import('./rtf.js')).rtfParser },
  { mimeTypes: LEGACY_OFFICE_TYPES, load: async () => (await import('./legacy-office.js')).legacyOfficeParser },
  { mimeTypes: [DOC], load: async () => (await import('./doc.js')).docParser },
  { mimeTypes: [EPUB], load: async () => (await import('./epub.js')).epubParser },
  {
    mimeTypes: [MSG],
    load: async () => (await import('./msg.js')).createMsgParser({ parserFor, supportedMimeTypes }),
  },
]

/**
 * Formats that are not read but recognised, to fail with a better reason than "unsupported" (an
 * encrypted OOXML file is a CFB container): not in supportedMimeTypes.
 */
const RECOGNISERS: readonly ParserFamily[] = [
  { mimeTypes: [CFB], load: async () => (await import('./cfb.js')).cfbParser },
]

function familyOf(mimeType: string): ParserFamily {
  const family = [...PARSERS, ...RECOGNISERS].find((p) => p.mimeTypes.includes(mimeType))
  if (!family) throw ingestErrors.unsupported(mimeType)
  return family
}

/** The parser for a MIME type, loaded at its first parse; throws a permanent IngestError for an unsupported one. */
export function parserFor(mimeType: string): Parser {
  const family = familyOf(mimeType)
  return { mimeTypes: family.mimeTypes, parse: async (input) => (await family.load()).parse(input) }
}

/** The parser module's own parser for a MIME type, loaded now. */
export function loadParserFor(mimeType: string): Promise<Parser> {
  return familyOf(mimeType).load()
}

export function supportedMimeTypes(): string[] {
  return PARSERS.flatMap((p) => p.mimeTypes)
}
