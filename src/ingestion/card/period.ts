import type { CardPeriod, Period } from '../../storage/ports/document-card.js'
import type { DocumentKind } from '../../text/document-kinds.js'
import {
  dateParts,
  type LabelSource,
  MONTH_PATTERN,
  monthNumber,
  nominalEnd,
  type PeriodMention,
  periodLabel,
  periodsIn,
  spanDays,
} from '../../text/periods.js'
import { type CardReading, textOf } from './reading.js'

/** Kinds whose period is the day they were written or held, not a span they report on. */
const DATED_KINDS: ReadonlySet<DocumentKind> = new Set([
  'letter',
  'minutes',
  'agenda',
  'memo',
  'invoice',
  'receipt',
  'purchase order',
  'quotation',
  'email',
  'press release',
  'contract',
  'policy',
  'procedure',
])

/** Characters of the cover in which a document's own date is looked for. */
const DATE_WINDOW_CHARS = 2_500
/** A line this short that holds a date is a date line (`London, 5 March 2024`). */
const DATE_LINE_CHARS = 60

/** `Date of Report (Date of earliest event reported): July 1, 2022`. */
const REPORT_DATE_LABEL = /\bdate\s+of\s+(?:report|earliest\s+event)[^:\n]{0,60}:\s*$/i
/** Words right before a document's own date. */
const DATE_LABEL =
  /(?:\bdate[d]?|\bdatum|\bfecha|\bheld\s+on|\bissued(?:\s+on)?|\bmeeting\s+of|\bs[ée]ance\s+du|\br[ée]union\s+du|\bsitzung\s+vom|\breuni[óo]n\s+del?|\bvom|\bdu|\ble|\bel|\bam|\bon)\s*[:.]?\s*$/i
/** Dates that are not the document's own. */
const OTHER_DATE =
  /(?:\bdue|\bbirth|\bborn|\bexpir\w*|\bvalid\s+until|\bdeadline|\bf[äa]llig|\b[ée]ch[ée]ance|\bvencimiento)\b[^\n]{0,20}$/i

/** Kinds whose cover may name their period in passing text (`fiscal 2023 results`). */
const EARNINGS_OR_REPORT: ReadonlySet<DocumentKind> = new Set([
  'annual report',
  'quarterly report',
  'interim report',
  'earnings release',
])

/** How often the text names each fiscal year (`fiscal 2022`, `FY22`). */
function fiscalMentionCounts(text: string): Map<number, number> {
  const counts = new Map<number, number>()
  for (const mention of periodsIn(text, { bareYears: false })) {
    if (mention.form !== 'named' || !mention.fiscal || mention.period.fiscalYear === undefined) continue
    counts.set(mention.period.fiscalYear, (counts.get(mention.period.fiscalYear) ?? 0) + 1)
  }
  return counts
}

/**
 * The fiscal year of a year or quarter ending on `end`: the year of the fiscal year's end (the
 * usual naming), unless that end falls in January to March and the document says `fiscal <year
 * before>` more often than `fiscal <year>` (retailers that name a year by the one it starts in).
 */
function fiscalYearOf(end: string, quarter: number, fiscalCounts: ReadonlyMap<number, number>): number {
  const nominal = nominalEnd(end)
  const endMonthIndex = nominal.month - 1 + (4 - quarter) * 3
  const year = nominal.year + Math.floor(endMonthIndex / 12)
  const endMonth = (endMonthIndex % 12) + 1
  if (endMonth <= 3 && (fiscalCounts.get(year - 1) ?? 0) > (fiscalCounts.get(year) ?? 0)) return year - 1
  return year
}

/**
 * `six months ended` / `nine months ended` (or 24–28 / 36–40 weeks) and the month and day after it
 * (`Six Months Ended December 31,` heads a table whose years are on the next row).
 */
const LONGER_SPAN_ENDED = new RegExp(
  `\\b(six|nine|6|9|twenty[\\s-](?:four|six|eight)|thirty[\\s-](?:six|nine)|forty|2[468]|3[69]|40)\\s+(months|weeks)\\s+(?:then\\s+)?end(?:ed|ing)\\s+(?:on\\s+)?(?:(${MONTH_PATTERN})\\s*(\\d{1,2})|(\\d{1,2})\\.?\\s*(${MONTH_PATTERN}))`,
  'giu',
)

/** Fiscal quarters (2 or 3) that the longer spans ending on the same month and day as `end` say. */
function quartersFromLongerSpans(text: string, end: string): Set<number> {
  const { month, day } = dateParts(end)
  const quarters = new Set<number>()
  for (const m of text.matchAll(LONGER_SPAN_ENDED)) {
    const spanMonth = monthNumber(m[3] ?? m[6] ?? '')
    const spanDay = Number(m[4] ?? m[5])
    if (spanMonth !== month || spanDay !== day) continue
    const count = m[1]?.toLowerCase() ?? ''
    const nine = /^(nine|9|thirty|3|forty|40)/.test(count)
    quarters.add(nine ? 3 : 2)
  }
  return quarters
}

/** A quarter's fiscal number, and its fiscal year when the text names it with the quarter. */
interface FiscalQuarter {
  readonly quarter: number
  readonly year?: number
}

/**
 * The fiscal quarter of a quarter's statement: its own ordinal, else the six or nine months that
 * end with it, else the quarter the cover names (`Fourth Quarter Fiscal 2023`, with its year), else
 * the fourth when a year ends with it, else the first for a quarterly report with three months'
 * statements only (a 10-Q never covers a fourth quarter).
 */
function fiscalQuarterOf(
  statement: PeriodMention,
  headText: string,
  cover: readonly PeriodMention[],
  kind: DocumentKind | null,
): FiscalQuarter | undefined {
  if (statement.period.fiscalQuarter) return { quarter: statement.period.fiscalQuarter }
  const longer = quartersFromLongerSpans(headText, statement.period.end)
  if (longer.has(3)) return { quarter: 3 }
  if (longer.has(2)) return { quarter: 2 }
  const named = cover.find((m) => m.form === 'named' && m.grain === 'quarter' && m.period.fiscalQuarter)
  const { fiscalQuarter, fiscalYear } = named?.period ?? {}
  if (fiscalQuarter && fiscalYear && Math.abs(fiscalYear - nominalEnd(statement.period.end).year) <= 1) {
    return { quarter: fiscalQuarter, year: fiscalYear }
  }
  const ending = periodsIn(headText, { bareYears: false }).filter(
    (m) => m.form === 'ended' && m.period.end === statement.period.end,
  )
  if (ending.some((m) => m.grain === 'year')) return { quarter: 4 }
  const threeMonths = ending.some((m) => m.grain === 'quarter' && m.index !== statement.index)
  return kind === 'quarterly report' && threeMonths ? { quarter: 1 } : undefined
}

/** A statement's period with the fiscal numbers the document gives or implies (see fiscalQuarterOf, fiscalYearOf). */
function fromStatement(
  statement: PeriodMention,
  headText: string,
  cover: readonly PeriodMention[],
  kind: DocumentKind | null,
): LabelSource {
  const { period, grain } = statement
  const fiscalCounts = fiscalMentionCounts(headText)
  if (grain === 'quarter') {
    const fiscal = fiscalQuarterOf(statement, headText, cover, kind)
    if (!fiscal) return statement
    const fiscalYear = fiscal.year ?? fiscalYearOf(period.end, fiscal.quarter, fiscalCounts)
    return { ...statement, period: { ...period, fiscalYear, fiscalQuarter: fiscal.quarter } }
  }
  if (grain === 'year') {
    return { ...statement, period: { ...period, fiscalYear: fiscalYearOf(period.end, 4, fiscalCounts) } }
  }
  return statement
}

/**
 * A named period with better dates: a quarter named by its fiscal number (`First-Quarter 2023`)
 * takes the dates of a quarter that ends near its fiscal year (`12 weeks ended March 25, 2023`,
 * `the June 2023 quarter`) when the document gives one.
 */
function refineNamed(named: PeriodMention, mentions: readonly PeriodMention[]): LabelSource {
  if (named.grain !== 'quarter' || named.period.fiscalYear === undefined) return named
  const year = named.period.fiscalYear
  const dated = mentions.find(
    (m) =>
      m.grain === 'quarter' &&
      m.period.fiscalQuarter === undefined &&
      (m.form === 'ended' || m.form === 'named') &&
      // A fiscal year ends in the year it is named by, or (named by its start) in the next.
      [year - 1, year, year + 1].includes(nominalEnd(m.period.end).year),
  )
  if (!dated) return named
  const period: Period = {
    start: dated.period.start,
    end: dated.period.end,
    fiscalYear: year,
    fiscalQuarter: named.period.fiscalQuarter,
  }
  return { ...dated, period, form: 'ended', fiscal: named.fiscal }
}

/**
 * An earnings release that names a fiscal year's results and a quarter without its number (`fiscal
 * 2023 results`, `the June 2023 quarter`) reports that year's last quarter with it.
 */
function lastQuarterOfNamedYear(mentions: readonly PeriodMention[]): LabelSource | null {
  const year = mentions.find((m) => m.form === 'named' && m.grain === 'year' && m.period.fiscalYear !== undefined)
  const quarter = mentions.find((m) => m.grain === 'quarter' && m.period.fiscalQuarter === undefined)
  if (!year?.period.fiscalYear || !quarter) return null
  if (nominalEnd(quarter.period.end).year !== year.period.fiscalYear) return null
  return {
    ...quarter,
    form: 'ended',
    fiscal: true,
    period: { ...quarter.period, fiscalYear: year.period.fiscalYear, fiscalQuarter: 4 },
  }
}

/**
 * The document's own date on its cover (tables left out: a spreadsheet's dates are its data):
 * after `Date of report`, a `Date:`-like label, or alone on a short line.
 */
function ownDate(coverText: string, reportDateOnly: boolean): PeriodMention | null {
  const window = coverText.slice(0, DATE_WINDOW_CHARS)
  for (const mention of periodsIn(window, { bareYears: false })) {
    if (mention.form !== 'date' || mention.grain !== 'day') continue
    const before = window.slice(Math.max(0, mention.index - 80), mention.index)
    if (REPORT_DATE_LABEL.test(before)) return mention
    if (reportDateOnly || OTHER_DATE.test(before)) continue
    const lineStart = window.lastIndexOf('\n', mention.index) + 1
    const lineEnd = window.indexOf('\n', mention.index)
    const line = window.slice(lineStart, lineEnd < 0 ? undefined : lineEnd)
    if (DATE_LABEL.test(before.slice(-30)) || line.length <= DATE_LINE_CHARS) return mention
  }
  return null
}

/** Times a report's first pages must give a date for it to be taken as the end of its period. */
const MIN_USUAL_END_MENTIONS = 2

/**
 * The end of a periodic report's period when no sentence states it: the full date its first pages
 * give most often, at least twice (`As of December 31, 2018, we had …`), read as the end of a
 * fiscal year (annual report) or a quarter. A cover's other dates (the market value `as of June
 * 30`, the shares outstanding `as of February 22`) come once or twice.
 */
function usualReportEnd(headText: string, annual: boolean): PeriodMention | null {
  const counts = new Map<string, { mention: PeriodMention; count: number }>()
  for (const mention of periodsIn(headText, { bareYears: false })) {
    if (mention.form !== 'date' || mention.grain !== 'day') continue
    const entry = counts.get(mention.period.end)
    if (entry) entry.count++
    else counts.set(mention.period.end, { mention, count: 1 })
  }
  const ranked = [...counts.values()].sort((a, b) => b.count - a.count)
  const [best, second] = ranked
  if (!best || best.count < MIN_USUAL_END_MENTIONS || (second && second.count === best.count)) return null
  const restated = `${annual ? 'fiscal year' : 'quarter'} ended ${best.mention.text}`
  return periodsIn(restated, { bareYears: false }).find((m) => m.form === 'ended') ?? null
}

const STATEMENT_GRAINS = new Set(['quarter', 'half', 'nine-months', 'year'])
/** The spans a periodic report covers, by kind: what its first pages restate as its period. */
const REPORT_GRAINS: ReadonlyMap<DocumentKind, ReadonlySet<string>> = new Map([
  ['annual report', new Set(['year'])],
  ['quarterly report', new Set(['quarter'])],
  ['interim report', new Set(['quarter', 'half', 'nine-months'])],
])

/** Days within which a later span of the same length is the current period beside a comparative one. */
const COMPARATIVE_DAYS = 400

/**
 * The current period of a cover that states a span and its comparative (`Twelve Months Ended June
 * 30, 2022 | Twelve Months Ended June 30, 2023`, prior year first): the latest span of the same
 * length ending within a year or so after the first one stated.
 */
function currentOf(first: PeriodMention, cover: readonly PeriodMention[]): PeriodMention {
  let current = first
  for (const mention of cover) {
    if (mention.form !== 'ended' || mention.grain !== first.grain) continue
    const days = spanDays(first.period.end, mention.period.end)
    if (days > 0 && days <= COMPARATIVE_DAYS && mention.period.end > current.period.end) current = mention
  }
  return current
}

/** What the period is read from, beside the document's own text. */
export interface PeriodContext {
  readonly kind: DocumentKind | null
  /** The lines that can name the document (its metadata title among them): named periods there count. */
  readonly titleLines: readonly string[]
  /** The file name and its folders, a fallback only. */
  readonly path: string
  readonly language: string
}

function labelled(source: LabelSource, language: string): CardPeriod {
  return { ...source.period, label: periodLabel(source, language) }
}

/**
 * The period a document covers, from its cover: a report's `for the quarterly period ended July
 * 2, 2023` or `fiscal year ended …` (with its fiscal quarter from the six or nine months that end
 * with it, and its fiscal year), an 8-K's date of report, a named period (`First-Quarter 2023
 * Results`, `Annual Report 2022`), or the date of a letter, minutes or an invoice (for those kinds
 * the date comes first); then the metadata title; then, as a fallback only, the file name and
 * folders (`2023Q2`, `2022-07-01`, `FY2022`, `2022`). Null when none says.
 */
export function periodOf(reading: CardReading, context: PeriodContext): CardPeriod | null {
  const { language, kind } = context
  const coverText = textOf(reading.cover)
  const cover = periodsIn(coverText, { bareYears: false })
  const proseText = textOf(reading.cover.filter((line) => !line.table))
  const titleMentions = context.titleLines.flatMap((line) => periodsIn(line))
  const dated = kind !== null && DATED_KINDS.has(kind)
  if (dated) {
    const date = ownDate(proseText, false)
    if (date) return labelled(date, language)
  }
  const first = cover.find((m) => m.form === 'ended' && STATEMENT_GRAINS.has(m.grain))
  const statement = first ? currentOf(first, cover) : undefined
  if (statement) {
    return labelled(fromStatement(statement, textOf(reading.head), cover, kind), language)
  }
  const reportDate = ownDate(coverText, true)
  if (reportDate) return labelled(reportDate, language)
  // A cover whose `fiscal year ended` date did not come out with its text (a form field): the
  // report names its period again in its first pages (`This Annual Report … for the fiscal year
  // ended December 31, 2021`).
  const reportGrains = kind === null ? undefined : REPORT_GRAINS.get(kind)
  if (reportGrains) {
    const headText = textOf(reading.head)
    const restated = periodsIn(headText, { bareYears: false }).find(
      (m) => m.form === 'ended' && reportGrains.has(m.grain),
    )
    if (restated) return labelled(fromStatement(restated, headText, cover, kind), language)
  }
  if (kind === 'earnings release') {
    const lastQuarter = lastQuarterOfNamedYear([...titleMentions, ...cover])
    if (lastQuarter && !titleMentions.some((m) => m.grain === 'quarter' && m.period.fiscalQuarter)) {
      return labelled(lastQuarter, language)
    }
  }
  const named =
    titleMentions.find((m) => m.form === 'named' || m.form === 'ended') ??
    cover.find((m) => m.form === 'named' && kind !== null && EARNINGS_OR_REPORT.has(kind))
  if (named) {
    const head = periodsIn(textOf(reading.head), { bareYears: false })
    return labelled(refineNamed(named, [...cover, ...head]), language)
  }
  const usualEnd = reportGrains ? usualReportEnd(textOf(reading.head), kind === 'annual report') : null
  if (usualEnd) return labelled(fromStatement(usualEnd, textOf(reading.head), cover, kind), language)
  const own = dated ? null : ownDate(proseText, false)
  if (own) return labelled(own, language)
  const titleYear = titleMentions.find((m) => m.form === 'year' || m.form === 'date' || m.form === 'range')
  if (titleYear) return labelled(titleYear, language)
  const fromPath = periodsIn(context.path.replace(/[_]+/g, ' ')).find((m) => m.form !== 'range')
  return fromPath ? labelled(fromPath, language) : null
}
