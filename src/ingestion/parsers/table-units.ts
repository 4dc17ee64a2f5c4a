/**
 * The unit line of a table: "(in millions)", "(MILLIONS, EXCEPT PER SHARE DATA)", "Dollars in
 * thousands", "en milliers d'euros", "($ million)", "(in days)". Without it a figure cannot be
 * read alone.
 */

/** Scale words and their abbreviations, in the languages filings are written in. */
const SCALE =
  /(?:^|[^\p{L}])(?:thousands?|millions?|billions?|milliers|milliards?|millones|miles|mil milhões|milhares|tausend|millionen|milliarden|mio|mrd|tsd|teur|keur|meur|k€|m€|mn|bn)(?:$|[^\p{L}])/iu
/** How a unit phrase opens: a parenthesis, "in"/"en"/"amounts in"/"$ in"…, or the scale ("Millions of dollars"). */
const OPENING =
  /^(?:\(|\[|(?:in|en|im|amounts?|dollars?|euros?|figures|all amounts|montants|chiffres|[$€£¥]|us\$|usd|eur|gbp|chf)(?:\s|$)|(?:thousands?|millions?|billions?)(?:\s+of\s|,|$))/iu
/** "(in days)", "(in USD)", "(en euros)", "(in %)": a measure named in parentheses, scale or not. */
const MEASURE_IN_PARENTHESES =
  /^\((?:in|en|im|expressed in|amounts in)\s+(?!the\b|a\b|an\b|which\b|our\b|each\b)[^()\d]{1,30}\)$/iu
const MAX_UNIT_CHARS = 80
const MAX_UNIT_WORDS = 10

/** Whether `text`, a whole line or cell, is a unit phrase. */
export function isUnitPhrase(text: string): boolean {
  const value = text.trim()
  if (value.length === 0 || value.length > MAX_UNIT_CHARS) return false
  if (value.split(/\s+/u).length > MAX_UNIT_WORDS) return false
  return (OPENING.test(value) && SCALE.test(value)) || MEASURE_IN_PARENTHESES.test(value)
}

/**
 * A unit phrase in parentheses inside a longer line ("Balance sheet (in millions):"): the line
 * without it, and the phrase; null when there is none.
 */
export function splitUnit(text: string): { readonly rest: string; readonly unit: string } | null {
  for (const match of text.matchAll(/\([^()]{2,78}\)/gu)) {
    if (!isUnitPhrase(match[0])) continue
    const at = match.index ?? 0
    const rest = `${text.slice(0, at)}${text.slice(at + match[0].length)}`
      .replace(/\s+([:.,;])/gu, '$1')
      .replace(/\s{2,}/gu, ' ')
      .trim()
    return { rest, unit: match[0] }
  }
  return null
}
