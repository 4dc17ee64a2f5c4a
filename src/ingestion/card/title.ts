import { oneLine } from '../../lib/whitespace.js'
import type { CardLine, CardReading } from './reading.js'

/** A title longer than this is a paragraph. */
const TITLE_MAX_CHARS = 200
const MIN_LETTERS = 3
const SHORT_LINE_CHARS = 80

/** Titles that say nothing: tools' defaults and placeholders. */
const PLACEHOLDER =
  /^(?:document\d*|untitled(?:\s+\p{L}+)?|sans\s+titre|unbenannt|sin\s+t[íi]tulo|title|titre|titel|t[íi]tulo|presentation\d*|powerpoint\s+presentation|slide\s*\d*|page\s*\d*|draft|new\s+document|microsoft\s+word|word\s+document|blank|none|null|unknown|default)$/iu
/** What tools put before a title (`Microsoft Word - minutes.docx`). */
const TOOL_PREFIX = /^(?:microsoft\s+(?:word|powerpoint|excel)\s*-\s*|powerpoint\s+presentation\s*-\s*)/i
/** Page furniture and labels that head a page without naming the document. */
const FURNITURE =
  /^(?:table\s+of\s+contents|contents|index|sommaire|table\s+des\s+mati[èe]res|inhalt(?:sverzeichnis)?|[íi]ndice|page\s+\d+(?:\s+(?:of|\/)\s+\d+)?|exhibit\s+[\d.]+[a-z]?|annex\s+[\w.]+|appendix\s+[\w.]+|\(?mark\s+one\)?|confidential|draft|[-–—_\s\d.]+)$/i
/** Section labels and chapter headings: parts of a document, not its name. */
const SECTION =
  /^(?:(?:\d+(?:\.\d+)*\.?|[IVX]+\.)\s*)?(?:abstract|summary|executive\s+summary|introduction|background|conclusions?|references|r[ée]sum[ée]|zusammenfassung|einleitung|resumen|introducci[óo]n)\s*[.:]?$|^(?:chapter|chapitre|kapitel|cap[íi]tulo|section|part|partie|teil|parte)\s+[\dIVXLC]+\b/iu

/**
 * A file id or a file name rather than a title: digits and separators (`0000078003-23-000088`),
 * a run of six digits or more in one token, or a name with an extension.
 */
export function looksLikeFileId(text: string): boolean {
  const value = text.trim()
  if (!/\p{L}/u.test(value)) return true
  if (/^[\w-]*\d{6,}[\w-]*$/u.test(value)) return true
  if (/^[^\s]+\.[a-z\d]{2,5}$/i.test(value)) return true
  return /^[\p{L}\d]+(?:[_-][\p{L}\d]+){2,}$/u.test(value) && /\d/.test(value) && !/\s/.test(value)
}

/** The metadata title when it names the document: not empty, a placeholder, a file id or the file's name. */
export function meaningfulTitle(title: string | undefined, filename: string): string | null {
  if (!title) return null
  const cleaned = oneLine(title.replace(TOOL_PREFIX, '')).replace(/\.(?:docx?|pdf|pptx?|xlsx?|odt|txt|md|html?)$/i, '')
  if ((cleaned.match(/\p{L}/gu)?.length ?? 0) < MIN_LETTERS) return null
  if (cleaned.length > TITLE_MAX_CHARS || PLACEHOLDER.test(cleaned) || looksLikeFileId(cleaned)) return null
  const stem = filename.replace(/\.[^.]+$/, '')
  return cleaned.toLowerCase() === stem.toLowerCase() ? null : cleaned
}

function isRealHeading(line: CardLine): boolean {
  const text = line.text.trim()
  if (text.length > TITLE_MAX_CHARS || (text.match(/\p{L}/gu)?.length ?? 0) < MIN_LETTERS) return false
  return !FURNITURE.test(text) && !SECTION.test(text) && !looksLikeFileId(text)
}

/**
 * A document's title as a reader would name it: its own (metadata) title when meaningful, else
 * the cover heading that names its kind (`FORM 10-Q`, `Minutes of the Board meeting`), else its
 * first real heading (not page furniture, `Exhibit 99.1` or a number), else null. Never a file id.
 */
export function titleOf(
  reading: CardReading,
  metadataTitle: string | null,
  namesKind: (line: string) => boolean,
): string | null {
  if (metadataTitle) return metadataTitle
  const headings = reading.cover.filter((line) => line.heading && isRealHeading(line))
  // A short line that names the kind is a heading the parser did not see as one (`Form 10-K`).
  const naming =
    headings.find((line) => namesKind(line.text)) ??
    reading.cover.find((line) => line.text.length <= SHORT_LINE_CHARS && isRealHeading(line) && namesKind(line.text))
  return (naming ?? headings[0])?.text.trim() ?? null
}
