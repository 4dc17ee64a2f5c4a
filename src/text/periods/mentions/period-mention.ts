import type { Period } from '../period.js'

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
