import {
  calendarHalf,
  calendarMonth,
  calendarQuarter,
  calendarYear,
  daysInMonth,
  isoDate,
  startOfMonthsEnding,
} from '../calendar.js'
import { MAX_YEAR, MIN_YEAR } from '../dates.js'
import { MONTH_PATTERN, monthNumber } from '../months.js'
import type { Period } from '../period.js'
import { ORDINAL, ordinal } from './ordinals.js'
import { AFTER, BEFORE, FISCAL_WORD, fullYear, isFiscal, YEAR_4 } from './patterns.js'
import type { PeriodGrain, PeriodMention } from './period-mention.js'

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
  // Q2 2023 · Q2-2023 · Q2 FY2023 · Q2 fiscal 2023 · Q2'23 · Q2'2023 · T2 2023 (trimestre)
  {
    pattern: new RegExp(
      `${BEFORE}[QT]([1-4])\\s*[-/ ]?\\s*(?:(?:${FISCAL_WORD})\\s*'?(\\d{4}|\\d{2})|'(\\d{4}|\\d{2})|(\\d{4}))${AFTER}`,
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
  // H1 2023 · H1'23 · H1'2023 · H1 FY23 · S1 2023 (semestre)
  {
    pattern: new RegExp(
      `${BEFORE}[HS]([12])\\s*[-/ ]?\\s*(?:(?:${FISCAL_WORD})\\s*'?(\\d{4}|\\d{2})|'(\\d{4}|\\d{2})|(\\d{4}))${AFTER}`,
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

/** The named periods of `text` (`Q2 2023`, `first half of fiscal 2023`, `FY22`, …), rule by rule. */
export function* namedPeriods(text: string): Generator<PeriodMention> {
  for (const rule of NAMED_RULES) {
    for (const m of text.matchAll(rule.pattern)) {
      const mention = rule.read(m)
      if (mention) yield mention
    }
  }
}
