import { FILLERS, GENERIC_WORDS } from './lexicon/vague-words.js'

/** The fewest letters a header word must leave out of the question's word to be its abbreviation. */
const LETTERS_LEFT_OUT = 3
/**
 * A cut of two or three letters names too many words alone (`con` of "consider"): it counts only
 * beside a header word said in full.
 */
export const SHORTEST_ALONE = 4

/**
 * A header word cut short of the question's word (`lang` for "language", `sp` for "special"):
 * headers abbreviate by keeping a word's start, questions spell the word out. Only a cut that
 * leaves out at least three letters counts, so that a word and its inflections ("age"/"ages")
 * stay the stemmer's business; vague header words ("no", "id") never abbreviate anything.
 */
export function abbreviates(headerWord: string, questionWord: string): boolean {
  if (headerWord.length < 2 || !/^\p{L}+$/u.test(headerWord) || !/^\p{L}+$/u.test(questionWord)) return false
  if (GENERIC_WORDS.has(headerWord) || FILLERS.has(headerWord)) return false
  return questionWord.length >= headerWord.length + LETTERS_LEFT_OUT && questionWord.startsWith(headerWord)
}
