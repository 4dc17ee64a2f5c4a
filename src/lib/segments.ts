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

/** Sentence segments (granularity `sentence`): a line break always ends a sentence, so slices end after one. */
export function sentenceSegments(segmenter: Intl.Segmenter, text: string): Iterable<TextSegment> {
  return sliced(segmenter, text, SENTENCE_CUTS)
}
