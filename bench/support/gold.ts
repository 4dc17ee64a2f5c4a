/** How a gold answer is looked for in an answer text. */
export type GoldKind = 'number' | 'figure' | 'phrase'

const NUMBER = /[-−]?\$?\s?\(?\d[\d,]*(?:\.\d+)?\)?\s?%?/g
const STOP = new Set(
  'the a an and or of in on at to for from by with as is are was were be been has have had its it this that these those which than then there their our not no yes fy'.split(
    ' ',
  ),
)

/** The numbers of a text, `$1,577.00` → 1577, `(370)` → -370, `1.9%` → 1.9; years (1900–2100) left out. */
export function numbersIn(text: string): number[] {
  const found: number[] = []
  for (const raw of text.match(NUMBER) ?? []) {
    const negative = /^[-−]|\(/.test(raw.trim())
    const digits = raw.replace(/[^\d.]/g, '').replace(/\.$/, '')
    if (!digits) continue
    const value = Number(digits)
    if (!Number.isFinite(value)) continue
    if (Number.isInteger(value) && value >= 1900 && value <= 2100 && !raw.includes('$') && !raw.includes(',')) continue
    found.push(negative ? -value : value)
  }
  return found
}

const close = (a: number, b: number) => (b === 0 ? a === 0 : Math.abs(a - b) <= Math.abs(b) * 0.01)

function contentWords(text: string): string[] {
  return [...new Set((text.toLowerCase().match(/[\p{L}]{4,}/gu) ?? []).filter((word) => !STOP.has(word)))]
}

/**
 * Whether `answer` contains the gold answer:
 * - a gold that is one number (`$1577.00`, `24.26`, `1.9%`): some number of the answer within 1%
 *   (sign ignored, since filings write losses in parentheses);
 * - a gold sentence with figures: one of its figures within 1%;
 * - a gold sentence without figures: at least 60% of its content words (4+ letters) in the answer.
 */
export function matchesGold(answer: string, gold: string): { kind: GoldKind; hit: boolean } {
  const trimmed = gold.trim()
  // citation markers `[2]` are not figures
  const answerNumbers = numbersIn(answer.replace(/\[\d+\]/g, ' ')).map(Math.abs)
  if (/^[-−]?\$?\s?[\d,]+(?:\.\d+)?\s?%?$/.test(trimmed)) {
    const [value] = numbersIn(trimmed)
    const target = Math.abs(value ?? Number.NaN)
    return { kind: 'number', hit: answerNumbers.some((n) => close(n, target)) }
  }
  const figures = numbersIn(trimmed).map(Math.abs)
  if (figures.length > 0) {
    return { kind: 'figure', hit: figures.some((figure) => answerNumbers.some((n) => close(n, figure))) }
  }
  const words = contentWords(trimmed)
  const have = new Set(contentWords(answer))
  const found = words.filter((word) => have.has(word)).length
  return { kind: 'phrase', hit: words.length > 0 && found / words.length >= 0.6 }
}

/** Whether a source's `page_number` (`3`, `3-4`, empty) covers the 1-based `page`. */
export function coversPage(pageNumber: string | null | undefined, page: number): boolean {
  const match = /^(\d+)(?:\s*-\s*(\d+))?$/.exec((pageNumber ?? '').trim())
  if (!match) return false
  const first = Number(match[1])
  const last = Number(match[2] ?? match[1])
  return page >= first && page <= last
}
