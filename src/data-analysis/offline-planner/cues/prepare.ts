/** The question made ready for the tokeniser. */

const ISO_DATE = /\b(\d{4})-(\d{2})-(\d{2})\b/g

export interface PreparedQuestion {
  readonly text: string
  /** The ISO dates replaced by `date0`, `date1`…, in that order. */
  readonly dates: readonly string[]
}

/** ISO dates become placeholder words (`date0`) so that their digits are not read as numbers. */
export function prepareQuestion(question: string): PreparedQuestion {
  const dates: string[] = []
  const withDates = question.replace(ISO_DATE, (match) => ` date${dates.push(match) - 1} `)
  return { text: spellOut(withDates), dates }
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
