import { escapeRegex } from '../../lib/regex.js'
import type { TableBlock } from '../model.js'
import type { CardReading } from './reading.js'

const TICKER = /^[A-Z]{1,5}(?:[.-][A-Z]{1,2})?$/
const SYMBOL_LABEL = /trading\s*symbols?(?:\s*\(s\))?/i
/** After the label in running text: the first capitals followed by an exchange's name. */
const SYMBOL_IN_TEXT =
  /(?<![\p{L}\d])([A-Z]{1,5}(?:\.[A-Z])?)\s*[|;]?\s+(?:The\s+)?(?:[A-Z][\p{L}]*\s+){0,4}(?:Stock\s+)?(?:Exchange|Market|LLC)\b/u
/** `MGM Resorts International (NYSE: MGM)`, `(Nasdaq: PEP)`: an exchange code and the symbol. */
const EXCHANGE_AND_SYMBOL =
  /^\s*,?\s*\(\s*(?:[A-Z][A-Za-z]{1,9}(?:\s+[A-Z][A-Za-z]+)?)\s*:\s*([A-Z]{1,5}(?:\.[A-Z])?)\s*[);]/u

/** The symbol of the first class of securities in a `Trading Symbol(s)` column (common stock comes first). */
function symbolFromTable(table: TableBlock): string | null {
  const rows = [...(table.header ? [table.header] : []), ...table.rows.map((row) => row.cells)]
  for (const [rowIndex, cells] of rows.entries()) {
    const column = cells.findIndex((cell) => SYMBOL_LABEL.test(cell))
    if (column < 0) continue
    // The label heads the column, or (some covers) sits under the values.
    const others = [...rows.slice(rowIndex + 1), ...rows.slice(0, rowIndex).reverse()]
    for (const other of others) {
      const value = other[column]?.trim() ?? ''
      if (TICKER.test(value)) return value
    }
  }
  return null
}

function symbolFromText(text: string): string | null {
  const label = text.match(SYMBOL_LABEL)
  if (!label) return null
  const after = text.slice((label.index ?? 0) + label[0].length, (label.index ?? 0) + label[0].length + 400)
  const found = after.match(SYMBOL_IN_TEXT)?.[1]
  return found && TICKER.test(found) ? found : null
}

/**
 * Ticker symbols the document gives for its subject: the first row of a cover's `Trading
 * Symbol(s)` column (as a table, or as text when the cover's table was read as lines), and an
 * exchange code right after one of the subject's names (`(NYSE: MGM)`).
 */
export function tickersOf(reading: CardReading, names: readonly string[]): string[] {
  const tickers: string[] = []
  for (const table of reading.coverTables) {
    const symbol = symbolFromTable(table)
    if (symbol) {
      tickers.push(symbol)
      break
    }
  }
  if (tickers.length === 0) {
    const cover = reading.cover.map((line) => line.text).join('\n')
    const symbol = symbolFromText(cover)
    if (symbol) tickers.push(symbol)
  }
  const usable = names.filter((name) => name.length >= 2)
  if (usable.length > 0) {
    const pattern = new RegExp(`(?:${usable.map(escapeRegex).join('|')})`, 'gu')
    for (const line of reading.head) {
      for (const m of line.text.matchAll(pattern)) {
        const symbol = line.text.slice((m.index ?? 0) + m[0].length).match(EXCHANGE_AND_SYMBOL)?.[1]
        if (symbol) tickers.push(symbol)
      }
    }
  }
  return [...new Set(tickers)]
}
