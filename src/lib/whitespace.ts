/**
 * Whitespace as text cleaning sees it (`\s`, which is also what trim() removes), decided from a
 * table rather than a regex, and the two collapsing rules built on it, which return text that is
 * tidy already as it is: parsers give tidy text for nearly every line and paragraph, and a regex
 * replace copies it (a sixth of the bytes a filing's processing allocated went to such copies).
 */

const HORIZONTAL_SPACE = /[^\S\n]+/g
const BLANK_LINES = /\n\s*\n+/g

/** Whether each UTF-16 code unit is whitespace. */
const WHITESPACE = whitespaceTable()

export function isWhitespace(code: number): boolean {
  return WHITESPACE[code] === 1
}

function whitespaceTable(): Uint8Array {
  const table = new Uint8Array(0x10000)
  for (let code = 0; code < 0x10000; code++) table[code] = /\s/.test(String.fromCharCode(code)) ? 1 : 0
  return table
}

const SPACE = 0x20
const LINE_FEED = 0x0a

/**
 * Whether `text` is tidy already: its only whitespace is single spaces (and line feeds if
 * `lineFeeds`), never two in a row nor at either end. cleanText and oneLine then return it as it
 * is (no \r, no run to collapse, no space beside a line break, no blank line, nothing to trim),
 * which parsers give for nearly every paragraph (all those of the SEC filings); the regexes copy it.
 */
function isTidy(text: string, lineFeeds: boolean): boolean {
  let afterSpace = true
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    if (!isWhitespace(code)) afterSpace = false
    else if (afterSpace || (code !== SPACE && (code !== LINE_FEED || !lineFeeds))) return false
    else afterSpace = true
  }
  return !afterSpace
}

/** Runs of spaces and tabs collapsed, lines trimmed, blank lines dropped: text as a chunk shows it. */
export function cleanText(text: string): string {
  if (isTidy(text, true)) return text
  return text
    .replace(/\r\n?/g, '\n')
    .replace(HORIZONTAL_SPACE, ' ')
    .replace(/ ?\n ?/g, '\n')
    .replace(BLANK_LINES, '\n')
    .trim()
}

/** All whitespace, newlines included, collapsed to single spaces: for headings and table cells. */
export function oneLine(text: string): string {
  if (isTidy(text, false)) return text
  return text.replace(/\s+/g, ' ').trim()
}

/** Characters of `text` other than whitespace, counted without copying it. */
export function visibleLength(text: string): number {
  let count = 0
  for (let i = 0; i < text.length; i++) if (!isWhitespace(text.charCodeAt(i))) count++
  return count
}
