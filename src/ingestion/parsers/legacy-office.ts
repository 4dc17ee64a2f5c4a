import { ingestErrors } from '../errors.js'
import type { ParsedDocument, ParseInput, Parser } from '../model.js'
import { LEGACY_OFFICE_TYPES, PPT, PPTX, XLS, XLSB, XLSX_TYPES } from './formats.js'
import { convertWithLibreOffice } from './libreoffice.js'

/** What each legacy format becomes, the parser that reads that, and the format's name for messages. */
const TARGETS: Readonly<
  Record<string, { format: string; mimeType: string; name: string; reader: () => Promise<Parser> }>
> = {
  [XLS]: {
    format: 'xlsx',
    mimeType: XLSX_TYPES[0],
    name: 'Excel 97–2003 (.xls)',
    reader: async () => (await import('./spreadsheet.js')).spreadsheetParser,
  },
  [XLSB]: {
    format: 'xlsx',
    mimeType: XLSX_TYPES[0],
    name: 'Excel binary (.xlsb)',
    reader: async () => (await import('./spreadsheet.js')).spreadsheetParser,
  },
  [PPT]: {
    format: 'pptx',
    mimeType: PPTX,
    name: 'PowerPoint 97–2003 (.ppt)',
    reader: async () => (await import('./pptx.js')).presentationParser,
  },
}

/**
 * Legacy Office formats no maintained JavaScript library reads (the npm `xlsx` 0.18 line is
 * unmaintained and has published vulnerabilities): LibreOffice, when the server has it, converts
 * them to their Office Open XML form, which the spreadsheet and presentation parsers read as they
 * read any: every sheet a table with sheet and row provenance, every slide with its number.
 * Without LibreOffice the document ends in ERROR naming the package to install.
 */
export const legacyOfficeParser: Parser = {
  mimeTypes: LEGACY_OFFICE_TYPES,
  async parse(input: ParseInput): Promise<ParsedDocument> {
    const target = TARGETS[input.mimeType]
    if (!target) throw ingestErrors.unsupported(input.mimeType)
    if (!input.soffice) throw ingestErrors.needsLibreOffice(target.name)
    const converted = await convertWithLibreOffice(input.soffice, input.path, target.format, input.limits.timeBudgetMs)
    try {
      const reader = await target.reader()
      return await reader.parse({ ...input, path: converted.path, mimeType: target.mimeType })
    } finally {
      await converted.cleanup()
    }
  },
}
