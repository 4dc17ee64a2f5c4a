import { escapeRegex } from '../../../lib/regex.js'
import { readVerdicts, type VerdictOptions } from './slot-options.js'
import { unaskedLabelSentences } from './unasked-labels.js'

/** The question made ready for the tokeniser. */

const ISO_DATE = /\b(\d{4})-(\d{2})-(\d{2})\b/g

/** `@mean_fare[mean_fare_value]`: an answer format naming a slot, with its placeholder. */
const SLOT = /@(\w+)\[([^\]]*)\]/g
const SLOT_START = /@\w+\[/
/** "rounded to two decimal places", "2 decimals", "à 3 décimales": how many decimals the answer keeps. */
const DECIMALS =
  /\b(\d+|one|two|three|four|five|six|une|deux|trois|quatre|cinq|six)\s+(?:decimal places?|decimals?|decimal points?|digits? after the decimal point|significant decimals?|d[ée]cimales?)\b/i
const DECIMAL_WORDS: Readonly<Record<string, number>> = {
  one: 1,
  une: 1,
  two: 2,
  deux: 2,
  three: 3,
  trois: 3,
  four: 4,
  quatre: 4,
  five: 5,
  cinq: 5,
  six: 6,
}

export interface PreparedQuestion {
  readonly text: string
  /** The ISO dates replaced by `date0`, `date1`…, in that order. */
  readonly dates: readonly string[]
  /** The slots an answer format names (`@mean_fare[…]` → `mean_fare`), in order. */
  readonly slots: readonly string[]
  /** How many decimals the answer is to be rounded to, when the question says. */
  readonly decimals: number | null
  /** The verdict slots' answers (two, or several with their rules). */
  readonly slotOptions: ReadonlyMap<string, VerdictOptions>
}

/** "to the nearest hundredth": rounding said with a place name. */
const NEAREST = /\b(?:to\s+)?the\s+nearest\s+(tenth|hundredth|thousandth)s?\b/i
const PLACES: Readonly<Record<string, number>> = { tenth: 1, hundredth: 2, thousandth: 3 }
/** "1. What is …": a list number opening the question or one of its lines. */
const ENUMERATOR = /(^|\n)\s*\d{1,2}[.)]\s+/g
/** Method names a question may quote ('pearson', "IQR"): words, not values to look for (never a column's likely name, such as 'population' or 'mean'). */
const QUOTED_METHOD = /["'‘’“”](pearson|spearman|kendall|iqr|z-?score)["'‘’“”]/gi
/** "Python's 'statistics' module", "the 'describe' function": a tool's name, not a value to look for. */
const QUOTED_TOOL = /["'‘’“”]([\w.]{1,40})["'‘’“”](?=\s+(?:module|library|package|function|method)s?\b)/gi

function decimalsOf(question: string): number | null {
  const said = DECIMALS.exec(question)?.[1]?.toLowerCase()
  if (said !== undefined) {
    const n = DECIMAL_WORDS[said] ?? Number(said)
    return Number.isInteger(n) && n >= 0 && n <= 10 ? n : null
  }
  const place = NEAREST.exec(question)?.[1]?.toLowerCase()
  return place ? (PLACES[place] ?? null) : null
}

/**
 * ISO dates become placeholder words (`date0`) so that their digits are not read as numbers. An
 * answer format (`@mean_fare[value] where "value" is a number rounded to 2 decimals`) describes
 * the answer, not the table: its slots and the rounding asked for are read, then it is cut off
 * with every rounding phrase, so that neither "2 decimals" nor "a positive number" becomes a
 * condition on the rows.
 */
export function prepareQuestion(question: string): PreparedQuestion {
  const slots: string[] = []
  const placeholders = new Set<string>()
  for (const match of question.matchAll(SLOT)) {
    const [, slot, placeholder] = match
    if (slot && !slots.includes(slot)) slots.push(slot)
    if (placeholder?.trim()) placeholders.add(placeholder.trim())
  }
  const decimals = decimalsOf(question)
  const formatAt = question.search(SLOT_START)
  const constraints = formatAt >= 0 ? question.slice(0, formatAt) : question
  const verdicts =
    formatAt >= 0
      ? readVerdicts(question.slice(formatAt), constraints)
      : { options: new Map<string, VerdictOptions>(), taken: [] }
  // A label defined for the values that no answer asks for ("defined as 'heavy' if …") is no condition.
  const unasked = formatAt >= 0 ? unaskedLabelSentences(constraints, question.slice(formatAt)) : []
  let text = blank(constraints, [...verdicts.taken, ...unasked])
    .replace(new RegExp(DECIMALS.source, 'gi'), ' ')
    .replace(new RegExp(NEAREST.source, 'gi'), ' ')
    .replace(ENUMERATOR, '$1')
    .replace(QUOTED_METHOD, ' $1 ')
    .replace(QUOTED_TOOL, ' $1 ')
  for (const placeholder of placeholders) {
    text = text.replace(new RegExp(`["'“”]${escapeRegex(placeholder)}["'“”]`, 'g'), ' ')
  }
  const dates: string[] = []
  const withDates = text.replace(ISO_DATE, (match) => ` date${dates.push(match) - 1} `)
  return { text: spellOut(withDates), dates, slots, decimals, slotOptions: verdicts.options }
}

/** A verdict rule's thresholds on r ("|r| ≥ 0.5") are read with the rule: blanked, they are no condition on the rows. */
function blank(text: string, spans: ReadonlyArray<readonly [number, number]>): string {
  let out = text
  for (const [start, end] of spans) out = out.slice(0, start) + ' '.repeat(end - start) + out.slice(end)
  return out
}

/** Symbols and shorthands spelled out: `>=` → "at least", `2k` → 2000. */
function spellOut(question: string): string {
  return (
    question
      // presentation instructions, not conditions: "rounded to two decimal places", "@mean_fare[value]"
      .replace(
        /\b(?:round(?:ed|ing)?|arrondi[es]*)\b[^.;\n]*?\b(?:decimals?|decimal places?|decimal points?|digits?|d[ée]cimales?)\b/gi,
        ' ',
      )
      .replace(/@\w+\[[^\]]*\]/g, ' ')
      .replace(/>=/g, ' at least ')
      .replace(/<=/g, ' at most ')
      .replace(/</g, ' less than ')
      .replace(/>/g, ' greater than ')
      .replace(/(^|\s)=/g, ' equal to ')
      .replace(/\b(\d+(?:\.\d+)?)k\b/gi, (_, n: string) => String(Number(n) * 1000))
      .replace(/\b(\d+(?:\.\d+)?)\s?(?:million|millions)\b/gi, (_, n: string) => String(Number(n) * 1_000_000))
  )
}
