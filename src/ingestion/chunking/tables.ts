import { oneLine } from '../../lib/whitespace.js'
import type { TableBlock } from '../model.js'
import { measure, splitToBudget, truncateToTokens } from './text.js'
import { countTokens } from './tokens.js'

/** One chunk of a table: its text (prefix, header, rows) and the source rows it holds. */
export interface TableChunk {
  readonly text: string
  readonly tokens: number
  /** First and last source row; null for a table without row numbers (never, by the model). */
  readonly firstRow: number
  readonly lastRow: number
}

interface RowLine {
  readonly rowNumber: number
  readonly text: string
  readonly tokens: number
}

const CELL = ' | '

/** Cells of one row as the chunk shows them (a row without a label starts with its separator). */
export function rowText(cells: readonly string[]): string {
  return cells.map(oneLine).join(CELL).trimStart()
}

/** Whether a line of a table chunk is a row of cells (rowText), not its title, unit or a section label. */
export function isRowLine(line: string): boolean {
  return line.includes(CELL) || line.startsWith(CELL.trimStart())
}

/** The lines of a table chunk before its first row of cells: its heading path, title and unit; '' without. */
export function tableChunkTitle(text: string): string {
  const lines = text.split('\n')
  const first = lines.findIndex(isRowLine)
  return first > 0 ? lines.slice(0, first).join('\n') : ''
}

/**
 * The title-and-unit line and the header row of a table, within `room` tokens together (the
 * rest of the budget is for rows): the header is cut first to no less than half of the room, then
 * the title line. A title the heading path already ends with is not repeated.
 */
function tableHead(table: TableBlock, prefix: string, room: number): [string, string] {
  const title = table.title ? oneLine(table.title) : ''
  const shown = title && !prefix.endsWith(title) ? title : ''
  const caption = [shown, table.unit ? oneLine(table.unit) : ''].filter(Boolean).join(' ')
  let header = table.header?.some((cell) => cell.trim()) ? rowText(table.header) : ''
  const captionTokens = caption ? countTokens(caption) + 1 : 0
  if (header) header = truncateToTokens(header, Math.max(room - captionTokens, Math.floor(room / 2)))
  const headerTokens = header ? countTokens(header) + 1 : 0
  const captionRoom = room - headerTokens
  return [caption && captionRoom > 0 ? truncateToTokens(caption, captionRoom) : '', header]
}

/**
 * A table cut into chunks of at most `budget` tokens: rows grouped in order, and at the top of
 * every chunk the `prefix` (heading path or sheet name), the table's title and unit on one line,
 * and the header row, so that each row can be read and cited alone. A row too long for one chunk
 * is cut between words, each piece under the header again. Empty rows are skipped. Chunks come one
 * at a time: a million-row table is never held as chunks all at once.
 */
export function* chunkTable(table: TableBlock, prefix: string, budget: number): Generator<TableChunk> {
  const [caption, header] = tableHead(table, prefix, Math.floor(budget / 2))
  const head = [prefix, caption, header].filter(Boolean).join('\n')
  const headTokens = head ? countTokens(head) + 1 : 0
  // One token per line break, and a small margin for merges across the joins.
  const room = Math.max(8, budget - headTokens - 2)

  let lines: RowLine[] = []
  let used = 0

  const compose = (group: readonly RowLine[]): string =>
    [head, ...group.map((line) => line.text)].filter(Boolean).join('\n')
  function* emit(): Generator<TableChunk> {
    while (lines.length) {
      let count = lines.length
      let text = compose(lines)
      let tokens = countTokens(text)
      // Rare: the sum of row counts under-estimated the joined text; the last rows go to the next chunk.
      while (tokens > budget && count > 1) {
        count--
        text = compose(lines.slice(0, count))
        tokens = countTokens(text)
      }
      yield {
        text,
        tokens,
        firstRow: (lines[0] as RowLine).rowNumber,
        lastRow: (lines[count - 1] as RowLine).rowNumber,
      }
      lines = lines.slice(count)
    }
    used = 0
  }

  for (const row of table.rows) {
    if (row.cells.every((cell) => cell.trim() === '')) continue
    const text = rowText(row.cells)
    const tokens = measure(text, room)
    const pieces = tokens <= room ? [{ text, tokens }] : [...splitToBudget(text, room)]
    for (const piece of pieces) {
      if (lines.length && used + piece.tokens + 1 > room) yield* emit()
      lines.push({ rowNumber: row.rowNumber, text: piece.text, tokens: piece.tokens })
      used += piece.tokens + 1
    }
  }
  yield* emit()
}
