import { isRealDate } from './calendar.js'
import { MONTH_PATTERN, monthNumber } from './months.js'

/** A date written in text: a day (`July 2, 2023`) or a month (`March 2024`). */
export interface DateMatch {
  readonly index: number
  readonly length: number
  readonly year: number
  /** 1–12. */
  readonly month: number
  /** Absent when only the month is written. */
  readonly day?: number
}

/** Years a date or period may have: older or later numbers are amounts, not years. */
export const MIN_YEAR = 1900
export const MAX_YEAR = 2100

const BEFORE = '(?<![\\p{L}\\d])'
// Not inside a longer run of dashed numbers (`0000078003-2023-05-03-1`)
const ISO = /(?<!\d)(?<!\d-)(\d{4})-(\d{2})-(\d{2})(?!\d)(?!-\d)/g
// July 2, 2023 · Jul. 2 2023 · JULY 2 , 2023
const MONTH_DAY_YEAR = new RegExp(
  `${BEFORE}(${MONTH_PATTERN})\\s*(\\d{1,2})(?:st|nd|rd|th)?\\s*,?\\s*(\\d{4})(?!\\d)`,
  'giu',
)
// 2 July 2023 · 2. Juli 2023 · 2 de julio de 2023 · 1er juillet 2023
const DAY_MONTH_YEAR = new RegExp(
  `${BEFORE}(\\d{1,2})(?:st|nd|rd|th|er|e|º|°|\\.)?\\s*(?:de\\s+)?(${MONTH_PATTERN})\\s*,?\\s*(?:del?\\s+)?(\\d{4})(?!\\d)`,
  'giu',
)
// 02.07.2023: dotted numeric dates are day first wherever they are written
const DOTTED = /(?<![\d.])(\d{1,2})\.(\d{1,2})\.(\d{4})(?![\d.]|\.\d)/g
// 05/19/2022 or 19/05/2022, read only when one of the two numbers cannot be a month
const SLASHED = /(?<![\d/])(\d{1,2})\/(\d{1,2})\/(\d{4})(?![\d/])/g
// March 2024 · mars 2024 · marzo de 2024
const MONTH_YEAR = new RegExp(`${BEFORE}(${MONTH_PATTERN})\\s*,?\\s*(?:del?\\s+)?(\\d{4})(?!\\d)`, 'giu')

function dateOf(index: number, length: number, year: number, month: number, day?: number): DateMatch | null {
  if (year < MIN_YEAR || year > MAX_YEAR) return null
  if (day === undefined) return month >= 1 && month <= 12 ? { index, length, year, month } : null
  return isRealDate(year, month, day) ? { index, length, year, month, day } : null
}

function* scan(text: string): Generator<DateMatch> {
  for (const m of text.matchAll(ISO)) {
    const date = dateOf(m.index, m[0].length, Number(m[1]), Number(m[2]), Number(m[3]))
    if (date) yield date
  }
  for (const m of text.matchAll(MONTH_DAY_YEAR)) {
    const date = dateOf(m.index, m[0].length, Number(m[3]), monthNumber(m[1] ?? '') ?? 0, Number(m[2]))
    if (date) yield date
  }
  for (const m of text.matchAll(DAY_MONTH_YEAR)) {
    const date = dateOf(m.index, m[0].length, Number(m[3]), monthNumber(m[2] ?? '') ?? 0, Number(m[1]))
    if (date) yield date
  }
  for (const m of text.matchAll(DOTTED)) {
    const date = dateOf(m.index, m[0].length, Number(m[3]), Number(m[2]), Number(m[1]))
    if (date) yield date
  }
  for (const m of text.matchAll(SLASHED)) {
    const first = Number(m[1])
    const second = Number(m[2])
    if (first <= 12 && second <= 12) continue
    const date =
      first > 12
        ? dateOf(m.index, m[0].length, Number(m[3]), second, first)
        : dateOf(m.index, m[0].length, Number(m[3]), first, second)
    if (date) yield date
  }
  for (const m of text.matchAll(MONTH_YEAR)) {
    const date = dateOf(m.index, m[0].length, Number(m[2]), monthNumber(m[1] ?? '') ?? 0)
    if (date) yield date
  }
}

/**
 * Dates written in `text`, in order, none overlapping another (a day's date wins over the month
 * inside it): ISO (`2023-07-02`), English (`July 2, 2023`, `2 July 2023`), French, German and
 * Spanish month names (`2 juillet 2023`, `2. Juli 2023`, `2 de julio de 2023`), dotted numeric
 * dates (day first), slashed numeric dates only when unambiguous, and months (`March 2024`).
 */
export function datesIn(text: string): DateMatch[] {
  const found = [...scan(text)].sort((a, b) => a.index - b.index || b.length - a.length)
  const kept: DateMatch[] = []
  let end = 0
  for (const date of found) {
    if (date.index < end) continue
    kept.push(date)
    end = date.index + date.length
  }
  return kept
}
