/**
 * Intl.Segmenter's iteration over one long string costs time proportional to segments × length
 * (Node 20: the words of 160,000 characters of table text take 15 s, of 640,000 take 215 s; the
 * same text line by line takes a fraction of a second). Long texts are therefore segmented in
 * slices of about SLICE_CHARS, cut where the segmentation has a boundary anyway (whitespace for
 * words, line breaks and plain sentence ends for sentences), so the segments stay the same.
 */
const SLICE_CHARS = 2_000
/** Without a safe cut, a slice may grow to this. */
const MAX_SLICE_CHARS = 8 * SLICE_CHARS

export interface TextSegment {
  readonly segment: string
  /** Offset in the whole text. */
  readonly index: number
  readonly isWordLike: boolean
}

/** Where a cut may go: just before text[i], given what is safe to cut after. */
type CutRule = (text: string, i: number) => boolean

/** End (exclusive) of the slice starting at `start`: a safe cut near SLICE_CHARS, else a weaker one. */
function sliceEnd(text: string, start: number, rules: readonly CutRule[]): number {
  if (text.length - start <= SLICE_CHARS) return text.length
  const limit = Math.min(text.length, start + MAX_SLICE_CHARS)
  for (const rule of rules) {
    for (let i = start + SLICE_CHARS; i > start; i--) if (rule(text, i)) return i
    for (let i = start + SLICE_CHARS + 1; i < limit; i++) if (rule(text, i)) return i
  }
  // No cut at all in MAX_SLICE_CHARS (an encoded blob): a boundary may move; the cost stays bounded.
  return limit
}

function* sliced(segmenter: Intl.Segmenter, text: string, rules: readonly CutRule[]): Generator<TextSegment> {
  for (let start = 0; start < text.length; ) {
    const end = sliceEnd(text, start, rules)
    for (const { segment, index, isWordLike } of segmenter.segment(text.slice(start, end))) {
      yield { segment, index: start + index, isWordLike: isWordLike === true }
    }
    start = end
  }
}

const after =
  (pattern: RegExp): CutRule =>
  (text, i) =>
    pattern.test(text[i - 1] as string)
/** Ideographic full stops and commas: always a word boundary after them. */
const CJK_STOP = /[。、，！？｡]/
const afterCjkStop = after(CJK_STOP)
/** A sentence ends after an ideographic stop that a letter or digit follows (not a bracket or quote). */
const afterCjkSentence: CutRule = (text, i) => afterCjkStop(text, i) && /[\p{L}\p{N}]/u.test(text[i] ?? '')
/** "… done. The next" — a lower-case word, a full stop and a space, then a capital: a sentence boundary. */
const afterProseSentence: CutRule = (text, i) =>
  text[i - 1] === ' ' && /\p{Ll}[.!?]$/u.test(text.slice(i - 3, i - 1)) && /\p{Lu}/u.test(text[i] ?? '')

const WORD_CUTS: readonly CutRule[] = [after(/\s/), afterCjkStop]
const SENTENCE_CUTS: readonly CutRule[] = [
  after(/[\n\r\u2028\u2029]/),
  afterCjkSentence,
  afterProseSentence,
  after(/\s/),
]

/** Word segments (granularity `word`): whitespace always separates words, so slices end after one. */
export function wordSegments(segmenter: Intl.Segmenter, text: string): Iterable<TextSegment> {
  return sliced(segmenter, text, WORD_CUTS)
}

/** Called with each word-like segment and its offset in the whole text. */
export type WordVisitor = (word: string, index: number) => void

/**
 * The word-like segments of wordSegments, exactly (text, index), in order, found without
 * Intl.Segmenter where possible: V8 builds an object per segment and is slow (46 % of a large
 * CSV's ingestion went there), while term analysis needs only the words; and they are handed to
 * `visit` rather than yielded, as a generator allocates a result per word (a filing's term
 * analysis allocated more than its text layer). Slices are cut as in wordSegments, and a slice of
 * PLAIN characters is segmented by plainWords; any other slice, or a segmenter whose locale may
 * tailor the word rules, goes to Intl.Segmenter as before, so no stored term changes.
 */
export function forEachWordLike(segmenter: Intl.Segmenter, text: string, visit: WordVisitor): void {
  const fast = followsRootWordRules(segmenter)
  for (let start = 0; start < text.length; ) {
    const end = sliceEnd(text, start, WORD_CUTS)
    if (fast && isPlainText(text, start, end)) {
      plainWords(text, start, end, visit)
    } else {
      for (const { segment, index, isWordLike } of segmenter.segment(text.slice(start, end))) {
        if (isWordLike === true) visit(segment, start + index)
      }
    }
    start = end
  }
}

/*
 * UAX #29 word-break classes of the PLAIN characters, as ICU 78 (Node 20.20, Unicode 17) applies
 * them; test/unit/word-like-segments.test.ts compares every PLAIN character and random texts with
 * Intl.Segmenter. ICU keeps the colon in MidLetter (`a:b` is one word, `1:2` is not).
 */
/** Not PLAIN: combining marks, format characters, ZWJ and all other blocks go to Intl.Segmenter. */
const UNSUPPORTED = 0
/** Never part of a word: spaces, line breaks, symbols, other punctuation. */
const OTHER = 1
const LETTER = 2 // ALetter
const DIGIT = 3 // Numeric
const MID_LETTER = 4 // colon, middle dot, Greek ano teleia, hyphenation point: join letters only
const MID_NUM = 5 // comma, semicolon, Greek question mark, fraction slash: join digits only
const MID_NUM_LET = 6 // . ' ‘ ’ ․: join either (Single_Quote ' differs only next to Hebrew letters)
const EXTEND_NUM_LET = 7 // _ and other connectors: join to letters, digits and each other

/**
 * PLAIN blocks: Latin-1, Latin Extended, IPA, modifier letters, Greek, Cyrillic, Latin Extended
 * Additional, General Punctuation, super- and subscripts, currency. Without Hebrew (WB7a–c),
 * Katakana (WB13), regional indicators (WB15–16), ZWJ (WB3c) and Extend/Format (WB4), the rules
 * left are WB3–WB3d, which never touch a word, and WB5–WB13b, which plainWords implements.
 */
const PLAIN_BLOCKS: readonly (readonly [number, number])[] = [
  [0x0000, 0x052f],
  [0x1e00, 0x1eff],
  [0x2000, 0x20cf],
]
/** ALetter beyond Alphabetic in these blocks (UAX #29 table 3: cedilla and modifier tone letters). */
const EXTRA_LETTERS = /[\u00b8\u02c2-\u02c5\u02d2-\u02d7\u02de\u02df\u02e5-\u02eb\u02ed\u02ef-\u02ff]/
const CLASSES = plainClasses()

function plainClasses(): Uint8Array {
  const explicit: Record<string, number> = {
    ':\u00b7\u0387\u2027': MID_LETTER,
    ',;\u037e\u2044': MID_NUM,
    ".'\u2018\u2019\u2024": MID_NUM_LET,
    '_\u202f\u203f\u2040\u2054': EXTEND_NUM_LET,
    '0123456789': DIGIT,
  }
  const classes = new Uint8Array(0x20d0)
  for (const [from, to] of PLAIN_BLOCKS) {
    for (let code = from; code <= to; code++) {
      const char = String.fromCharCode(code)
      if (/[\p{M}\p{Cf}]/u.test(char)) classes[code] = UNSUPPORTED
      else if (/\p{Alphabetic}/u.test(char) || EXTRA_LETTERS.test(char)) classes[code] = LETTER
      else classes[code] = OTHER
    }
  }
  for (const [chars, wordClass] of Object.entries(explicit)) {
    for (const char of chars) classes[char.charCodeAt(0)] = wordClass
  }
  return classes
}

const classAt = (text: string, i: number): number => CLASSES[text.charCodeAt(i)] ?? UNSUPPORTED

/** Whether forEachWordLike segments text[start, end) by hand (for a segmenter following root rules). */
export function isPlainText(text: string, start = 0, end = text.length): boolean {
  for (let i = start; i < end; i++) if (classAt(text, i) === UNSUPPORTED) return false
  return true
}

/**
 * Word-like segments of PLAIN text[start, end). Letters, digits and ExtendNumLet always join
 * (WB5, WB8–10, WB13a–b); one MidLetter/MidNumLet joins letter to letter (WB6–7), one
 * MidNum/MidNumLet digit to digit (WB11–12); every other pair breaks. ICU marks every such run
 * word-like except a lone ExtendNumLet (`_`; `__` is word-like).
 */
function plainWords(text: string, start: number, end: number, visit: WordVisitor): void {
  let i = start
  while (i < end) {
    let last = classAt(text, i)
    if (!isWordChar(last)) {
      i++
      continue
    }
    const from = i++
    while (i < end) {
      const current = classAt(text, i)
      if (isWordChar(current)) {
        last = current
        i++
      } else if (i + 1 < end && joinsAcross(last, current, classAt(text, i + 1))) {
        last = classAt(text, i + 1)
        i += 2
      } else break
    }
    if (i - from > 1 || last !== EXTEND_NUM_LET) visit(text.slice(from, i), from)
  }
}

const isWordChar = (wordClass: number): boolean =>
  wordClass === LETTER || wordClass === DIGIT || wordClass === EXTEND_NUM_LET

/** WB6–7 and WB11–12: `before mid after` stays one word. */
function joinsAcross(before: number, mid: number, after: number): boolean {
  if (before === LETTER && after === LETTER) return mid === MID_LETTER || mid === MID_NUM_LET
  if (before === DIGIT && after === DIGIT) return mid === MID_NUM || mid === MID_NUM_LET
  return false
}

/**
 * Languages whose ICU 78 word rules are the root rules plainWords implements, checked in the
 * test for each; a locale with a script, variant or extension (`en-US-u-va-posix` breaks
 * `e.g` apart) or another language keeps Intl.Segmenter.
 */
const ROOT_WORD_RULE_LANGUAGES = new Set(['da', 'de', 'en', 'es', 'fi', 'fr', 'it', 'nb', 'nl', 'no', 'pt', 'ru', 'sv'])
const rootRuleSegmenters = new WeakMap<Intl.Segmenter, boolean>()

/** Whether forEachWordLike may segment plain text by hand for this segmenter. */
export function followsRootWordRules(segmenter: Intl.Segmenter): boolean {
  let follows = rootRuleSegmenters.get(segmenter)
  if (follows === undefined) {
    const { locale, granularity } = segmenter.resolvedOptions()
    const [, language] = /^([a-z]{2,3})(?:-[A-Z]{2})?$/.exec(locale) ?? []
    follows = granularity === 'word' && language !== undefined && ROOT_WORD_RULE_LANGUAGES.has(language)
    rootRuleSegmenters.set(segmenter, follows)
  }
  return follows
}

/** Sentence segments (granularity `sentence`): a line break always ends a sentence, so slices end after one. */
export function sentenceSegments(segmenter: Intl.Segmenter, text: string): Iterable<TextSegment> {
  return sliced(segmenter, text, SENTENCE_CUTS)
}
