import type { DocumentCard } from '../../storage/ports/document-card.js'
import type { ParsedDocument } from '../model.js'
import { kindOf, namesKind, titleLines } from './kind.js'
import { periodOf } from './period.js'
import { readingOf } from './reading.js'
import { subjectsOf } from './subjects.js'
import { meaningfulTitle, titleOf } from './title.js'

/** What a card is read with besides the parsed document. */
export interface CardContext {
  /** `leave.pdf` */
  readonly filename: string
  /** `/hr/leave.pdf`: its folders are a fallback hint only. */
  readonly objectName: string
  /** ISO 639-1 code detected from the text: the language of the period's label. */
  readonly language: string
  /** Sniffed MIME type: a presentation or an e-mail is known by its type. */
  readonly mimeType?: string
}

/** Folder names of an object path, outermost first (`/hr/policies/leave.pdf` → `hr`, `policies`). */
function foldersOf(objectName: string): string[] {
  return objectName.split('/').slice(0, -1).filter(Boolean)
}

/**
 * The card of a document, read offline from its text: its title, the organisation(s) it is by
 * or about, the period it covers and its kind (src/storage/ports/document-card.ts). Pure and fast:
 * it reads the first pages and a sample of the rest (src/ingestion/card/reading.ts), never the
 * whole of a long document. The file's name and folders are hints only where the text says
 * nothing, so the card is the same for `filing-017.pdf` as for `PFIZER_2023Q2_10Q.pdf`.
 */
export function readCard(parsed: ParsedDocument, context: CardContext): DocumentCard {
  const reading = readingOf(parsed)
  const metadataTitle = meaningfulTitle(parsed.title, context.filename)
  const kind = kindOf(reading, { metadataTitle, mimeType: context.mimeType, filename: context.filename })
  const title = titleOf(reading, metadataTitle, (line) => kind !== null && namesKind(kind, line))
  const lines = titleLines(reading, metadataTitle)
  const subjects = subjectsOf(reading, { metadataTitle, titleLines: lines, folders: foldersOf(context.objectName) })
  const period = periodOf(reading, {
    kind,
    titleLines: lines,
    path: context.objectName || context.filename,
    language: context.language,
  })
  return { title, subjects, period, kind }
}
