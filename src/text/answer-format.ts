import { baseLanguage } from './languages.js'

interface FormatPatterns {
  /** A sentence that only says how to write the answer: it starts with one of these. */
  readonly instruction: RegExp
  /** Rounding asked for, anywhere in an aside or a trailing clause. */
  readonly rounding: RegExp
  /** A trailing clause of rounding: `…, rounded to two decimal places`. */
  readonly roundingClause: RegExp
}

const PATTERNS: Readonly<Record<string, FormatPatterns>> = {
  en: {
    instruction:
      /^(?:please\s+)?(?:round(?:ed)?\b|(?:answer|respond|reply|give (?:the|your) answer|express (?:the|your) answer)\s+in\b)/i,
    rounding: /\bround(?:ed|ing)?\b.*\b(?:decimals?|places?|digits?|nearest)\b/i,
    roundingClause: /,\s*(?:and\s+)?round(?:ed|ing)?\b[^,.?!]*\b(?:decimals?|places?|digits?|nearest)\b[^,.?!]*/gi,
  },
  fr: {
    instruction: /^(?:veuillez\s+)?(?:arrondi(?:ssez|r)\b|(?:r[ée]pond(?:ez|re)|exprimez)\s+en\b)/i,
    rounding: /\barrondi\w*\b.*\b(?:d[ée]cimales?|chiffres?|pr[èe]s)\b/i,
    roundingClause: /,\s*(?:et\s+)?arrondi\w*\b[^,.?!]*\b(?:d[ée]cimales?|chiffres?|pr[èe]s)\b[^,.?!]*/gi,
  },
}

/**
 * The question without what only says how to write the answer's figures: a sentence asking for a
 * rounding or a unit to answer in ("Round your answer to two decimal places.", "Answer in USD
 * millions."), an aside or a trailing clause asking for a rounding ("(in units of percents and
 * round to one decimal place)", "…, rounded to the nearest whole number"). Such words say nothing
 * of what to find, yet documents seldom write them (`decimal`, `place`), so as search terms or
 * evidence they outweigh the words that do: "Two of the defined contribution plans…" answered a
 * turnover ratio asked "to two decimal places". A question that is nothing but such words, or in
 * a language without patterns, is returned as it is.
 */
export function withoutAnswerFormat(question: string, language: string): string {
  const patterns = PATTERNS[baseLanguage(language)]
  if (!patterns) return question
  const withoutAsides = question
    .replace(/\(([^()]*)\)/g, (whole, inner: string) =>
      patterns.rounding.test(inner) || patterns.instruction.test(inner.trim()) ? ' ' : whole,
    )
    .replace(patterns.roundingClause, '')
  const sentences = withoutAsides.split(/(?<=[.?!])\s+/)
  const kept = sentences.filter((sentence) => !patterns.instruction.test(sentence.trim()))
  // Untouched, it stays as written (its line breaks tell names from sentence openers).
  if (withoutAsides === question && kept.length === sentences.length) return question
  const text = kept
    .join(' ')
    .replace(/\s+([?.!,])/g, '$1')
    .replace(/\s+/g, ' ')
    .trim()
  return text === '' ? question : text
}
