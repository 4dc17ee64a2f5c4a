import { datesIn } from './dates.js'
import { datedPeriods } from './mentions/dated-periods.js'
import { namedPeriods } from './mentions/named-periods.js'
import type { MentionForm, MentionOptions, PeriodMention } from './mentions/period-mention.js'
import { bareYears, yearRanges } from './mentions/year-periods.js'

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
  const found: PeriodMention[] = [...datedPeriods(text, datesIn(text)), ...yearRanges(text), ...namedPeriods(text)]
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
