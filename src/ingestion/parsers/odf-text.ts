import type { ParsedDocument, ParseInput, Parser } from '../model.js'
import { type OcrEngine, sharedOcr } from '../ocr/ocr.js'
import { ODT } from './formats.js'
import { parseOfficeFile } from './office.js'
import { guardZip } from './zip-guard.js'

/**
 * ODT text documents: headings with their level, paragraphs, list items and tables. The zip guard
 * runs first. Like DOCX, an ODT has no reliable page numbers: `pageCount` is 1, blocks carry no page.
 */
export function createOdtParser(ocr: OcrEngine = sharedOcr): Parser {
  return { mimeTypes: [ODT], parse: (input) => parseOdt(input, ocr) }
}

export const odtParser: Parser = createOdtParser()

async function parseOdt(input: ParseInput, ocr: OcrEngine): Promise<ParsedDocument> {
  await guardZip(input.path, input.limits, 'ODT')
  const { blocks, title } = await parseOfficeFile(input, 'odt', 'ODT', ocr)
  input.progress(1, 1)
  return { blocks, pageCount: 1, documentType: 'text', ...(title ? { title } : {}) }
}
