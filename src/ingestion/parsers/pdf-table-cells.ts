/**
 * What the cells of a PDF table row say, read from their text alone: figures (amounts, counts,
 * percentages, nil dashes), periods (years, numeric dates) and currency symbols printed apart from
 * their amounts.
 */

/** A cell with its place on the line, in the line's text frame. */
export interface PlacedCell {
  readonly text: string
  readonly left: number
  readonly right: number
  /** The place is a guess (a cell split out of a merged one by its share of the characters). */
  readonly guessed?: boolean
}

export type CellRole = 'figure' | 'nil' | 'period' | 'currency' | 'text'

/** Symbols printed before the amount, sometimes a column's width away from it. */
const CURRENCY = /^(?:[A-Z]{0,2}\$|[€£¥₹₩₽¤])$/u
/** Footnote marks after a figure: `(a)`, `*`, superscript digits, a digit after a parenthesis. */
const FOOTNOTE = /\s*(?:\([a-z]\)|\*+|[¹²³⁴⁵⁶⁷⁸⁹⁰]+)$|(?<=\))\s\d$/u
const FIGURE =
  /^[-+−–]?\s?\(?\s?(?:[A-Z]{0,2}\$|[€£¥₹₩₽])?\s?\(?\s?(?:\d{1,3}(?:[,.\u00a0\u202f ']\d{3})+|\d+)(?:[.,]\d+)?\s?\)?\s?(?:%|‰|x|bps|pts?|[€£¥₹₩₽])?\s?\)?$/iu
/** A currency symbol printed before its amount, sometimes at the left edge of the column. */
const LEADING_CURRENCY = /^(?:[A-Z]{0,2}\$|[£¥₹])$/u
const HAS_CURRENCY = /[$€£¥₹₩₽¤]/u
/** `$ 12,734`: the space a text layer put between a symbol and its amount. */
const SPACED_CURRENCY = /^([A-Z]{0,2}\$|[€£¥₹₩₽])\s+(?=[\d(])/u
const NIL = /^[-–—−]+$/u
const YEAR = /^(?:19|20)\d{2}$/u
const NUMERIC_DATE = /^\d{1,2}[./-]\d{1,2}[./-](?:\d{2}|\d{4})$/u

const DIGIT = /\d/u
/** `(` or `$(` set apart from the figure it opens. */
const OPENING_PARENTHESIS = /^[-−–]?[$€£¥]?\($/u
/** The last characters after which a footnote mark may end a cell. */
const FOOTNOTE_END = /[)*¹²³⁴⁵⁶⁷⁸⁹⁰\d]$/u

/** How a cell reads in a table: the first cell of a data row is its label, the others its figures. */
export function cellRole(text: string): CellRole {
  // Most cells a page has are words: those without a digit are settled by three short tests.
  if (!DIGIT.test(text)) {
    if (text.length > 3) return 'text'
    return CURRENCY.test(text) ? 'currency' : NIL.test(text) ? 'nil' : 'text'
  }
  const value = FOOTNOTE_END.test(text) ? text.replace(FOOTNOTE, '') : text
  if (CURRENCY.test(value)) return 'currency'
  if (NIL.test(value)) return 'nil'
  if (YEAR.test(value) || NUMERIC_DATE.test(value)) return 'period'
  if (FIGURE.test(value)) return 'figure'
  return 'text'
}

/** A figure or a nil dash: what data rows have and header rows do not. */
export function isAmount(text: string): boolean {
  const role = cellRole(text)
  return role === 'figure' || role === 'nil'
}

/**
 * Cells a text layer merged across columns split again: a cell whose words are each a figure, a
 * nil dash, a currency symbol or a year (`$ 2,547 $ 3,604`, `16,943 21,600`, `2022 2021`) is one
 * cell per word, placed by its share of the characters. A cell that reads as one figure with
 * spaces between thousands (`1 234 567`) stays whole.
 */
export function splitFigureRuns(cells: readonly PlacedCell[]): PlacedCell[] {
  const out: PlacedCell[] = []
  for (const cell of cells) {
    // A label's first word settles it without splitting the rest.
    const space = cell.text.indexOf(' ')
    const first = cell.text.slice(0, space)
    if (space < 0 || (cellRole(first) === 'text' && !OPENING_PARENTHESIS.test(first))) {
      out.push(cell)
      continue
    }
    const words = figureWords(cell.text)
    const role = cellRole(cell.text)
    if (words.length < 2 || role !== 'text' || !words.every((word) => cellRole(word) !== 'text')) {
      out.push(cell)
      continue
    }
    const perChar = (cell.right - cell.left) / cell.text.length
    let at = 0
    for (const word of words) {
      out.push({
        text: word,
        left: cell.left + at * perChar,
        right: cell.left + (at + word.length) * perChar,
        guessed: true,
      })
      at += word.length + 1
    }
  }
  return out
}

/** The words of a cell, a parenthesis set apart from its figure (`( 37)`, `(2,549 )`) kept with it. */
function figureWords(text: string): string[] {
  const words: string[] = []
  for (const word of text.split(' ')) {
    const previous = words.at(-1)
    if (previous !== undefined && (OPENING_PARENTHESIS.test(previous) || /^\)%?$/u.test(word))) {
      words[words.length - 1] = `${previous} ${word}`
    } else {
      words.push(word)
    }
  }
  return words
}

/**
 * The cells of a row (split by splitFigureRuns) with currency symbols joined to their amounts, as
 * the reader sees them: a symbol standing alone before an amount (`$` | `12,734`) and one that a
 * text layer glued to the end of the previous amount (`12,734 $` | `27,742`) both become
 * `$12,734`, `$27,742`; `$ 12,734` loses its space; a lone `%` joins the figure before it. A
 * joined cell keeps the place of its amount, which is what lines up with the column (the symbol
 * stands at the column's left edge).
 */
export function joinCurrency(cells: readonly PlacedCell[]): PlacedCell[] {
  const out: PlacedCell[] = []
  let symbol: PlacedCell | null = null
  for (const cell of splitFigureRuns(cells)) {
    let { text } = cell
    const { right } = cell
    const previous = out.at(-1)
    if (symbol && cellRole(text) === 'text') {
      out.push(symbol)
      symbol = null
    }
    // A label that runs into the next column's symbol: `Cash ........ $` | `348,283`.
    const space = text.lastIndexOf(' ')
    const last = space > 0 ? text.slice(space + 1) : ''
    if (last && LEADING_CURRENCY.test(last) && cellRole(text.slice(0, space).trimEnd()) === 'text') {
      out.push({ text: text.slice(0, space).trimEnd(), left: cell.left, right, guessed: true })
      symbol = { text: last, left: right, right, guessed: true }
      continue
    }
    if (CURRENCY.test(text)) {
      if (symbol) out.push(symbol)
      // `€` after an amount is its unit (`1 234 €`); `$` stands before the next one.
      if (!LEADING_CURRENCY.test(text) && previous && cellRole(previous.text) === 'figure') {
        out[out.length - 1] = { ...previous, text: `${previous.text} ${text}` }
        symbol = null
      } else {
        symbol = cell
      }
      continue
    }
    if (symbol) {
      const role = cellRole(text)
      if ((role === 'figure' || role === 'nil') && !HAS_CURRENCY.test(text)) text = `${symbol.text}${text}`
      else out.push(symbol)
      symbol = null
    }
    text = text.replace(SPACED_CURRENCY, '$1')
    if (text === '%' && previous && cellRole(previous.text) === 'figure') {
      out[out.length - 1] = { ...previous, text: `${previous.text}%`, right }
      continue
    }
    out.push({ ...cell, text })
  }
  if (symbol) out.push(symbol)
  return out
}

/**
 * A label cell that runs on into the figure columns (a text layer merged them: `Total assets ....
 * $ 52,880 $`): the label, then its trailing figures and symbols as cells of their own, placed by
 * their share of the characters. Only words from `limit` (the first column's left edge) on are
 * split off, so a label ending in a number of its own ("Notes due 2025") stays whole.
 */
export function splitTrailingFigures(cell: PlacedCell, limit: number): PlacedCell[] {
  const words = cell.text.split(' ')
  const perChar = (cell.right - cell.left) / Math.max(1, cell.text.length)
  let first = words.length
  while (first > 1 && cellRole(words[first - 1] as string) !== 'text') first--
  if (first === words.length) return [cell]
  const labelChars = words.slice(0, first).join(' ').length
  if (cell.left + (labelChars + 1) * perChar < limit) return [cell]
  const out: PlacedCell[] = [
    { text: words.slice(0, first).join(' '), left: cell.left, right: cell.left + labelChars * perChar },
  ]
  let at = labelChars + 1
  for (const word of words.slice(first)) {
    out.push({ text: word, left: cell.left + at * perChar, right: cell.left + (at + word.length) * perChar })
    at += word.length + 1
  }
  return out
}

/** Leader dots between a label and its figures (`Cash .........`): layout, not text. */
export function withoutLeaders(text: string): string {
  return text.replace(/\s*(?:\.\s?){4,}\s*/gu, ' ').trim()
}
