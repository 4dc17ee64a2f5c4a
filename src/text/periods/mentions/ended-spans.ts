import { addDays, daysInMonth, isoDate, startOfMonthsEnding } from '../calendar.js'
import type { DateMatch } from '../dates.js'
import { ORDINAL, ordinal } from './ordinals.js'
import type { PeriodGrain, PeriodMention } from './period-mention.js'

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
export function endedAt(text: string, date: DateMatch): PeriodMention | null {
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
