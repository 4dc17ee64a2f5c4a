import {
  addDays,
  calendarHalf,
  calendarMonth,
  calendarQuarter,
  calendarYear,
  daysInMonth,
  isoDate,
  startOfMonthsEnding,
} from './calendar.js'
import { type DateMatch, datesIn, MAX_YEAR, MIN_YEAR } from './dates.js'
import { MONTH_PATTERN, monthNumber } from './months.js'
import type { Period } from './period.js'

/** How long a period is: what a person would call it. */
export type PeriodGrain = 'day' | 'month' | 'quarter' | 'half' | 'nine-months' | 'year' | 'span'

/**
 * How a period was written, which says how far its dates can be trusted: `ended` (a span ending
 * on a date, `three months ended July 2, 2023`: exact), `named` (`Q2 2023`, `fiscal 2023`, `H1
 * 2023`: fiscal numbers exact, dates the calendar's, a guess for a company whose fiscal year is
 * not the calendar year), `date` (a day or a month), `range` (`2019–2021`), `year` (a bare year).
 */
export type MentionForm = 'ended' | 'named' | 'date' | 'range' | 'year'

/** A period written in text. */
export interface PeriodMention {
  readonly period: Period
  readonly grain: PeriodGrain
  readonly form: MentionForm
  /** The text said it is a fiscal period (`fiscal`, `FY`, `exercice`, `Geschäftsjahr`, `ejercicio`). */
  readonly fiscal: boolean
  /** The words as written. */
  readonly text: string
  readonly index: number
}

export interface MentionOptions {
  /** Read bare years (`2023`) too; off for running text full of them (tables, notes). */
  readonly bareYears?: boolean
}

const BEFORE = '(?<![\\p{L}\\d])'
const AFTER = '(?![\\p{L}\\d])'

const ORDINALS: Readonly<Record<string, number>> = {
  first: 1,
  '1st': 1,
  second: 2,
  '2nd': 2,
  third: 3,
  '3rd': 3,
  fourth: 4,
  '4th': 4,
  premier: 1,
  première: 1,
  premiere: 1,
  '1er': 1,
  '1re': 1,
  deuxième: 2,
  deuxieme: 2,
  '2e': 2,
  '2ème': 2,
  troisième: 3,
  troisieme: 3,
  '3e': 3,
  '3ème': 3,
  quatrième: 4,
  quatrieme: 4,
  '4e': 4,
  '4ème': 4,
  erste: 1,
  ersten: 1,
  erstes: 1,
  erster: 1,
  '1.': 1,
  zweite: 2,
  zweiten: 2,
  zweites: 2,
  zweiter: 2,
  '2.': 2,
  dritte: 3,
  dritten: 3,
  drittes: 3,
  dritter: 3,
  '3.': 3,
  vierte: 4,
  vierten: 4,
  viertes: 4,
  vierter: 4,
  '4.': 4,
  primer: 1,
  primero: 1,
  segundo: 2,
  tercer: 3,
  tercero: 3,
  cuarto: 4,
}

/** An ordinal word as written (`Second`, `2nd`, `2e`, `zweites`, `segundo`) → 1–4. */
export function ordinal(word: string): number | undefined {
  return ORDINALS[word.toLowerCase()]
}

const ORDINAL =
  '(first|second|third|fourth|1st|2nd|3rd|4th|premi[eè]re?|1er|1re|deuxi[eè]me|2e|2[eè]me|troisi[eè]me|3e|3[eè]me|quatri[eè]me|4e|4[eè]me|erste[nrs]?|zweite[nrs]?|dritte[nrs]?|vierte[nrs]?|[1-4]\\.|primer|primero|segundo|tercer|tercero|cuarto)'
const FISCAL_WORD =
  '(?:fiscal(?:\\s+year)?|FY|financial\\s+year|exercice(?:\\s+fiscal)?|Gesch[äa]ftsjahr(?:es)?|ejercicio(?:\\s+fiscal)?|a[ñn]o\\s+fiscal)'
// 2023 · '23 (only after FY or an apostrophe: a bare 23 is a number)
const YEAR_4 = '(\\d{4})'

/** A 2-digit year (`23`) in this century, a 4-digit one as is. */
function fullYear(text: string): number {
  const digits = text.replace(/\D/g, '')
  return digits.length === 2 ? 2000 + Number(digits) : Number(digits)
}

const isFiscal = (text: string): boolean => new RegExp(FISCAL_WORD, 'iu').test(text)

function named(
  grain: PeriodGrain,
  year: number,
  part: number,
  text: string,
  index: number,
  fiscal: boolean,
): PeriodMention | null {
  if (year < MIN_YEAR || year > MAX_YEAR) return null
  const dates =
    grain === 'quarter'
      ? calendarQuarter(year, part)
      : grain === 'half'
        ? calendarHalf(year, part)
        : grain === 'month'
          ? calendarMonth(year, part)
          : calendarYear(year)
  const period: Period = {
    ...dates,
    fiscalYear: year,
    ...(grain === 'quarter' ? { fiscalQuarter: part } : {}),
  }
  return { period, grain, form: 'named', fiscal, text: text.trim(), index }
}

interface NamedRule {
  readonly pattern: RegExp
  readonly read: (m: RegExpMatchArray) => PeriodMention | null
}

const q = (m: RegExpMatchArray, grain: PeriodGrain, year: string | undefined, part: number | undefined) =>
  year && part ? named(grain, fullYear(year), part, m[0], m.index ?? 0, isFiscal(m[0])) : null

/** Named periods, longest forms first (an earlier rule's match hides a later one's inside it). */
const NAMED_RULES: readonly NamedRule[] = [
  // second quarter of fiscal 2023 · Fourth Quarter and Full Year 2022 · first-quarter 2023 · 2nd quarter, 2023
  {
    pattern: new RegExp(
      `${BEFORE}${ORDINAL}[\\s-]+(?:fiscal\\s+)?quarter(?:\\s+(?:of|in))?(?:\\s+(?:the\\s+)?${FISCAL_WORD})?\\s*,?\\s*(?:and\\s+(?:the\\s+)?(?:full|fiscal)[\\s-]+year\\s+)?(?:${YEAR_4}|(?<=(?:FY|fiscal)\\s*)'?(\\d{2}))${AFTER}`,
      'giu',
    ),
    read: (m) => q(m, 'quarter', m[2] ?? m[3], ordinal(m[1] ?? '')),
  },
  // 2023 Second-Quarter · 2022 Fourth-Quarter and Full-Year
  {
    pattern: new RegExp(`${BEFORE}${YEAR_4}\\s+${ORDINAL}[\\s-]+(?:fiscal\\s+)?quarter${AFTER}`, 'giu'),
    read: (m) => q(m, 'quarter', m[1], ordinal(m[2] ?? '')),
  },
  // fiscal 2024 first quarter · FY2023 second quarter
  {
    pattern: new RegExp(`${BEFORE}${FISCAL_WORD}\\s*'?(\\d{4}|\\d{2})\\s+${ORDINAL}[\\s-]+quarter${AFTER}`, 'giu'),
    read: (m) => q(m, 'quarter', m[1], ordinal(m[2] ?? '')),
  },
  // premier trimestre 2023 · deuxième trimestre de l'exercice 2023 · 2. Quartal 2023 · segundo trimestre de 2023
  {
    pattern: new RegExp(
      `${BEFORE}${ORDINAL}\\s+(?:trimestre|quartal|quartals)\\s+(?:(?:de\\s+l[’']|des\\s+|del?\\s+)?(?:exercice|gesch[äa]ftsjahr(?:es)?|ejercicio|a[ñn]o)\\s+(?:fiscal\\s+)?)?(?:de\\s+|del\\s+)?${YEAR_4}${AFTER}`,
      'giu',
    ),
    read: (m) => q(m, 'quarter', m[2], ordinal(m[1] ?? '')),
  },
  // FY23 Q2 · FY2023 Q2
  {
    pattern: new RegExp(`${BEFORE}FY\\s*'?(\\d{4}|\\d{2})\\s*[-/ ]?\\s*Q([1-4])${AFTER}`, 'giu'),
    read: (m) => q(m, 'quarter', m[1], Number(m[2])),
  },
  // Q2 2023 · Q2-2023 · Q2 FY2023 · Q2 fiscal 2023 · Q2'23 · T2 2023 (trimestre)
  {
    pattern: new RegExp(
      `${BEFORE}[QT]([1-4])\\s*[-/ ]?\\s*(?:(?:${FISCAL_WORD})\\s*'?(\\d{4}|\\d{2})|'(\\d{2})|(\\d{4}))${AFTER}`,
      'giu',
    ),
    read: (m) => q(m, 'quarter', m[2] ?? m[3] ?? m[4], Number(m[1])),
  },
  // 4Q 2023 · 3Q23 · 1Q FY24
  {
    pattern: new RegExp(`${BEFORE}([1-4])Q\\s*(?:FY\\s*)?'?(\\d{4}|\\d{2})${AFTER}`, 'giu'),
    read: (m) => q(m, 'quarter', m[2], Number(m[1])),
  },
  // 2023Q2 · 2023 Q3 · 2023-Q3
  {
    pattern: new RegExp(`${BEFORE}(\\d{4})\\s*[-/ ]?\\s*Q([1-4])${AFTER}`, 'giu'),
    read: (m) => q(m, 'quarter', m[1], Number(m[2])),
  },
  // the June 2023 quarter: the quarter ending in that month
  {
    pattern: new RegExp(`${BEFORE}(${MONTH_PATTERN})\\s+(\\d{4})\\s+quarter${AFTER}`, 'giu'),
    read: (m) => quarterEndingIn(m),
  },
  // first half of 2023 · second half of fiscal 2023 · first half-year 2023 · 1st half 2023
  {
    pattern: new RegExp(
      `${BEFORE}(first|second|1st|2nd)[\\s-]+half(?:[\\s-]+year)?(?:\\s+(?:of|in))?(?:\\s+(?:the\\s+)?${FISCAL_WORD})?\\s*,?\\s*(?:${YEAR_4}|(?<=(?:FY|fiscal)\\s*)'?(\\d{2}))${AFTER}`,
      'giu',
    ),
    read: (m) => q(m, 'half', m[2] ?? m[3], ordinal(m[1] ?? '')),
  },
  // premier semestre 2023 · erstes Halbjahr 2023 · primer semestre de 2023
  {
    pattern: new RegExp(
      `${BEFORE}(premier|1er|second|deuxi[eè]me|2e|2[eè]me|erste[nrs]?|1\\.|zweite[nrs]?|2\\.|primer|segundo)\\s+(?:semestre|halbjahr(?:es)?|hj\\.?)\\s+(?:de\\s+l[’']exercice\\s+|des\\s+gesch[äa]ftsjahres\\s+|del?\\s+(?:a[ñn]o\\s+|ejercicio\\s+)?)?${YEAR_4}${AFTER}`,
      'giu',
    ),
    read: (m) => q(m, 'half', m[2], (m[1] ?? '').match(/^(premier|1|erst|primer)/i) ? 1 : 2),
  },
  // H1 2023 · H1'23 · H1 FY23 · S1 2023 (semestre)
  {
    pattern: new RegExp(
      `${BEFORE}[HS]([12])\\s*[-/ ]?\\s*(?:(?:${FISCAL_WORD})\\s*'?(\\d{4}|\\d{2})|'(\\d{2})|(\\d{4}))${AFTER}`,
      'giu',
    ),
    read: (m) => q(m, 'half', m[2] ?? m[3] ?? m[4], Number(m[1])),
  },
  // 1H23 · 1H 2023
  {
    pattern: new RegExp(`${BEFORE}([12])H\\s*(?:FY\\s*)?'?(\\d{4}|\\d{2})${AFTER}`, 'giu'),
    read: (m) => q(m, 'half', m[2], Number(m[1])),
  },
  // FY2022 · FY22 · FY 2022 · FY'22
  {
    pattern: new RegExp(`${BEFORE}F\\.?Y\\.?\\s*'?(\\d{4}|\\d{2})${AFTER}`, 'giu'),
    read: (m) => (m[1] ? named('year', fullYear(m[1]), 0, m[0], m.index ?? 0, true) : null),
  },
  // fiscal 2023 · fiscal year 2023 · exercice 2023 · Geschäftsjahr 2023 · ejercicio 2023 · full year 2022
  {
    pattern: new RegExp(
      `${BEFORE}(${FISCAL_WORD}|full[\\s-]year|financial\\s+year)\\s+(?:de\\s+|del\\s+)?${YEAR_4}(?:/\\d{2,4})?${AFTER}`,
      'giu',
    ),
    read: (m) => (m[2] ? named('year', Number(m[2]), 0, m[0], m.index ?? 0, isFiscal(m[1] ?? '')) : null),
  },
]

function quarterEndingIn(m: RegExpMatchArray): PeriodMention | null {
  const month = monthNumber(m[1] ?? '')
  const year = Number(m[2])
  if (!month || year < MIN_YEAR || year > MAX_YEAR) return null
  const end = isoDate(year, month, daysInMonth(year, month))
  return {
    period: { start: startOfMonthsEnding(end, 3), end },
    grain: 'quarter',
    form: 'named',
    fiscal: false,
    text: m[0].trim(),
    index: m.index ?? 0,
  }
}

/** Spans that end on a date: the words before the date say how long they are. */
const WORD_COUNTS: Readonly<Record<string, number>> = {
  three: 3,
  six: 6,
  nine: 9,
  twelve: 12,
  thirteen: 13,
  sixteen: 16,
  'twenty-four': 24,
  'twenty four': 24,
  'twenty-six': 26,
  'twenty six': 26,
  'twenty-eight': 28,
  'twenty eight': 28,
  'thirty-six': 36,
  'thirty six': 36,
  'thirty-nine': 39,
  'thirty nine': 39,
  forty: 40,
  'fifty-two': 52,
  'fifty two': 52,
  'fifty-three': 53,
  'fifty three': 53,
  trois: 3,
  neuf: 9,
  douze: 12,
  drei: 3,
  sechs: 6,
  neun: 9,
  zwölf: 12,
  zwoelf: 12,
  tres: 3,
  seis: 6,
  nueve: 9,
  doce: 12,
}

const COUNT =
  '(\\d{1,2}|three|six|nine|twelve|thirteen|sixteen|twenty[\\s-](?:four|six|eight)|thirty[\\s-](?:six|nine)|forty|fifty[\\s-](?:two|three)|trois|six|neuf|douze|drei|sechs|neun|zw[öo]e?lf|tres|seis|nueve|doce)'
/** English, French, German and Spanish words for the span, ending right before the date. */
const ENDED_BEFORE_DATE = new RegExp(
  `(?:${ORDINAL}\\s+)?(?:(fiscal|financial)\\s+)?(quarterly\\s+period|quarter|half[\\s-]year|half|year|${COUNT}(?:\\s+and\\s+${COUNT})?[\\s-]+(months?|weeks?)|exercice|ann[ée]e|trimestre|semestre|p[ée]riode\\s+de\\s+${COUNT}\\s+(mois)|gesch[äa]ftsjahr|jahr|quartal|halbjahr|zeitraum\\s+von\\s+${COUNT}\\s+(monaten)|ejercicio|a[ñn]o|per[ií]odo\\s+de\\s+${COUNT}\\s+(meses))(?:\\s+and\\s+(?:fiscal\\s+)?(?:year|${COUNT}[\\s-]+(?:months|weeks)))?\\s*,?\\s+(?:then\\s+)?(?:ended|ending|end(?:ed)?\\s+on|clos(?:e|es)?\\s+(?:le|au)|cl[ôo]tur[ée]e?s?\\s+(?:le|au)|termin[ée]e?s?\\s+(?:le|au)|achev[ée]e?s?\\s+(?:le|au)|zum|bis\\s+zum|endend\\s+am|terminad[oa]s?\\s+(?:el|al)|finalizad[oa]s?\\s+(?:el|al)|cerrad[oa]s?\\s+(?:el|al))(?:\\s+on)?\\s*$`,
  'iu',
)
/** German also says it after the date: `am 31. Dezember 2022 endende Geschäftsjahr`. */
const ENDED_AFTER_DATE = /^\s*(?:endende[ns]?|abgelaufene[ns]?)\s+(gesch[äa]ftsjahr|quartal|halbjahr|jahr)/iu

/** Months a span covers, from its words. */
function spanMonths(unit: string, count: number | undefined, measure: string | undefined): number | null {
  const word = unit.toLowerCase()
  if (measure) {
    if (count === undefined) return null
    if (/^(month|mois|monat|mes)/i.test(measure)) return [3, 6, 9, 12].includes(count) ? count : null
    // Weeks: quarters of 12, 13 or 16 weeks, halves of 24–28, nine months of 36–40, years of 52/53.
    if (count >= 12 && count <= 16) return 3
    if (count >= 24 && count <= 28) return 6
    if (count >= 36 && count <= 40) return 9
    if (count >= 52 && count <= 53) return 12
    return null
  }
  if (/^(quarter|trimestre|quartal)/.test(word)) return 3
  if (/^(half|semestre|halbjahr)/.test(word)) return 6
  if (/^(year|exercice|ann|gesch|jahr|ejercicio|a[ñn]o)/.test(word)) return 12
  return null
}

const GRAIN_OF_MONTHS: Readonly<Record<number, PeriodGrain>> = { 3: 'quarter', 6: 'half', 9: 'nine-months', 12: 'year' }

function countOf(text: string | undefined): number | undefined {
  if (!text) return undefined
  const word = text.toLowerCase().replace(/\s+/g, ' ')
  return /^\d+$/.test(word) ? Number(word) : WORD_COUNTS[word]
}

function endDateOf(date: DateMatch): string {
  return isoDate(date.year, date.month, date.day ?? daysInMonth(date.year, date.month))
}

/** The span ending on `date` that the words around it describe, or null when they do not. */
function endedAt(text: string, date: DateMatch): PeriodMention | null {
  const before = text.slice(Math.max(0, date.index - 120), date.index)
  const match = before.match(ENDED_BEFORE_DATE)
  let months: number | null = null
  let weeks: number | undefined
  let fiscalQuarter: number | undefined
  let fiscal = false
  let start = date.index
  let finish = date.index + date.length
  if (match) {
    const [, ordinalWord, fiscalWord, unit = '', ...rest] = match
    // The first count of `three and six months` is the span; the weeks or months word follows.
    const counts = rest.filter((part) => part !== undefined)
    const measureWord = counts.find((part) => /^(months?|weeks?|mois|monaten|meses)$/i.test(part))
    const count = countOf(counts.find((part) => countOf(part) !== undefined))
    months = spanMonths(unit, count, measureWord)
    if (measureWord && /^week/i.test(measureWord)) weeks = count
    fiscalQuarter = ordinalWord && months === 3 ? ordinal(ordinalWord) : undefined
    fiscal = Boolean(fiscalWord) || /^(exercice|gesch|ejercicio)/i.test(unit)
    start = date.index - before.length + (match.index ?? 0)
  } else {
    const after = text.slice(finish, finish + 40).match(ENDED_AFTER_DATE)
    if (!after) return null
    months = spanMonths(after[1] ?? '', undefined, undefined)
    fiscal = /^gesch/i.test(after[1] ?? '')
    finish += after[0].length
  }
  if (!months) return null
  const end = endDateOf(date)
  const first = weeks ? addDays(end, -weeks * 7 + 1) : startOfMonthsEnding(end, months)
  const grain = GRAIN_OF_MONTHS[months] ?? 'span'
  return {
    period: { start: first, end, ...(fiscalQuarter ? { fiscalQuarter } : {}) },
    grain,
    form: 'ended',
    fiscal,
    text: text.slice(start, finish).trim(),
    index: start,
  }
}

const YEAR_RANGE = new RegExp(
  `${BEFORE}(?:(from|between)\\s+)?(FY\\s*'?|fiscal(?:\\s+year)?\\s+)?(\\d{4}|(?<=FY\\s*'?)\\d{2})\\s*(?:-|–|—|to|through|until|and|bis|à|au|a|hasta)\\s*(?:FY\\s*'?|fiscal(?:\\s+year)?\\s+)?(\\d{4}|(?<=FY\\s*'?)\\d{2})${AFTER}`,
  'giu',
)

function* ranges(text: string): Generator<PeriodMention> {
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

const BARE_YEAR = /(?<![\p{L}\d$€£¥.,/'-])(19[5-9]\d|20\d\d)(?![\d%]|[.,]\d|-\d)/gu

function* bareYears(text: string): Generator<PeriodMention> {
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

function* dated(text: string, dates: readonly DateMatch[]): Generator<PeriodMention> {
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

const FORM_PRIORITY: Readonly<Record<MentionForm, number>> = { ended: 0, named: 1, range: 2, date: 3, year: 4 }

/**
 * The periods written in `text`, in order of position, none overlapping another: spans ending on
 * a date (`for the quarterly period ended July 2, 2023`, `three and six months ended June 30,
 * 2023`, `fiscal year ended December 31, 2022`, `52 weeks ended …`, `exercice clos le …`,
 * `Geschäftsjahr zum …`, `ejercicio terminado el …`), named periods (`first quarter of fiscal
 * 2024`, `Q2 2023`, `2023 Q3`, `4Q23`, `FY2022`, `FY22`, `fiscal 2023`, `H1 2023`, `first half of
 * 2023`, `the June 2023 quarter`, and their French, German and Spanish forms), year ranges
 * (`2019–2021`, `from FY2017 to FY2019`), dates and months, and, when asked, bare years.
 * When two overlap, the one that starts first wins, then the longer, then the more exact form.
 */
export function periodsIn(text: string, options: MentionOptions = {}): PeriodMention[] {
  const found: PeriodMention[] = [...dated(text, datesIn(text)), ...ranges(text)]
  for (const rule of NAMED_RULES) {
    for (const m of text.matchAll(rule.pattern)) {
      const mention = rule.read(m)
      if (mention) found.push(mention)
    }
  }
  if (options.bareYears ?? true) found.push(...bareYears(text))
  found.sort(
    (a, b) => a.index - b.index || b.text.length - a.text.length || FORM_PRIORITY[a.form] - FORM_PRIORITY[b.form],
  )
  const kept: PeriodMention[] = []
  let end = 0
  for (const mention of found) {
    if (mention.index < end) continue
    kept.push(mention)
    end = mention.index + mention.text.length
  }
  return kept
}
