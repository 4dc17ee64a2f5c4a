import snowball, { type Stemmer } from 'snowball-stemmers'
import { foldWord, unaccented } from '../../text/folding.js'
import { AMBIGUOUS_NUMBER_WORDS, NUMBER_WORDS, ORDINALS } from './lexicon/numbers.js'

/**
 * Tokenising and normalising a question (or a column header, or a cell value) for the offline
 * planner: folded to lower case without accents, split into words and numbers, each word stemmed
 * with the English and the question's own stemmer (headers are often English in French workbooks).
 */

export interface Token {
  /** Position in the token list. */
  readonly index: number
  /** Folded form: lower case, no accents. */
  readonly text: string
  /** Stems under which the word matches (English, French), deduplicated. */
  readonly stems: readonly string[]
  /** The value when the token is a number (`1,000`, `2.5`, `twenty`, `80%`). */
  readonly number: number | null
  /** True when the token was written with a percent sign or followed by "per cent"/"pour cent". */
  readonly percent: boolean
  /** Written with a capital letter and not at the start of the question (a proper noun, likely). */
  readonly capitalized: boolean
  /** Written in capitals only (`GDP`, `USA`), an acronym: a name, a measure or the dataset's. */
  readonly acronym?: boolean
  /** The first word after a full stop, a question or exclamation mark or a colon ("… ? Answer True or False"). */
  readonly sentenceStart?: boolean
}

const stemmers: Record<string, Stemmer> = {
  en: snowball.newStemmer('english'),
  fr: snowball.newStemmer('french'),
}

/** A word without its plural ending (`players` → `player`, `journaux` → `journau`), for lookups that need no stem. */
export function singularOf(word: string): string {
  return word.replace(/(s|x)$/, '')
}

/** The shared folding (NFKC, lower case, `ß` → `ss`, no accents, plain apostrophes), typographic quotes made plain too. */
export function fold(text: string): string {
  return foldWord(text).replace(/[“”«»]/g, '"')
}

/** `MonthlyIncome` → `Monthly Income`, `FG3_PCT` → `FG3 PCT`, `Price (TK)` → `Price TK`. */
export function splitHeader(name: string): string {
  return name
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .replace(/[_\-./()[\]:]+/g, ' ')
}

export function ordinalValue(word: string): number | null {
  const known = ORDINALS[word]
  if (known !== undefined) return known
  const match = /^(\d+)(st|nd|rd|th|e|eme|er|ere)$/.exec(word)
  return match ? Number(match[1]) : null
}

/** Parses `1,000`, `1 000`, `2.5`, `2,5`, `$60,000`, `80%` into a number, or null. */
export function parseNumber(raw: string): number | null {
  const cleaned = raw.replace(/[$€£%\s\u00a0]/g, '')
  if (/^-?\d{1,3}(,\d{3})+(\.\d+)?$/.test(cleaned)) return Number(cleaned.replaceAll(',', ''))
  if (/^-?\d+,\d+$/.test(cleaned)) return Number(cleaned.replace(',', '.'))
  if (/^-?\d+(\.\d+)?$/.test(cleaned)) return Number(cleaned)
  if (/^-?\.\d+$/.test(cleaned)) return Number(cleaned)
  return null
}

const TOKEN = /\d+(?:st|nd|rd|th|er|e|eme)\b|[$€£]?-?\d[\d,.]*\d%?|[$€£]?\d%?|[\p{L}\p{N}]+(?:'[\p{L}]+)?/gu

/** Splits folded text into words and numbers (`don't` stays one word; `l'age` → `l'age`). */
export function words(text: string): string[] {
  return Array.from(fold(text).matchAll(TOKEN), (match) => match[0])
}

export function stemsOf(word: string): string[] {
  const bare = word.replace(/^(l|d|qu|j|n|s|c)'/, '').replace(/'s$/, '')
  const english = stemmers.en?.stem(bare) ?? bare
  const french = stemmers.fr?.stem(bare) ?? bare
  return Array.from(new Set([bare, english, french]))
}

/** The question as tokens (numbers parsed, "per cent" folded into the number before it). */
export function tokenise(text: string): Token[] {
  const raw = words(text)
  const matches = Array.from(unaccented(text).matchAll(TOKEN))
  const original = matches.map((match) => match[0])
  const plain = unaccented(text)
  const tokens: Token[] = []
  for (let i = 0; i < raw.length; i++) {
    const word = raw[i] ?? ''
    const aligned = original.length === raw.length
    const capitalized = i > 0 && aligned && /^\p{Lu}/u.test(original[i] ?? '')
    const acronym = aligned && /^\p{Lu}{2,}$/u.test(original[i] ?? '')
    const sentenceStart = i === 0 || (aligned && /[.?!:]\s*$/.test(plain.slice(0, matches[i]?.index ?? 0)))
    let number = parseNumber(word)
    // "more than one post": after "than" even "one" is a number
    const compared = raw[i - 1] === 'than'
    if (number === null && NUMBER_WORDS[word] !== undefined && (!AMBIGUOUS_NUMBER_WORDS.has(word) || compared)) {
      number = NUMBER_WORDS[word] ?? null
    }
    let percent = word.endsWith('%')
    const next = raw[i + 1]
    const after = raw[i + 2]
    if (number !== null && next === 'percent') {
      percent = true
      i += 1
    } else if (number !== null && (next === 'per' || next === 'pour') && after === 'cent') {
      percent = true
      i += 2
    }
    tokens.push({
      index: tokens.length,
      text: word,
      stems: stemsOf(word),
      number,
      percent,
      capitalized,
      acronym,
      sentenceStart,
    })
  }
  return tokens
}

/** Number words that only count after a cue ("top one", "the one with"): read on request. */
export function looseNumber(token: Token | undefined): number | null {
  if (!token) return null
  if (token.number !== null) return token.number
  return NUMBER_WORDS[token.text] ?? null
}

/** Text between single or double quotes in the question ('Hacendado', "105 kg"). */
export function quotedStrings(text: string): string[] {
  const found: string[] = []
  for (const match of text.matchAll(/(?:^|[\s(,:])['"‘“]([^'"’”]{1,80})['"’”](?=$|[\s?.,!;:)])/gu)) {
    const value = match[1]?.trim()
    if (value) found.push(value)
  }
  return found
}

/**
 * Two words stemmed alike that are also spelled alike (`country`/`countries`, `age`/`ages`), so
 * that stems of different languages cannot pair unrelated words (`are` and `area` in French).
 */
export function closeWords(a: string, b: string): boolean {
  if (a === b) return true
  const [short, long] = a.length <= b.length ? [a, b] : [b, a]
  if (long === `${short}s` || long === `${short}es`) return true
  if (short.endsWith('y') && long === `${short.slice(0, -1)}ies`) return true
  let common = 0
  while (common < short.length && short[common] === long[common]) common++
  return common >= 4 && common >= short.length - 2
}
