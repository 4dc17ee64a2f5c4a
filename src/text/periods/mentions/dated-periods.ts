import { calendarMonth, isoDate } from '../calendar.js'
import type { DateMatch } from '../dates.js'
import { endedAt } from './ended-spans.js'
import type { PeriodMention } from './period-mention.js'

/** The periods the dates of `text` write: a span ending on the date when the words around it say so, else the day or month. */
export function* datedPeriods(text: string, dates: readonly DateMatch[]): Generator<PeriodMention> {
  for (const date of dates) {
    const ended = endedAt(text, date)
    if (ended) {
      yield ended
      continue
    }
    const { year, month, day } = date
    const dates = day
      ? { start: isoDate(year, month, day), end: isoDate(year, month, day) }
      : calendarMonth(year, month)
    yield {
      period: dates,
      grain: day ? 'day' : 'month',
      form: 'date',
      fiscal: false,
      text: text.slice(date.index, date.index + date.length),
      index: date.index,
    }
  }
}
