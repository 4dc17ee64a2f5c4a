import {
  type Comparison,
  DATE_AFTER_WORDS,
  DATE_ARTICLES,
  DATE_BEFORE_WORDS,
  DATE_RANGE_JOINERS,
  DATE_RANGE_OPENERS,
  DATE_SINCE_WORDS,
  DATE_UNTIL_WORDS,
} from '../lexicon/comparisons.js'
import type { Token } from '../tokenise.js'
import { span } from './phrases.js'
import type { DateCue, Reading } from './types.js'

/** The placeholder a date of the question became (see prepareQuestion), or null. */
const PLACEHOLDER = /^date(\d+)$/

function comparisonBefore(word: string): Comparison {
  if (DATE_AFTER_WORDS.has(word)) return '>'
  if (DATE_SINCE_WORDS.has(word)) return '>='
  if (DATE_BEFORE_WORDS.has(word)) return '<'
  if (DATE_UNTIL_WORDS.has(word)) return '<='
  return '='
}

/** Each ISO date with the comparison the words before it make ("after", "between … and …"). */
export function readDates(tokens: readonly Token[], dateValues: readonly string[]): Reading<DateCue[]> {
  const dates: DateCue[] = []
  const used: number[] = []
  for (let i = 0; i < tokens.length; i++) {
    const match = PLACEHOLDER.exec(tokens[i]?.text ?? '')
    if (!match) continue
    const value = dateValues[Number(match[1])] ?? ''
    let wordBefore = i - 1
    while (wordBefore > 0 && DATE_ARTICLES.has(tokens[wordBefore]?.text ?? '')) wordBefore--
    const before = tokens[wordBefore]?.text ?? ''
    const joiner = tokens[i + 1]?.text ?? ''
    let highAt = i + 2
    while (highAt < tokens.length && DATE_ARTICLES.has(tokens[highAt]?.text ?? '')) highAt++
    const highMatch = PLACEHOLDER.exec(tokens[highAt]?.text ?? '')
    used.push(i)
    if (DATE_RANGE_OPENERS.has(before) && highMatch && DATE_RANGE_JOINERS.has(joiner)) {
      dates.push({ op: 'between', value, high: dateValues[Number(highMatch[1])] ?? '', index: i })
      used.push(...span(wordBefore, highAt))
      i = highAt
      continue
    }
    const op = comparisonBefore(before)
    if (op !== '=') used.push(...span(wordBefore, i - 1))
    dates.push({ op, value, index: i })
  }
  return { found: dates, used }
}
