/**
 * The MIME types each parser reads (as sniffed at upload), kept apart from the parsers: the
 * registry lists them without loading a parser and its libraries (a processing thread that reads
 * only PDFs never loads the spreadsheet, e-mail, HTML or Word libraries).
 */

import {
  CFB_MIME_TYPE,
  DOC_MIME_TYPE,
  MSG_MIME_TYPE,
  PPT_MIME_TYPE,
  XLS_MIME_TYPE,
} from '../detection/compound-file.js'
import { XLSB_MIME_TYPE } from '../detection/excel-binary.js'

export const XLSX_TYPES = [
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.template',
  'application/vnd.ms-excel.sheet.macroenabled.12',
  'application/vnd.ms-excel.template.macroenabled.12',
] as const
export const ODS_TYPES = [
  'application/vnd.oasis.opendocument.spreadsheet',
  'application/vnd.oasis.opendocument.spreadsheet-template',
] as const
export const CSV_TYPES = ['text/csv', 'text/tab-separated-values', 'application/csv'] as const
export const HTML_TYPES = ['text/html', 'application/xhtml+xml'] as const
export const MARKDOWN_TYPES = ['text/markdown', 'text/x-markdown'] as const
/** Plain text, plus JSON, YAML and XML read as text. */
export const TEXT_TYPES = [
  'text/plain',
  'application/json',
  'application/x-ndjson',
  'application/xml',
  'text/xml',
  'application/yaml',
  'application/x-yaml',
  'text/yaml',
] as const
export const EMAIL_TYPES = ['message/rfc822'] as const
export const PDF = 'application/pdf'
export const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/tiff', 'image/bmp', 'image/webp', 'image/gif'] as const
export const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'
export const PPTX = 'application/vnd.openxmlformats-officedocument.presentationml.presentation'
export const ODP = 'application/vnd.oasis.opendocument.presentation'
export const ODT = 'application/vnd.oasis.opendocument.text'
export const RTF_TYPES = ['application/rtf', 'text/rtf'] as const
/** Excel 97–2003 and PowerPoint 97–2003: CFB containers (compound-file.ts). */
export const XLS = XLS_MIME_TYPE
export const XLSB = XLSB_MIME_TYPE
export const PPT = PPT_MIME_TYPE
/** Legacy Office formats read through LibreOffice (legacy-office.ts). */
export const LEGACY_OFFICE_TYPES = [XLS, XLSB, PPT] as const
/** Compound File Binary containers (legacy Excel and PowerPoint, encrypted OOXML): recognised, not read. */
export const CFB = CFB_MIME_TYPE
/** Word 97–2003, a CFB container with a `WordDocument` stream (see compound-file.ts). */
export const DOC = DOC_MIME_TYPE
/** Outlook items (.msg), CFB containers of MAPI properties (see compound-file.ts). */
export const MSG = MSG_MIME_TYPE
export const EPUB = 'application/epub+zip'
