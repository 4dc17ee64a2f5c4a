import { dateParts } from './calendar.js'
import type { PeriodMention } from './mentions/period-mention.js'
import { monthNames } from './months.js'

/** A date as a person writes it in a language: `July 2, 2023`, `2 juillet 2023`, `2. Juli 2023`, `2 de julio de 2023`. */
export function formatDate(iso: string, language: string): string {
  const { year, month, day } = dateParts(iso)
  const name = monthNames(language)[month - 1]
  if (language === 'fr') return `${day === 1 ? '1er' : day} ${name} ${year}`
  if (language === 'de') return `${day}. ${name} ${year}`
  if (language === 'es') return `${day} de ${name} de ${year}`
  return `${name} ${day}, ${year}`
}

/** A month as a person writes it: `March 2024`, `mars 2024`, `März 2024`, `marzo de 2024`. */
export function formatMonth(iso: string, language: string): string {
  const { year, month } = dateParts(iso)
  const name = monthNames(language)[month - 1]
  return language === 'es' ? `${name} de ${year}` : `${name} ${year}`
}

interface Words {
  readonly ended: Readonly<Record<'quarter' | 'half' | 'nine-months' | 'year' | 'fiscal-year', string>>
  readonly quarter: (quarter: number, year: number, fiscal: boolean) => string
  readonly half: (half: number, year: number, fiscal: boolean) => string
  readonly fiscalYear: (year: number) => string
}

const WORDS: Readonly<Record<string, Words>> = {
  en: {
    ended: {
      quarter: 'quarter ended',
      half: 'six months ended',
      'nine-months': 'nine months ended',
      year: 'year ended',
      'fiscal-year': 'fiscal year ended',
    },
    quarter: (quarter, year, fiscal) => (fiscal ? `Q${quarter} of fiscal ${year}` : `Q${quarter} ${year}`),
    half: (half, year, fiscal) => (fiscal ? `H${half} of fiscal ${year}` : `H${half} ${year}`),
    fiscalYear: (year) => `fiscal ${year}`,
  },
  fr: {
    ended: {
      quarter: 'trimestre clos le',
      half: 'semestre clos le',
      'nine-months': 'neuf mois clos le',
      year: 'année close le',
      'fiscal-year': 'exercice clos le',
    },
    quarter: (quarter, year, fiscal) => (fiscal ? `T${quarter} de l’exercice ${year}` : `T${quarter} ${year}`),
    half: (half, year, fiscal) => (fiscal ? `S${half} de l’exercice ${year}` : `S${half} ${year}`),
    fiscalYear: (year) => `exercice ${year}`,
  },
  de: {
    ended: {
      quarter: 'Quartal zum',
      half: 'Halbjahr zum',
      'nine-months': 'neun Monate zum',
      year: 'Jahr zum',
      'fiscal-year': 'Geschäftsjahr zum',
    },
    quarter: (quarter, year, fiscal) => (fiscal ? `Q${quarter} des Geschäftsjahres ${year}` : `Q${quarter} ${year}`),
    half: (half, year, fiscal) => (fiscal ? `H${half} des Geschäftsjahres ${year}` : `H${half} ${year}`),
    fiscalYear: (year) => `Geschäftsjahr ${year}`,
  },
  es: {
    ended: {
      quarter: 'trimestre terminado el',
      half: 'semestre terminado el',
      'nine-months': 'nueve meses terminados el',
      year: 'año terminado el',
      'fiscal-year': 'ejercicio terminado el',
    },
    quarter: (quarter, year, fiscal) => (fiscal ? `T${quarter} del ejercicio ${year}` : `T${quarter} ${year}`),
    half: (half, year, fiscal) => (fiscal ? `S${half} del ejercicio ${year}` : `S${half} ${year}`),
    fiscalYear: (year) => `ejercicio ${year}`,
  },
}

/** What labels are made from: a period, its length, how it was written, whether it was called fiscal. */
export type LabelSource = Pick<PeriodMention, 'period' | 'grain' | 'form' | 'fiscal'>

/**
 * The words a person would use for a period, in `language` (English, French, German or Spanish;
 * English for any other): `quarter ended July 2, 2023 (Q2 of fiscal 2023)`, `fiscal year ended
 * November 27, 2015 (fiscal 2015)`, `Q2 2023`, `fiscal 2023`, `H1 2023`, `July 1, 2022`,
 * `March 2024`, `2019–2021`. Fiscal numbers are added to an exact span when they are known.
 */
export function periodLabel(source: LabelSource, language: string): string {
  const words = WORDS[language] ?? (WORDS.en as Words)
  const { period, grain, form, fiscal } = source
  const { fiscalYear, fiscalQuarter } = period
  const start = dateParts(period.start)
  if (form === 'ended') {
    const key = grain === 'year' && fiscal ? 'fiscal-year' : grain
    const lead = key in words.ended ? words.ended[key as keyof Words['ended']] : words.ended.quarter
    const base = `${lead} ${formatDate(period.end, language)}`
    if (grain === 'quarter' && fiscalQuarter && fiscalYear)
      return `${base} (${words.quarter(fiscalQuarter, fiscalYear, true)})`
    if (grain === 'year' && fiscalYear && fiscal) return `${base} (${words.fiscalYear(fiscalYear)})`
    return base
  }
  if (grain === 'quarter' && fiscalQuarter && fiscalYear) return words.quarter(fiscalQuarter, fiscalYear, fiscal)
  if (grain === 'half' && fiscalYear) return words.half(start.month <= 6 ? 1 : 2, fiscalYear, fiscal)
  if (grain === 'year') return fiscal && fiscalYear ? words.fiscalYear(fiscalYear) : String(fiscalYear ?? start.year)
  if (grain === 'day') return formatDate(period.start, language)
  if (grain === 'month') return formatMonth(period.start, language)
  if (grain === 'quarter') return `${words.ended.quarter} ${formatDate(period.end, language)}`
  const endYear = dateParts(period.end).year
  return start.year === endYear ? String(start.year) : `${start.year}–${endYear}`
}
