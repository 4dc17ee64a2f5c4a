/**
 * Periods in text and in questions: what a document covers (`for the quarterly period ended July
 * 2, 2023`, `fiscal 2023`, `Q2 2023`), what a question asks about (`Q2 2023`, `the most recent
 * quarter`, `last year`, `each quarter`), and how well each document's period fits a question's.
 * The pieces live in src/text/periods/; this is the one door the other rooms use.
 */
export { addDays, dateParts, nominalEnd, PERIOD_END_SLACK_DAYS, spanDays } from './periods/calendar.js'
export { type DateMatch, datesIn } from './periods/dates.js'
export { formatDate, type LabelSource, periodLabel } from './periods/labels.js'
export {
  CALENDAR,
  COMPARATIVE,
  FULL,
  grainOf,
  matchPeriods,
  PART,
  type PeriodCandidate,
  type PeriodScore,
  WHOLE,
} from './periods/match.js'
export type { MentionForm, PeriodGrain, PeriodMention } from './periods/mentions/period-mention.js'
export { periodsIn } from './periods/mentions.js'
export { MONTH_PATTERN, monthNumber } from './periods/months.js'
export type { Period } from './periods/period.js'
export {
  type AbsoluteReference,
  type EveryReference,
  type LatestReference,
  type PeriodReference,
  periodReferences,
  type ReferenceGrain,
} from './periods/references.js'
