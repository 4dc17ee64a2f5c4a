import { ingestErrors } from '../errors.js'
import type { Parser } from '../model.js'
import { cfbParser } from './cfb.js'
import { csvParser } from './csv.js'
import { docxParser } from './docx.js'
import { emailParser } from './email.js'
import { htmlParser } from './html.js'
import { imageParser } from './image.js'
import { markdownParser } from './markdown.js'
import { odtParser } from './odf-text.js'
import { pdfParser } from './pdf.js'
import { presentationParser } from './pptx.js'
import { rtfParser } from './rtf.js'
import { spreadsheetParser } from './spreadsheet.js'
import { textParser } from './text.js'

/**
 * Every parser, one per format family. Each parser helper appends its parser here; lookup is by
 * the MIME type sniffed at upload.
 */
const PARSERS: readonly Parser[] = [
  spreadsheetParser,
  csvParser,
  htmlParser,
  markdownParser,
  textParser,
  emailParser,
  pdfParser,
  imageParser,
  docxParser,
  presentationParser,
  odtParser,
  rtfParser,
]

/**
 * Formats that are not read but recognised, to fail with a better reason than "unsupported" (an
 * encrypted OOXML file is a CFB container): not in supportedMimeTypes.
 */
const RECOGNISERS: readonly Parser[] = [cfbParser]

/** The parser for a MIME type; throws a permanent IngestError for an unsupported one. */
export function parserFor(mimeType: string): Parser {
  const parser = [...PARSERS, ...RECOGNISERS].find((p) => p.mimeTypes.includes(mimeType))
  if (!parser) throw ingestErrors.unsupported(mimeType)
  return parser
}

export function supportedMimeTypes(): string[] {
  return PARSERS.flatMap((p) => p.mimeTypes)
}
