/**
 * DataBench's `columns_used`: a Python list printed as text, but not always a valid literal.
 * Items are quoted (`['a', 'b']`) or not (`[Age, Survived]`), the brackets may be missing
 * (`'negativereason'`), one is empty, and headers themselves hold commas and apostrophes
 * (`['What's your sexual orientation?']`). Splitting on commas alone would cut such headers, so the
 * table's own column names are tried first at each position, longest first; what matches none is
 * read up to the next comma and kept as written (a gold column the table does not have stays gold).
 */

const QUOTES = ["'", '"', ''] as const
/** Quotes and brackets left around an item that matched no column (`What's your nationality?"]"`). */
const STRAY_ENDS = /^[\s'"[\]]+|[\s'"[\]]+$/g

/** `body[from…]` is blank up to the end or a comma: an item may end there. */
function endsItem(body: string, from: number): boolean {
  const rest = body.slice(from).trimStart()
  return rest === '' || rest.startsWith(',')
}

/** The known column written at `at` (quoted or not) and where it ends, or null. */
function knownAt(body: string, at: number, longestFirst: readonly string[]): { name: string; end: number } | null {
  for (const name of longestFirst) {
    for (const quote of QUOTES) {
      const written = `${quote}${name}${quote}`
      if (body.startsWith(written, at) && endsItem(body, at + written.length)) {
        return { name, end: at + written.length }
      }
    }
  }
  return null
}

/** An item that matched no known column: up to its closing quote and the next comma, or the next comma. */
function unknownAt(body: string, at: number): { text: string; end: number } {
  const quote = body[at]
  if (quote === "'" || quote === '"') {
    for (let close = body.indexOf(quote, at + 1); close >= 0; close = body.indexOf(quote, close + 1)) {
      if (endsItem(body, close + 1)) return { text: body.slice(at, close + 1), end: close + 1 }
    }
  }
  const comma = body.indexOf(',', at)
  const end = comma < 0 ? body.length : comma
  return { text: body.slice(at, end), end }
}

/**
 * The gold columns of `raw`, in order, without repeats. `known`: the table's column names (may be
 * empty: then items are split on commas). An unmatched item cleaned of stray quotes and brackets
 * that equals a known name is that column.
 */
export function parseColumnsUsed(raw: string, known: readonly string[] = []): string[] {
  let body = raw.trim()
  if (body.startsWith('[')) body = body.slice(1)
  if (body.endsWith(']')) body = body.slice(0, -1)
  const longestFirst = [...known].sort((a, b) => b.length - a.length)
  const knownSet = new Set(known)
  const found: string[] = []
  let at = 0
  while (at < body.length) {
    if (/[\s,]/.test(body[at] ?? '')) {
      at++
      continue
    }
    const match = knownAt(body, at, longestFirst)
    if (match) {
      found.push(match.name)
      at = match.end
      continue
    }
    const item = unknownAt(body, at)
    const text = item.text.trim()
    const cleaned = text.replace(STRAY_ENDS, '')
    const quoted = /^(['"]).*\1$/s.test(text)
    const name = knownSet.has(cleaned) ? cleaned : quoted ? text.slice(1, -1) : cleaned
    if (name !== '') found.push(name)
    at = item.end
  }
  return [...new Set(found)]
}
