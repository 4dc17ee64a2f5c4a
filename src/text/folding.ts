const MARKS = /\p{M}+/gu
const APOSTROPHES = /[\u2018\u2019\u02bc\u0060\u00b4\uff07]/g

/**
 * The folded form of one word, the same for every store and at index and query time: Unicode
 * NFKC, case folding (lower case, `ß` → `ss`, final sigma → sigma), diacritics removed (NFD, marks
 * stripped, NFC again) and typographic apostrophes turned into `'`. So `Café`, `CAFE` and
 * `cafe\u0301` fold to `cafe`.
 */
export function foldWord(word: string): string {
  const lower = word.normalize('NFKC').toLowerCase().replaceAll('ß', 'ss').replaceAll('ς', 'σ')
  return lower.normalize('NFD').replace(MARKS, '').normalize('NFC').replace(APOSTROPHES, "'")
}

/**
 * foldWord without the case folding: NFKC, diacritics removed and typographic apostrophes made
 * plain, capitals kept. Its words line up with those of the folded text, so a word's capital can be
 * looked up after folding.
 */
export function unaccented(text: string): string {
  return text.normalize('NFKC').normalize('NFD').replace(MARKS, '').normalize('NFC').replace(APOSTROPHES, "'")
}
