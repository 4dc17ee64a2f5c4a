/**
 * Calendar arithmetic on ISO dates (`YYYY-MM-DD`), in UTC so that no time zone shifts a day.
 * Periods are spans of whole days with both ends included.
 */

const DAY_MS = 86_400_000

/** `2023-07-02` from its parts; month 1–12. */
export function isoDate(year: number, month: number, day: number): string {
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`
}

/** Year, month (1–12) and day of an ISO date. */
export function dateParts(iso: string): { readonly year: number; readonly month: number; readonly day: number } {
  return { year: Number(iso.slice(0, 4)), month: Number(iso.slice(5, 7)), day: Number(iso.slice(8, 10)) }
}

/** Days in a month (1–12) of a year. */
export function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate()
}

/** Whether year, month and day name a real day (no 31 April, no 29 February 2023). */
export function isRealDate(year: number, month: number, day: number): boolean {
  return month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month)
}

function toTime(iso: string): number {
  const { year, month, day } = dateParts(iso)
  return Date.UTC(year, month - 1, day)
}

function fromTime(time: number): string {
  const date = new Date(time)
  return isoDate(date.getUTCFullYear(), date.getUTCMonth() + 1, date.getUTCDate())
}

/** The date `days` days after `iso` (before when negative). */
export function addDays(iso: string, days: number): string {
  return fromTime(toTime(iso) + days * DAY_MS)
}

/** Days from `from` to `to` (negative when `to` is earlier). */
export function daysBetween(from: string, to: string): number {
  return Math.round((toTime(to) - toTime(from)) / DAY_MS)
}

/** Days a period covers, both ends included. */
export function spanDays(start: string, end: string): number {
  return daysBetween(start, end) + 1
}

/** The last day of the month of `iso`. */
export function endOfMonth(iso: string): string {
  const { year, month } = dateParts(iso)
  return isoDate(year, month, daysInMonth(year, month))
}

/** Whether `iso` is the last day of its month. */
export function isMonthEnd(iso: string): boolean {
  return endOfMonth(iso) === iso
}

/** First day of the month `months` months after the month of `iso` (before when negative). */
export function monthStartAfter(iso: string, months: number): string {
  const { year, month } = dateParts(iso)
  const index = year * 12 + (month - 1) + months
  return isoDate(Math.floor(index / 12), (index % 12) + 1, 1)
}

/** The calendar quarter (1–4) a month (1–12) falls in. */
export function quarterOfMonth(month: number): number {
  return Math.ceil(month / 3)
}

/** First and last day of a calendar quarter. */
export function calendarQuarter(year: number, quarter: number): { readonly start: string; readonly end: string } {
  const lastMonth = quarter * 3
  return { start: isoDate(year, lastMonth - 2, 1), end: isoDate(year, lastMonth, daysInMonth(year, lastMonth)) }
}

/** First and last day of a calendar half-year (1 or 2). */
export function calendarHalf(year: number, half: number): { readonly start: string; readonly end: string } {
  return half === 1
    ? { start: isoDate(year, 1, 1), end: isoDate(year, 6, 30) }
    : { start: isoDate(year, 7, 1), end: isoDate(year, 12, 31) }
}

/** First and last day of a month. */
export function calendarMonth(year: number, month: number): { readonly start: string; readonly end: string } {
  return { start: isoDate(year, month, 1), end: isoDate(year, month, daysInMonth(year, month)) }
}

/** First and last day of a calendar year. */
export function calendarYear(year: number): { readonly start: string; readonly end: string } {
  return { start: isoDate(year, 1, 1), end: isoDate(year, 12, 31) }
}

/**
 * Companies on 52/53-week fiscal calendars end their quarters and years on a weekday near the
 * month's end, up to six days after it (`July 2, 2023` closes the second quarter, `January 1,
 * 2023` the year 2022). Moving an end date back this many days gives the month a person names it by.
 */
export const PERIOD_END_SLACK_DAYS = 7

/** The year, quarter and month a period ending on `end` is named by (see PERIOD_END_SLACK_DAYS). */
export function nominalEnd(end: string): { readonly year: number; readonly quarter: number; readonly month: number } {
  const { year, month } = dateParts(addDays(end, -PERIOD_END_SLACK_DAYS))
  return { year, quarter: quarterOfMonth(month), month }
}

/**
 * The first day of a period of `months` months (or its 52/53-week equivalent) ending on `end`:
 * whole calendar months when `end` is a month's last day, else 13 weeks a quarter, the way
 * 52/53-week fiscal calendars count (`three months ended July 2, 2023` began on April 3).
 */
export function startOfMonthsEnding(end: string, months: number): string {
  if (isMonthEnd(end)) return monthStartAfter(end, 1 - months)
  return addDays(end, -Math.round((months * 13) / 3) * 7 + 1)
}
