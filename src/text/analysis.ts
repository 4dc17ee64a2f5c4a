import { detect } from 'tinyld'
import { LruMap } from '../lib/lru.js'
import { foldWord } from './folding.js'
import { baseLanguage, DEFAULT_LANGUAGE, languageResources, SUPPORTED_LANGUAGES } from './languages.js'
import { forEachWordLike } from './segments.js'

export { DEFAULT_LANGUAGE, SUPPORTED_LANGUAGES } from './languages.js'

/** One indexed term with the word it came from. */
export interface AnalyzedToken {
  /** The term as stored in the index. */
  readonly term: string
  /** The word as written in the text. */
  readonly surface: string
  /** Index of the word among all words of the text, stop words included: equal-plus-one means adjacent. */
  readonly position: number
}

/** Longer "words" are encodings, hashes or garbage: never useful as search terms. */
const MAX_TERM_LENGTH = 64

// Articles and particles elided before a vowel (l'homme, dell'anno): the word after them is the term.
const ELISIONS: Readonly<Record<string, ReadonlySet<string>>> = {
  fr: new Set([
    'l',
    'd',
    'j',
    'm',
    'n',
    's',
    't',
    'c',
    'qu',
    'jusqu',
    'lorsqu',
    'puisqu',
    'quoiqu',
    'presqu',
    'quelqu',
  ]),
  it: new Set([
    'l',
    'd',
    'c',
    's',
    'm',
    't',
    'v',
    'un',
    'dell',
    'nell',
    'all',
    'dall',
    'sull',
    'coll',
    'quell',
    'bell',
  ]),
}

const NUMBER = /^\p{N}[\p{N}.,]*$/u
const THOUSANDS = /^\d{1,3}(,\d{3})+(\.\d+)?$/
const ACRONYM = /^(\p{L}\.)+\p{L}?\.?$/u
const LETTERS = /^\p{L}+('\p{L}+)*$/u

const segmenters = new Map<string, Intl.Segmenter>()

function wordSegmenter(language: string): Intl.Segmenter {
  let segmenter = segmenters.get(language)
  if (!segmenter) {
    segmenter = new Intl.Segmenter(SUPPORTED_LANGUAGES.includes(language) ? language : undefined, {
      granularity: 'word',
    })
    segmenters.set(language, segmenter)
  }
  return segmenter
}

const APOSTROPHE = /['\u2018\u2019\u02bc\u0060\u00b4\uff07]/

interface Piece {
  readonly folded: string
  readonly surface: string
}

/** The pieces of a word that become terms: elisions dropped, other apostrophes split. */
function piecesOf(surface: string, language: string): Piece[] {
  const folded = foldWord(surface)
  // English keeps "o'neill" whole; the stemmer removes a possessive 's.
  if (!folded.includes("'") || language === 'en') return [{ folded, surface }]
  const foldedParts = folded.split("'")
  const surfaceParts = surface.split(APOSTROPHE)
  const aligned = surfaceParts.length === foldedParts.length
  const pieces = foldedParts
    .map((part, index) => ({ folded: part, surface: aligned ? (surfaceParts[index] ?? part) : part }))
    .filter((piece) => piece.folded !== '')
  const elisions = ELISIONS[language]
  if (elisions && pieces.length > 1 && elisions.has(pieces[0]?.folded ?? '')) pieces.shift()
  return pieces
}

function numberTerm(piece: string): string {
  // 1,000,000 and 1000000 are the same number; other separators are ambiguous (4,5 is 4.5 in French).
  return THOUSANDS.test(piece) ? piece.replaceAll(',', '') : piece
}

/**
 * Terms of a text with the words they come from, in text order. The analysis is the same for
 * both stores and for documents and queries: words by Intl.Segmenter, each folded (NFKC, case,
 * diacritics: see foldWord), stop words of `language` removed, words of letters stemmed with the
 * language's Snowball stemmer; numbers are kept as terms (`4.5%` gives `4.5`; `1,000` gives
 * `1000`), dotted acronyms lose their dots (`U.S.A.` gives `usa`). Languages other than
 * SUPPORTED_LANGUAGES get folding only, with no stop words and no stemming.
 *
 * Names are findable by their parts as well as whole (see compoundParts and forEachToken):
 * `AMAZON.COM` gives `amazon.com`, `amazon` and `com`; `Coca-Cola` gives `coca`, `cola` and
 * `cocacola`; `AT&T` gives `t` and `att` (`at` is a stop word); `FY2018` gives `fy2018`, `fy` and
 * `2018`. The extra terms share the position of the word they come from.
 */
export function analyzeTokens(text: string, language: string): AnalyzedToken[] {
  const tokens: AnalyzedToken[] = []
  forEachToken(text, language, (term, surface, position) => tokens.push({ term, surface, position }))
  return tokens
}

/** What one piece of a word gives: its term, or null when it is dropped (it still takes a position). */
interface Outcome {
  readonly term: string | null
  readonly surface: string
  /** Another term for the same word (a part of a dotted name): it takes no position of its own. */
  readonly alias: boolean
}

/** Words remembered per language; the cache starts over when full (words are short: a few MB). */
const MAX_CACHED_WORDS = 100_000

interface WordAnalysis {
  readonly outcomes: (word: string) => readonly Outcome[]
  readonly termOf: (folded: string) => string | null
}
const analyses = new Map<string, WordAnalysis>()

/** Letters then digits or digits then letters, two of each at least: `fy2018`, `covid19`, `2018fy`. */
const LETTERS_AND_DIGITS = /^(\p{L}{2,})(\p{N}{2,})$|^(\p{N}{2,})(\p{L}{2,})$/u
/** Words of letters joined by dots or colons: `amazon.com`, `www.sec.gov` (not `u.s.a`, nor `v2.0`). */
const DOTTED = /^\p{L}{2,}([.:]\p{L}{2,})+$/u

/** The parts of a folded word that are terms as well as the whole word (none for most words). */
function compoundParts(folded: string): string[] {
  const mixed = LETTERS_AND_DIGITS.exec(folded)
  if (mixed) return mixed.slice(1).filter((part): part is string => part !== undefined)
  if (DOTTED.test(folded)) return folded.split(/[.:]/)
  return []
}

/**
 * The outcomes of a word-like segment in a language, cached: documents repeat their words, and
 * folding, stop words and stemming depend on the word and the language only.
 */
function wordAnalysis(code: string): WordAnalysis {
  let analysis = analyses.get(code)
  if (analysis) return analysis
  const { stopwords, stem } = languageResources(code)
  const cache = new Map<string, readonly Outcome[]>()
  const termOf = (folded: string): string | null => {
    let term: string
    if (NUMBER.test(folded)) term = numberTerm(folded)
    else if (stopwords.has(folded)) return null
    else if (LETTERS.test(folded)) term = stem(folded)
    else if (ACRONYM.test(folded)) term = folded.replaceAll('.', '')
    else term = folded
    return term === '' || term.length > MAX_TERM_LENGTH ? null : term
  }
  const outcomes = (word: string): readonly Outcome[] => {
    let known = cache.get(word)
    if (known === undefined) {
      const found: Outcome[] = []
      for (const { folded, surface } of piecesOf(word, code)) {
        const term = termOf(folded)
        found.push({ term, surface, alias: false })
        if (term === null) continue
        for (const part of compoundParts(folded)) {
          const partTerm = termOf(part)
          if (partTerm !== null && partTerm !== term) found.push({ term: partTerm, surface, alias: true })
        }
      }
      known = found
      if (cache.size >= MAX_CACHED_WORDS) cache.clear()
      cache.set(word, known)
    }
    return known
  }
  analysis = { outcomes, termOf }
  analyses.set(code, analysis)
  return analysis
}

/** Characters that join two words into one name when nothing else separates them: `Coca-Cola`, `AT&T`. */
const JOINERS = new Set(['-', '&', '\u2010', '\u2011'])
/** Most words of one joined name; longer hyphen chains are phrases (`state-of-the-art-…`), not names. */
const MAX_JOINED_WORDS = 4

/**
 * Every term of a text with its surface and position: the terms of each word (analyzeTokens), and
 * after words joined by a hyphen or an ampersand with nothing between (`Coca-Cola`, `AT&T`,
 * `10-K`, `R&D`), the joined whole (`cocacola`, `att`, `10k`, `rd`) at the first word's position.
 */
function forEachToken(
  text: string,
  language: string,
  visit: (term: string, surface: string, position: number) => void,
): void {
  const code = baseLanguage(language)
  const { outcomes, termOf } = wordAnalysis(code)
  let position = 0
  // The joined name being read: its words, where it starts, its first position, where the last word ends.
  let joined: string[] = []
  let joinedStart = 0
  let joinedPosition = 0
  let lastEnd = -2
  const closeJoined = () => {
    if (joined.length > 1 && joined.length <= MAX_JOINED_WORDS && joined.some((part) => /\p{L}/u.test(part))) {
      const term = termOf(foldWord(joined.join('')))
      if (term !== null) visit(term, text.slice(joinedStart, lastEnd), joinedPosition)
    }
    joined = []
  }
  forEachWordLike(wordSegmenter(code), text, (word, index) => {
    if (!(index === lastEnd + 1 && JOINERS.has(text[lastEnd] ?? ''))) closeJoined()
    if (joined.length === 0) {
      joinedStart = index
      joinedPosition = position
    }
    joined.push(word)
    lastEnd = index + word.length
    let wordPosition = position
    for (const { term, surface, alias } of outcomes(word)) {
      if (!alias) wordPosition = position++
      if (term !== null) visit(term, surface, wordPosition)
    }
  })
  closeJoined()
}

/** The terms of a text in order (see analyzeTokens); what the index stores and queries search for. */
export function analyze(text: string, language: string): string[] {
  const terms: string[] = []
  forEachTerm(text, language, (term) => terms.push(term))
  return terms
}

/** analyze's terms handed to `visit` one by one, without an array of them. */
export function forEachTerm(text: string, language: string, visit: (term: string) => void): void {
  forEachToken(text, language, visit)
}

/** Enough text to recognise a language; more only costs time. */
const DETECTION_SAMPLE = 20_000
/**
 * Short texts (questions) whose language stays known: one turn detects its question's language
 * several times (the question's, the answer's, the retrieval's), each time 0.4–0.9 ms.
 */
const DETECTED = new LruMap<string, string>(512)
const MAX_REMEMBERED_TEXT = 2_000

/**
 * The language of a text as an ISO 639-1 code among SUPPORTED_LANGUAGES (tinyld, restricted to
 * them); DEFAULT_LANGUAGE (`en`) when the text has no letters or detection is unsure.
 */
export function detectLanguage(text: string): string {
  const remember = text.length <= MAX_REMEMBERED_TEXT
  const known = remember ? DETECTED.get(text) : undefined
  if (known !== undefined) return known
  const sample = text.length > DETECTION_SAMPLE ? text.slice(0, DETECTION_SAMPLE) : text
  let language = DEFAULT_LANGUAGE
  if (/\p{L}/u.test(sample)) {
    const detected = detect(sample, { only: [...SUPPORTED_LANGUAGES] })
    if (SUPPORTED_LANGUAGES.includes(detected)) language = detected
  }
  if (remember) DETECTED.set(text, language)
  return language
}
