import { analyze } from './analysis.js'
import { foldWord } from './folding.js'
import { baseLanguage, languageResources } from './languages.js'
import { periodsIn } from './periods.js'

/** A name a question mentions: who or what it is about, as written. */
export interface NamedThing {
  /** As written, possessive dropped: `Lockheed Martin`, `AT&T`, `3M`. */
  readonly surface: string
  /** Its analysed terms (the parts and the joined whole, as the index holds names). */
  readonly terms: readonly string[]
  /**
   * Whether the writing alone says it is a name (`Globex`, `JnJ`, `3M` in mid-sentence, anything
   * possessive: `AMCOR's`). Not so for words in capitals only (`AMCOR` or `USD`?) and for a
   * capitalised word opening a sentence (`Amazon revenue …` or `Revenue of …`?): only the
   * documents' subjects can tell those apart.
   */
  readonly certain: boolean
}

/** Words that are written with a capital without naming anyone: months, days, the first person. */
const NOT_NAMES = new Set(
  (
    'i january february march april may june july august september october november december ' +
    'monday tuesday wednesday thursday friday saturday sunday ' +
    'janvier fevrier mars avril mai juin juillet aout septembre octobre novembre decembre ' +
    'januar februar marz juni juli oktober dezember enero febrero marzo abril mayo junio julio agosto ' +
    'septiembre octubre noviembre diciembre'
  ).split(' '),
)

/** Periods and report codes written in capitals and digits: `FY2018`, `Q2`, `H1`, `FY2023Q1`, `10-K`, `8K`. */
const PERIOD_OR_FORM = /^(fy|cy|q|h)\d|^\d{1,2}[kq]$|^(fy|cy)$/i

/** A word as the question writes it, with where it starts and ends. */
interface Word {
  readonly text: string
  readonly start: number
  readonly end: number
}

const WORD = /[\p{L}\p{N}]+(?:[.&'’-][\p{L}\p{N}]+)*/gu
/** Sentence or clause openings: after these a capital says nothing about a name. */
const OPENING = /(^|[.!?:;"“«(\n]\s*|\s[-–—]\s+)$/u

function shape(word: string): 'capitalised' | 'capitals' | 'mixed' | 'other' {
  const letters = word.replace(/[^\p{L}]/gu, '')
  if (letters === '') return 'other'
  const upper = letters.replace(/[^\p{Lu}]/gu, '').length
  if (upper === 0) return 'other'
  // `3M`, `JnJ`, `PepsiCo`, `iPhone`: digits, or capitals inside the word.
  if (/\p{N}/u.test(word) || (upper < letters.length && /.\p{Lu}/u.test(word.replace(/^[^\p{L}]+/u, '')))) {
    return 'mixed'
  }
  if (upper === letters.length) return letters.length >= 2 ? 'capitals' : 'other'
  return /^\p{Lu}/u.test(word) ? 'capitalised' : 'other'
}

/** The word without a possessive ending (`Amazon's` → `Amazon`), and whether it had one. */
function possessive(word: string): { base: string; owned: boolean } {
  const match = /^(.+?)['’]s?$/u.exec(word)
  return match?.[1] ? { base: match[1], owned: true } : { base: word, owned: false }
}

/**
 * The names a question mentions, in order: runs of words written with a capital (`Lockheed
 * Martin`, joined by `&` too: `Johnson & Johnson`), words with capitals inside or digits (`JnJ`,
 * `PepsiCo`, `3M`), words in capitals only. Month and day names, and periods or report codes
 * (`FY2018`, `Q2`, `10-K`), are not names. A run is `certain` when its writing says it is a name:
 * a capitalised word that does not open a sentence or clause, a word with capitals inside or
 * digits, or any word that owns something (`Amazon's revenue …`, `AMCOR's`).
 */
export function questionNames(question: string, language: string): NamedThing[] {
  const words: Word[] = [...question.matchAll(WORD)].map((m) => ({
    text: m[0],
    start: m.index ?? 0,
    end: (m.index ?? 0) + m[0].length,
  }))
  const { stopwords } = languageResources(baseLanguage(language))
  // Words inside a period the question names (`Q2'2023`, `FY 2023`) are its period, not a name.
  const periods = periodsIn(question).map((mention) => [mention.index, mention.index + mention.text.length] as const)
  const inPeriod = (word: Word) => periods.some(([start, end]) => word.start < end && word.end > start)
  const names: NamedThing[] = []
  let run: { words: string[]; start: number; certain: boolean } | undefined
  const close = () => {
    if (run) {
      const surface = run.words.join(' ').replace(/\s&\s/g, ' & ')
      const terms = [...new Set(analyze(surface, language))]
      const joined = run.words.filter((word) => word !== '&').join('')
      if (run.words.length > 1)
        for (const term of analyze(joined, language)) if (!terms.includes(term)) terms.push(term)
      if (terms.length > 0) names.push({ surface, terms, certain: run.certain })
    }
    run = undefined
  }
  let previousEnd = 0
  for (const word of words) {
    const between = question.slice(previousEnd, word.start)
    previousEnd = word.end
    const { base, owned } = possessive(word.text)
    const kind = shape(base)
    const opening = OPENING.test(question.slice(0, word.start))
    // "What …", "How …": a function word opening a sentence is capitalised for the sentence's sake.
    const functionWord = opening && !owned && stopwords.has(foldWord(base))
    const isName =
      kind !== 'other' &&
      !functionWord &&
      !inPeriod(word) &&
      !NOT_NAMES.has(base.toLowerCase()) &&
      !PERIOD_OR_FORM.test(base.replace(/[-.]/g, ''))
    // A possessive says a name, whatever its writing (`AMCOR's`, `Initech's`): abbreviations own nothing.
    const certain = kind === 'mixed' || owned || (kind === 'capitalised' && !opening)
    const continues = run !== undefined && /^\s*(&\s*)?$/u.test(between)
    if (!isName) {
      // `Johnson & Johnson`: an ampersand between two names joins them.
      close()
      continue
    }
    if (!continues) close()
    if (!run) run = { words: [], start: word.start, certain: false }
    if (/&/.test(between) && run.words.length > 0) run.words.push('&')
    run.words.push(base)
    run.certain ||= certain
    // A capitalised word opening a sentence may be any word ("Does Initech …"): it stands alone.
    if (owned || (opening && kind === 'capitalised')) close()
  }
  close()
  return names
}

/** Text as words of letters and digits, folded, space-separated and space-padded: ` amazon com inc `. */
function wordsOnly(text: string): string {
  return ` ${foldWord(text)
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim()} `
}

/**
 * Whether a text mentions a name: its words in a row, whatever the punctuation and case between
 * them (`AMAZON.COM, INC.` mentions `Amazon.com`; `Johnson & Johnson` mentions `Johnson &
 * Johnson`), or its words written as one (`Footlocker` mentions `Foot Locker`).
 */
export function mentions(text: string, name: NamedThing): boolean {
  const words = wordsOnly(name.surface).trim()
  if (words === '') return false
  const haystack = wordsOnly(text)
  return haystack.includes(` ${words} `) || haystack.includes(` ${words.replaceAll(' ', '')} `)
}
