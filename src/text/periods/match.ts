import {
  calendarHalf,
  calendarQuarter,
  dateParts,
  daysBetween,
  nominalEnd,
  PERIOD_END_SLACK_DAYS,
  spanDays,
} from './calendar.js'
import type { PeriodGrain } from './mentions/period-mention.js'
import type { Period } from './period.js'
import type { AbsoluteReference, PeriodReference, ReferenceGrain } from './references.js'

/** A document in scope and the period it covers (null when none is known). */
export interface PeriodCandidate {
  readonly id: string
  readonly period: Period | null
}

/** How well a candidate's period fits the periods a question names, in [0, 1]. */
export interface PeriodScore {
  readonly id: string
  readonly score: number
}

/** The candidate is the period named (by its own fiscal numbers, or by dates for a day or month). */
export const FULL = 1
/** The candidate ends in the calendar quarter, half or year named: the same period unless the company's fiscal year is not the calendar's. */
export const CALENDAR = 0.8
/** The candidate is a part of the period named: a quarter of the year, a letter dated in the month. */
export const PART = 0.5
/** The candidate covers the period named among others: the annual report for one of its quarters. */
export const WHOLE = 0.3
/** The candidate is the next year's (or next year's same quarter's) report, which repeats the named period's figures as comparatives. */
export const COMPARATIVE = 0.25

/** Ends this close together are the same period across companies (52/53-week calendars, month ends). */
const SAME_END_DAYS = 2 * PERIOD_END_SLACK_DAYS

/** The length of a period, from its dates: what a person would call it. */
export function grainOf(period: Period): PeriodGrain {
  const days = spanDays(period.start, period.end)
  if (days <= 1) return 'day'
  if (days <= 31) return 'month'
  if (days >= 80 && days <= 115) return 'quarter'
  if (days >= 165 && days <= 200) return 'half'
  if (days >= 250 && days <= 290) return 'nine-months'
  if (days >= 350 && days <= 380) return 'year'
  return 'span'
}

/** A candidate with what matching needs, worked out once. */
interface Known {
  readonly id: string
  readonly period: Period
  readonly grain: PeriodGrain
  /** The fiscal year the text gave, else the year its end is named by. */
  readonly year: number
  /** The fiscal quarter the text gave, else the calendar quarter its end is named by. */
  readonly quarter: number
  /** Whether year and quarter came from the text (not from the calendar). */
  readonly fiscalYear: boolean
  readonly fiscalQuarter: boolean
}

function know(candidate: PeriodCandidate): Known | null {
  const { period } = candidate
  if (!period) return null
  const nominal = nominalEnd(period.end)
  return {
    id: candidate.id,
    period,
    grain: grainOf(period),
    year: period.fiscalYear ?? nominal.year,
    quarter: period.fiscalQuarter ?? nominal.quarter,
    fiscalYear: period.fiscalYear !== undefined,
    fiscalQuarter: period.fiscalQuarter !== undefined,
  }
}

const SHORTER_THAN_YEAR: ReadonlySet<PeriodGrain> = new Set(['day', 'month', 'quarter', 'half', 'nine-months'])

/** Whether `date` falls within the period, its end stretched by the 52/53-week slack. */
function within(date: string, start: string, end: string): boolean {
  return daysBetween(start, date) >= 0 && daysBetween(date, end) >= -PERIOD_END_SLACK_DAYS
}

/** Whether two periods share at least a day. */
function overlaps(a: Period, b: Period): boolean {
  return daysBetween(a.start, b.end) >= 0 && daysBetween(b.start, a.end) >= 0
}

/** A year named: its annual report fully, its quarters and other parts partly, the next annual report as comparative. */
function yearScore(year: number, c: Known): number {
  if (c.grain === 'year') return c.year === year ? FULL : c.year === year + 1 ? COMPARATIVE : 0
  if (SHORTER_THAN_YEAR.has(c.grain)) return c.year === year ? PART : 0
  const { start, end } = { start: `${year}-01-01`, end: `${year}-12-31` }
  return overlaps(c.period, { start, end }) ? PART : 0
}

/**
 * A quarter named: the document whose fiscal quarter the text gave as that one fully; else a
 * quarter's document that ends in that calendar quarter (a few days' slack for 52/53-week years);
 * a letter or a month inside it partly; a longer report that contains its end as a whole; the same
 * quarter's report a year later as comparative.
 */
function quarterScore(year: number, quarter: number, c: Known, basis: 'any' | 'fiscal' | 'calendar' = 'any'): number {
  const byNumbers = basis !== 'calendar'
  if (byNumbers && c.grain === 'quarter' && c.fiscalQuarter && c.year === year && c.quarter === quarter) return FULL
  const nominal = nominalEnd(c.period.end)
  if (c.grain === 'quarter') {
    // A question that says fiscal (`Q2 FY2023`) means the fiscal quarter: a document whose own is another does not match.
    const calendarAllowed = !(basis === 'fiscal' && c.fiscalQuarter)
    if (calendarAllowed && nominal.year === year && nominal.quarter === quarter) return CALENDAR
    if (!byNumbers) return nominal.quarter === quarter && nominal.year === year + 1 ? COMPARATIVE : 0
    return c.quarter === quarter && c.year === year + 1 ? COMPARATIVE : 0
  }
  const dates = calendarQuarter(year, quarter)
  if (c.grain === 'day' || c.grain === 'month') return within(c.period.end, dates.start, dates.end) ? PART : 0
  if (byNumbers && c.grain === 'year' && c.fiscalYear && c.year === year) return WHOLE
  return within(dates.end, c.period.start, c.period.end) ? WHOLE : 0
}

/** A half named: a six months' document ending in it, its quarters partly, its year as a whole. */
function halfScore(year: number, half: number, c: Known): number {
  const nominal = nominalEnd(c.period.end)
  const quarters = half === 1 ? [1, 2] : [3, 4]
  if (c.grain === 'half') return nominal.year === year && nominal.quarter === quarters[1] ? CALENDAR : 0
  if (c.grain === 'quarter') return c.year === year && quarters.includes(c.quarter) ? PART : 0
  if (c.grain === 'year') return c.year === year ? WHOLE : 0
  const dates = calendarHalf(year, half)
  if (c.grain === 'day' || c.grain === 'month') return within(c.period.end, dates.start, dates.end) ? PART : 0
  return within(dates.end, c.period.start, c.period.end) ? WHOLE : 0
}

/** A month or a day named: what is dated in it fully, a period ending in it partly, a longer one containing it as a whole. */
function dayOrMonthScore(reference: Period, grain: 'day' | 'month', c: Known): number {
  if (c.grain === 'day' || c.grain === 'month') {
    if (grain === 'day') return c.period.start === reference.start && c.grain === 'day' ? FULL : 0
    return within(c.period.start, reference.start, reference.end) ? FULL : 0
  }
  if (Math.abs(daysBetween(c.period.end, reference.end)) <= PERIOD_END_SLACK_DAYS)
    return grain === 'day' ? CALENDAR : PART
  if (grain === 'month' && within(c.period.end, reference.start, reference.end)) return PART
  return within(reference.end, c.period.start, c.period.end) ? WHOLE : 0
}

function absoluteScore(reference: AbsoluteReference, c: Known): number {
  const { period, grain } = reference
  const year = period.fiscalYear ?? nominalEnd(period.end).year
  switch (grain) {
    case 'year':
      return yearScore(year, c)
    case 'quarter':
      if (reference.period.fiscalQuarter) {
        return quarterScore(year, reference.period.fiscalQuarter, c, reference.fiscal ? 'fiscal' : 'any')
      }
      // A quarter given by its end date (`the quarter ended July 2, 2023`): the document ending then;
      // others by the calendar only (a fiscal number says nothing about that date).
      return Math.abs(daysBetween(c.period.end, period.end)) <= PERIOD_END_SLACK_DAYS && c.grain === 'quarter'
        ? FULL
        : quarterScore(nominalEnd(period.end).year, nominalEnd(period.end).quarter, c, 'calendar')
    case 'half':
      return halfScore(year, dateParts(period.start).month <= 6 ? 1 : 2, c)
    case 'nine-months':
      return Math.abs(daysBetween(c.period.end, period.end)) <= PERIOD_END_SLACK_DAYS ? CALENDAR : 0
    case 'day':
    case 'month':
      return dayOrMonthScore(period, grain, c)
    case 'span': {
      const from = dateParts(period.start).year
      const to = dateParts(period.end).year
      return Math.max(0, ...Array.from({ length: to - from + 1 }, (_, i) => yearScore(from + i, c)))
    }
  }
}

/** Groups of period ends, latest first; ends within SAME_END_DAYS of a group's latest join it. */
function endGroups(ends: readonly string[]): string[][] {
  const sorted = [...new Set(ends)].sort().reverse()
  const groups: string[][] = []
  for (const end of sorted) {
    const group = groups.at(-1)
    if (group?.[0] && daysBetween(end, group[0]) <= SAME_END_DAYS) group.push(end)
    else groups.push([end])
  }
  return groups
}

const GRAINS_OF: Readonly<Record<ReferenceGrain, ReadonlySet<PeriodGrain>>> = {
  year: new Set(['year']),
  half: new Set(['half']),
  quarter: new Set(['quarter']),
  month: new Set(['month', 'day']),
  any: new Set(['day', 'month', 'quarter', 'half', 'nine-months', 'year', 'span']),
}

/** Which calendar quarter, half or month a period ending on `end` is named by, as a running count. */
function stepOf(end: string, grain: 'quarter' | 'half' | 'month'): number {
  const { year, quarter, month } = nominalEnd(end)
  if (grain === 'quarter') return year * 4 + quarter - 1
  if (grain === 'half') return year * 2 + (quarter <= 2 ? 0 : 1)
  return year * 12 + month - 1
}

/**
 * The latest periods of a length among the candidates: `the most recent quarter` is the calendar
 * quarter the latest quarter's document ends in (52/53-week ends a few days later count with it, so
 * companies' reports of the same quarter match together); `the previous quarter` is the one before
 * it, whether or not a document covers it; `the last four quarters` the four up to it. Longer periods
 * that end in a chosen one match partly (an annual report ends with its fourth quarter); when no
 * candidate has that length, the latest ends of any length match partly. `the latest report` (any
 * length) steps back over the candidates' own ends instead.
 */
function latestByEnd(
  grain: ReferenceGrain,
  offset: number,
  count: number,
  known: readonly Known[],
): Map<string, number> {
  const scores = new Map<string, number>()
  const sameLength = known.filter((c) => GRAINS_OF[grain].has(c.grain))
  const pool = sameLength.length > 0 ? sameLength : known
  const full = (c: Known) => pool === sameLength && GRAINS_OF[grain].has(c.grain)
  if (grain === 'any' || grain === 'year') {
    const chosen = endGroups(pool.map((c) => c.period.end)).slice(offset, offset + count)
    const near = (end: string) =>
      chosen.some((group) => group.some((e) => Math.abs(daysBetween(e, end)) <= SAME_END_DAYS))
    for (const c of known) if (near(c.period.end)) scores.set(c.id, full(c) ? FULL : PART)
    return scores
  }
  const latest = Math.max(...pool.map((c) => stepOf(c.period.end, grain)))
  const chosen = new Set(Array.from({ length: count }, (_, i) => latest - offset - i))
  for (const c of known) if (chosen.has(stepOf(c.period.end, grain))) scores.set(c.id, full(c) ? FULL : PART)
  return scores
}

/**
 * `last year` is the latest fiscal year an annual document covers (any document's, when none is
 * annual); `the prior year` the one before it, whether or not a document covers it (the latest
 * annual report then matches as its comparative); `the last three years` the three up to it.
 */
function latestYears(offset: number, count: number, known: readonly Known[]): Map<string, number> {
  const annual = known.filter((c) => c.grain === 'year')
  const latest = Math.max(...(annual.length > 0 ? annual : known).map((c) => c.year))
  const scores = new Map<string, number>()
  for (let i = 0; i < count; i++) {
    for (const c of known) scores.set(c.id, Math.max(scores.get(c.id) ?? 0, yearScore(latest - offset - i, c)))
  }
  return scores
}

/** `the second quarter`, `the first half`: that part of the latest year that has it. */
function latestPart(grain: ReferenceGrain, part: number, known: readonly Known[]): Map<string, number> {
  const scores = new Map<string, number>()
  const years = known
    .filter((c) =>
      grain === 'quarter'
        ? c.grain === 'quarter' && c.quarter === part
        : (c.grain === 'half' && nominalEnd(c.period.end).quarter === part * 2) ||
          (c.grain === 'quarter' && Math.ceil(c.quarter / 2) === part),
    )
    .map((c) => c.year)
  const year = years.length > 0 ? Math.max(...years) : Math.max(...known.map((c) => c.year))
  for (const c of known) scores.set(c.id, grain === 'quarter' ? quarterScore(year, part, c) : halfScore(year, part, c))
  return scores
}

function relativeScores(reference: PeriodReference, known: readonly Known[]): Map<string, number> {
  if (known.length === 0) return new Map()
  if (reference.kind === 'every') {
    const lengths = GRAINS_OF[reference.grain]
    return new Map(known.map((c) => [c.id, lengths.has(c.grain) ? FULL : WHOLE]))
  }
  if (reference.kind !== 'latest') return new Map()
  if (reference.part && (reference.grain === 'quarter' || reference.grain === 'half')) {
    return latestPart(reference.grain, reference.part, known)
  }
  if (reference.grain === 'year') return latestYears(reference.offset, reference.count, known)
  return latestByEnd(reference.grain, reference.offset, reference.count, known)
}

/**
 * How well each candidate's period fits the periods a question names (periodReferences), in
 * [0, 1], in the candidates' order; the best over the references when there are several. Absolute
 * references are compared with each candidate on its own (see the scores above: FULL, CALENDAR,
 * PART, WHOLE, COMPARATIVE); relative ones are resolved against the candidates' own periods, so
 * pass the documents in scope (one company's, when the question is about one): `the most recent
 * quarter` is the candidates whose quarter ends last, `last year` the latest fiscal year an annual
 * document covers (or any document, when none is annual), `the prior year` the one before it, `the
 * first half` the first half of the latest year that has one, `each quarter` every quarter's
 * document. A candidate without a period scores 0; with no references, every candidate scores 1
 * (nothing tells them apart).
 */
export function matchPeriods(
  references: readonly PeriodReference[],
  candidates: readonly PeriodCandidate[],
): PeriodScore[] {
  if (references.length === 0) return candidates.map((candidate) => ({ id: candidate.id, score: 1 }))
  const known = candidates.map(know).filter((c): c is Known => c !== null)
  const best = new Map<string, number>()
  const keep = (id: string, score: number) => best.set(id, Math.max(best.get(id) ?? 0, score))
  for (const reference of references) {
    if (reference.kind === 'absolute') {
      for (const c of known) keep(c.id, absoluteScore(reference, c))
    } else {
      for (const [id, score] of relativeScores(reference, known)) keep(id, score)
    }
  }
  return candidates.map((candidate) => ({ id: candidate.id, score: best.get(candidate.id) ?? 0 }))
}
