import { detect } from 'tinyld'
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
 */
export function analyzeTokens(text: string, language: string): AnalyzedToken[] {
  const code = baseLanguage(language)
  const outcomes = wordOutcomes(code)
  const tokens: AnalyzedToken[] = []
  let position = 0
  forEachWordLike(wordSegmenter(code), text, (word) => {
    for (const { term, surface } of outcomes(word)) {
      const current = position++
      if (term !== null) tokens.push({ term, surface, position: current })
    }
  })
  return tokens
}

/** What one piece of a word gives: its term, or null when it is dropped (it still takes a position). */
interface Outcome {
  readonly term: string | null
  readonly surface: string
}

/** Words remembered per language; the cache starts over when full (words are short: a few MB). */
const MAX_CACHED_WORDS = 100_000
const outcomeCaches = new Map<string, (word: string) => readonly Outcome[]>()

/**
 * The outcomes of a word-like segment in a language, cached: documents repeat their words, and
 * folding, stop words and stemming depend on the word and the language only.
 */
function wordOutcomes(code: string): (word: string) => readonly Outcome[] {
  let outcomes = outcomeCaches.get(code)
  if (outcomes) return outcomes
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
  outcomes = (word) => {
    let known = cache.get(word)
    if (known === undefined) {
      known = piecesOf(word, code).map(({ folded, surface }) => ({ term: termOf(folded), surface }))
      if (cache.size >= MAX_CACHED_WORDS) cache.clear()
      cache.set(word, known)
    }
    return known
  }
  outcomeCaches.set(code, outcomes)
  return outcomes
}

/** The terms of a text in order (see analyzeTokens); what the index stores and queries search for. */
export function analyze(text: string, language: string): string[] {
  const terms: string[] = []
  forEachTerm(text, language, (term) => terms.push(term))
  return terms
}

/** analyze's terms handed to `visit` one by one, without an array of them. */
export function forEachTerm(text: string, language: string, visit: (term: string) => void): void {
  const code = baseLanguage(language)
  const outcomes = wordOutcomes(code)
  forEachWordLike(wordSegmenter(code), text, (word) => {
    for (const { term } of outcomes(word)) if (term !== null) visit(term)
  })
}

/** Enough text to recognise a language; more only costs time. */
const DETECTION_SAMPLE = 20_000

/**
 * The language of a text as an ISO 639-1 code among SUPPORTED_LANGUAGES (tinyld, restricted to
 * them); DEFAULT_LANGUAGE (`en`) when the text has no letters or detection is unsure.
 */
export function detectLanguage(text: string): string {
  const sample = text.length > DETECTION_SAMPLE ? text.slice(0, DETECTION_SAMPLE) : text
  if (!/\p{L}/u.test(sample)) return DEFAULT_LANGUAGE
  const detected = detect(sample, { only: [...SUPPORTED_LANGUAGES] })
  return SUPPORTED_LANGUAGES.includes(detected) ? detected : DEFAULT_LANGUAGE
}
