import type { ParsedDocument, ParseInput, Parser } from '../model.js'
import { type OcrEngine, sharedOcr } from '../ocr/ocr.js'
import { RTF_TYPES } from './formats.js'
import { parseOfficeFile } from './office.js'

/**
 * RTF: paragraphs (and the headings and tables officeparser recognises) in document order.
 * `pageCount` is 1; blocks carry no page.
 */
export function createRtfParser(ocr: OcrEngine = sharedOcr): Parser {
  return { mimeTypes: RTF_TYPES, parse: (input) => parseRtf(input, ocr) }
}

export const rtfParser: Parser = createRtfParser()

async function parseRtf(input: ParseInput, ocr: OcrEngine): Promise<ParsedDocument> {
  const { blocks, title } = await parseOfficeFile(input, 'rtf', 'RTF', ocr)
  input.progress(1, 1)
  return { blocks, pageCount: 1, documentType: 'text', ...(title ? { title } : {}) }
}
