import cl100k from 'js-tiktoken/ranks/cl100k_base'

/*
 * cl100k_base's pre-tokenizer by hand. Its regex (js-tiktoken's `pat_str`, flag `u`):
 *   ('s|'S|'t|'T|'re|…|'LL|'d|'D) | [^\r\n\p{L}\p{N}]?\p{L}+ | \p{N}{1,3} | ?[^\s\p{L}\p{N}]+[\r\n]*
 *   | \s*[\r\n]+ | \s+(?!\S) | \s+
 * splits chunk text into pieces a few characters long; RegExp#exec builds a match object per
 * piece and was most of countTokens' time (which is most of chunking's). Every character starts
 * some alternative and none matches empty, so the pieces cover the text and each depends only on
 * the text from its start: pieceEnd decides the alternatives in the regex's order from character
 * classes taken from the same Unicode properties. test/ingestion/pre-tokenizer.test.ts compares it
 * with the regex on every BMP character and on exhaustive and random texts.
 */

/** Surrogates (astral code points, lone halves): the regex reads code points; left to it. */
const UNSUPPORTED = 0
/** Neither whitespace, letter nor number: punctuation, symbols, controls. */
const OTHER = 1
const LETTER = 2 // \p{L}
const NUMBER = 3 // \p{N}
const SPACE = 4 // \s other than \r and \n
const LINE_BREAK = 5 // \r, \n (the regex's [\r\n]; U+2028/2029 are SPACE)

const CLASSES = pieceClasses()

function pieceClasses(): Uint8Array {
  const classes = new Uint8Array(0x10000)
  for (let code = 0; code < 0x10000; code++) {
    const char = String.fromCharCode(code)
    if (code >= 0xd800 && code <= 0xdfff) classes[code] = UNSUPPORTED
    else if (char === '\r' || char === '\n') classes[code] = LINE_BREAK
    else if (/\p{L}/u.test(char)) classes[code] = LETTER
    else if (/\p{N}/u.test(char)) classes[code] = NUMBER
    else if (/\s/u.test(char)) classes[code] = SPACE
    else classes[code] = OTHER
  }
  return classes
}

const classAt = (text: string, i: number): number => CLASSES[text.charCodeAt(i)] as number
const APOSTROPHE = 0x27
const SPACE_CHAR = 0x20
/** ASCII lower case of a code unit that may be a letter (the contractions come in every case). */
const lower = (text: string, i: number): number => text.charCodeAt(i) | 0x20

/** Whether text[i] starts a contraction (`'s`, `'RE`, …): its length, else 0. */
function contraction(text: string, i: number, end: number): number {
  if (i + 1 >= end) return 0
  const first = lower(text, i + 1)
  // s t m d
  if (first === 0x73 || first === 0x74 || first === 0x6d || first === 0x64) return 2
  if (i + 2 >= end) return 0
  const second = lower(text, i + 2)
  // re ve ll
  if ((first === 0x72 || first === 0x76) && second === 0x65) return 3
  return first === 0x6c && second === 0x6c ? 3 : 0
}

/** End of the run of `wordClass` characters from `i`. */
function runEnd(text: string, i: number, end: number, wordClass: number): number {
  while (i < end && classAt(text, i) === wordClass) i++
  return i
}

/** The regex itself, sticky: for the pieces at a surrogate. */
const PIECE_AT = new RegExp(cl100k.pat_str, 'uy')

/**
 * End (exclusive) of the pre-tokenizer piece starting at text[start], a piece boundary: by hand,
 * or by the regex where a surrogate starts the piece or ends it (a code point the classes do not
 * know, which may be a letter or a number).
 */
export function pieceEnd(text: string, start: number): number {
  const end = handMadePieceEnd(text, start)
  if (end >= 0 && (end === text.length || classAt(text, end) !== UNSUPPORTED)) return end
  PIECE_AT.lastIndex = start
  // Every character starts a match and none is empty, so there always is one.
  return start + (PIECE_AT.exec(text) as RegExpExecArray)[0].length
}

/** pieceEnd by hand: -1 for a surrogate, else where the regex ends the piece if text[end] is no surrogate. */
export function handMadePieceEnd(text: string, start: number): number {
  const end = text.length
  const first = classAt(text, start)
  if (first === UNSUPPORTED) return -1
  if (text.charCodeAt(start) === APOSTROPHE) {
    const length = contraction(text, start, end)
    if (length > 0) return start + length
  }
  // [^\r\n\p{L}\p{N}]?\p{L}+
  if (first === LETTER) return runEnd(text, start + 1, end, LETTER)
  if (first !== LINE_BREAK && first !== NUMBER && start + 1 < end && classAt(text, start + 1) === LETTER) {
    return runEnd(text, start + 2, end, LETTER)
  }
  // \p{N}{1,3}
  if (first === NUMBER) {
    let i = start + 1
    while (i < end && i < start + 3 && classAt(text, i) === NUMBER) i++
    return i
  }
  // ' ?[^\s\p{L}\p{N}]+[\r\n]*'
  const symbols = text.charCodeAt(start) === SPACE_CHAR && start + 1 < end ? start + 1 : start
  if (classAt(text, symbols) === OTHER) return runEnd(text, runEnd(text, symbols + 1, end, OTHER), end, LINE_BREAK)
  // Left: whitespace. \s*[\r\n]+ takes the run up to its last line break, if it has one.
  let i = start
  let afterLineBreak = -1
  for (; i < end; i++) {
    const wordClass = classAt(text, i)
    if (wordClass === LINE_BREAK) afterLineBreak = i + 1
    else if (wordClass !== SPACE) break
  }
  if (afterLineBreak >= 0) return afterLineBreak
  // \s+(?!\S) leaves the last space of a run to the word after it; \s+ takes a lone one.
  return i === end || i - start === 1 ? i : i - 1
}

/** The pieces of `text`, as pieceEnd finds them (tests compare them with the regex's). */
export function pieces(text: string): string[] {
  const found: string[] = []
  for (let start = 0; start < text.length; ) {
    const end = pieceEnd(text, start)
    found.push(text.slice(start, end))
    start = end
  }
  return found
}
