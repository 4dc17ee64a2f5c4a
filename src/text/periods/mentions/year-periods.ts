import { calendarYear } from '../calendar.js'
import { MAX_YEAR, MIN_YEAR } from '../dates.js'
import { AFTER, BEFORE, fullYear } from './patterns.js'
import type { PeriodMention } from './period-mention.js'

const YEAR_RANGE = new RegExp(
  `${BEFORE}(?:(from|between)\\s+)?(FY\\s*'?|fiscal(?:\\s+year)?\\s+)?(\\d{4}|(?<=FY\\s*'?)\\d{2})\\s*(?:-|–|—|to|through|until|and|bis|à|au|a|hasta)\\s*(?:FY\\s*'?|fiscal(?:\\s+year)?\\s+)?(\\d{4}|(?<=FY\\s*'?)\\d{2})${AFTER}`,
  'giu',
)

/** Year ranges (`2019–2021`, `from FY2017 to FY2019`, `between 2021 and 2022`), at most 50 years long. */
export function* yearRanges(text: string): Generator<PeriodMention> {
  for (const m of text.matchAll(YEAR_RANGE)) {
    const joiner = m[0].match(/\d\s*(and)\s*/i)
    // `2021 and 2022` is a range only after `between`.
    if (joiner && m[1]?.toLowerCase() !== 'between') continue
    const from = fullYear(m[3] ?? '')
    const to = fullYear(m[4] ?? '')
    if (from < MIN_YEAR || to > MAX_YEAR || to <= from || to - from > 50) continue
    yield {
      period: { start: calendarYear(from).start, end: calendarYear(to).end },
      grain: 'span',
      form: 'range',
      fiscal: Boolean(m[2]),
      text: m[0].trim(),
      index: m.index ?? 0,
    }
  }
}

/** A year alone (1950–2099), not a price, a percentage, a decimal or part of a number. */
const BARE_YEAR = /(?<![\p{L}\d$€£¥.,/'-])(19[5-9]\d|20\d\d)(?![\d%]|[.,]\d|-\d)/gu

/** Every bare year of `text`, as its calendar year. */
export function* bareYears(text: string): Generator<PeriodMention> {
  for (const m of text.matchAll(BARE_YEAR)) {
    const year = Number(m[1])
    yield {
      period: { ...calendarYear(year) },
      grain: 'year',
      form: 'year',
      fiscal: false,
      text: m[0],
      index: m.index ?? 0,
    }
  }
}
