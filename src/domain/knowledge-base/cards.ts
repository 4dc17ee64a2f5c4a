import { errors } from '../../lib/errors.js'
import type { CardPeriod, DocumentCard } from '../../storage/ports/document-card.js'
import { EMPTY_CARD } from '../../storage/ports/document-card.js'

/** Longest title, subject or kind a user may set, in characters. */
export const MAX_CARD_TEXT = 500
/** Most subjects a card holds. */
export const MAX_CARD_SUBJECTS = 20

/** A user's correction of a card: only the fields given change; null clears one. */
export interface CardCorrection {
  readonly title?: string | null
  readonly subjects?: readonly string[]
  /** A period with its dates, or null to say the document covers none. */
  readonly period?: PeriodInput | null
  readonly kind?: string | null
}

/** A period as a user writes it: ISO dates, both included, and optionally its words. */
export interface PeriodInput {
  readonly start: string
  readonly end: string
  readonly label?: string
  readonly fiscalYear?: number
  readonly fiscalQuarter?: number
}

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/

function isDate(text: string): boolean {
  const match = ISO_DATE.exec(text)
  if (!match) return false
  const date = new Date(`${text}T00:00:00Z`)
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === text
}

/** `2023-04-03 – 2023-07-02`: the words of a period given without any. */
function datesLabel(start: string, end: string): string {
  return start === end ? start : `${start} – ${end}`
}

function checkedPeriod(input: PeriodInput, path: string): CardPeriod {
  if (!isDate(input.start)) throw errors.field(`${path}/start`, 'must be a date like 2023-04-01')
  if (!isDate(input.end)) throw errors.field(`${path}/end`, 'must be a date like 2023-06-30')
  if (input.start > input.end) throw errors.field(`${path}/end`, 'must not be before start')
  const label = input.label?.trim() || datesLabel(input.start, input.end)
  return {
    start: input.start,
    end: input.end,
    label,
    ...(input.fiscalYear === undefined ? {} : { fiscalYear: input.fiscalYear }),
    ...(input.fiscalQuarter === undefined ? {} : { fiscalQuarter: input.fiscalQuarter }),
  }
}

/** Trimmed, null when empty. */
function text(value: string | null | undefined): string | null {
  const trimmed = value?.trim() ?? ''
  return trimmed === '' ? null : trimmed
}

/**
 * The card after a user's correction (`path` names the request field in errors): fields not given
 * stay as they were; subjects are trimmed, blank ones dropped, repeats (ignoring case) dropped.
 */
export function correctedCard(current: DocumentCard | null, correction: CardCorrection, path: string): DocumentCard {
  const card = current ?? EMPTY_CARD
  const subjects =
    correction.subjects === undefined
      ? card.subjects
      : correction.subjects
          .map((subject) => subject.trim())
          .filter((subject, index, all) => {
            const key = subject.toLowerCase()
            return subject !== '' && all.findIndex((other) => other.toLowerCase() === key) === index
          })
  return {
    title: correction.title === undefined ? card.title : text(correction.title),
    subjects,
    period:
      correction.period === undefined
        ? card.period
        : correction.period === null
          ? null
          : checkedPeriod(correction.period, `${path}/period`),
    kind: correction.kind === undefined ? card.kind : text(correction.kind),
  }
}
