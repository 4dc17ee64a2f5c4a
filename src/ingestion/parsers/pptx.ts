import type { ParsedDocument, ParseInput, Parser } from '../model.js'
import { type OcrEngine, sharedOcr } from '../ocr.js'
import { guardZip } from '../zip-guard.js'
import { parseOfficeFile } from './office.js'
import { slideCount } from './office-ast.js'

const PPTX = 'application/vnd.openxmlformats-officedocument.presentationml.presentation'
const ODP = 'application/vnd.oasis.opendocument.presentation'

/**
 * PPTX and ODP slide decks: each slide's title as a heading, its text as paragraphs, tables as
 * table blocks, then its speaker notes — all with `page` = slide number. `pageCount` is the number
 * of slides (empty ones included). The zip guard runs first.
 */
export function createPresentationParser(ocr: OcrEngine = sharedOcr): Parser {
  return { mimeTypes: [PPTX, ODP], parse: (input) => parsePresentation(input, ocr) }
}

export const presentationParser: Parser = createPresentationParser()

async function parsePresentation(input: ParseInput, ocr: OcrEngine): Promise<ParsedDocument> {
  const odp = input.mimeType === ODP
  const format = odp ? 'ODP' : 'PPTX'
  await guardZip(input.path, input.limits, format)
  const { blocks, content, title } = await parseOfficeFile(input, odp ? 'odp' : 'pptx', format, ocr)
  const slides = slideCount(content)
  input.progress(slides, slides)
  return { blocks, pageCount: Math.max(1, slides), documentType: 'text', ...(title ? { title } : {}) }
}
