import type { ParsedDocument, ParseInput, Parser } from '../model.js'
import { type OcrEngine, sharedOcr } from '../ocr/ocr.js'
import { ODP, PPTX } from './formats.js'
import { odpMasterTexts, withMasterTexts } from './odp-master.js'
import { parseOfficeFile } from './office.js'
import { slideCount } from './office-ast.js'
import { guardZip } from './zip-guard.js'

/**
 * PPTX and ODP slide decks: each slide's title as a heading, its text as paragraphs, tables and
 * PPTX charts (title, then a table of categories × series) as table blocks, then its speaker notes —
 * all with `page` = slide number. ODP master-page text (footer…) comes once, on the first slide
 * showing it (odp-master.ts). `pageCount` is the number
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
  const parsed = await parseOfficeFile(input, odp ? 'odp' : 'pptx', format, ocr)
  const { content, title } = parsed
  // Unreadable master pages cost the footer text, not the deck.
  const masters = odp ? await odpMasterTexts(input.path).catch(() => new Map<number, string[]>()) : new Map()
  const blocks = withMasterTexts(parsed.blocks, masters)
  const slides = slideCount(content)
  input.progress(slides, slides)
  return { blocks, pageCount: Math.max(1, slides), documentType: 'text', ...(title ? { title } : {}) }
}
