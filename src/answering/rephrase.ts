import { analyzeTokens } from '../text/analysis.js'
import { foldWord } from '../text/folding.js'
import { baseLanguage } from '../text/languages.js'

/**
 * Offline rephrasing of follow-up questions. The heuristic, in order:
 *
 * 1. With no earlier user question in the chat, the question is already standalone.
 * 2. A message is a follow-up when it starts with a follow-up marker ("and …", "what about …",
 *    "et …", "qu'en est-il de …", "und was ist mit …", "y …", "e quanto a …", "en wat met …"), or
 *    has at most one significant term ("2023?", "price?"), or refers back with a pronoun or
 *    possessive ("its", "their", "son", "ihr", "su", …) while having at most four significant terms.
 * 3. When the follow-up's significant terms are all numbers and the previous question has a
 *    number of the same length (a year), the previous question is repeated with its last such
 *    number replaced: "What was the revenue in 2022?" + "and in 2023?" gives
 *    "What was the revenue in 2023?"; without such a number the remainder is appended.
 * 4. Otherwise the previous question (without its final punctuation) is joined with the follow-up
 *    (without "what about"-like openers): "What is Lantern Pro?" + "what about its price?" gives
 *    "What is Lantern Pro, its price?". Retrieval then sees the subject and the new aspect.
 */

/** Openers removed from the follow-up; a leading conjunction ("and") is kept. */
const OPENERS: Readonly<Record<string, readonly string[]>> = {
  en: ['and what about', 'what about', 'how about', 'what of', 'same for', 'and how about'],
  fr: ["et qu'en est-il de", "qu'en est-il de", "qu'en est-il du", "qu'en est-il des", 'quid de', 'et quid de'],
  de: ['und was ist mit', 'was ist mit', 'wie steht es mit', 'wie sieht es mit'],
  es: ['y que hay de', 'que hay de', 'que pasa con', 'y que pasa con'],
  it: ['e per quanto riguarda', 'per quanto riguarda', 'che dire di', 'e riguardo a', 'quanto a'],
  pt: ['e quanto a', 'quanto a', 'e sobre', 'e que tal'],
  nl: ['en wat met', 'wat met', 'hoe zit het met', 'en hoe zit het met', 'wat dacht je van'],
}

const CONJUNCTIONS: Readonly<Record<string, readonly string[]>> = {
  en: ['and', 'also', 'but'],
  fr: ['et', 'aussi', 'mais'],
  de: ['und', 'auch', 'aber'],
  es: ['y', 'tambien', 'pero'],
  it: ['e', 'anche', 'ma'],
  pt: ['e', 'tambem', 'mas'],
  nl: ['en', 'ook', 'maar'],
}

const REFERENCES: Readonly<Record<string, readonly string[]>> = {
  en: ['it', 'its', 'they', 'their', 'them', 'this', 'that', 'these', 'those', 'he', 'she', 'his', 'her'],
  fr: ['il', 'elle', 'ils', 'elles', 'son', 'sa', 'ses', 'leur', 'leurs', 'cet', 'cette', 'celui', 'celle'],
  de: [
    'er',
    'sie',
    'es',
    'sein',
    'seine',
    'seinen',
    'ihr',
    'ihre',
    'ihren',
    'dies',
    'diese',
    'dieser',
    'dessen',
    'deren',
  ],
  es: ['su', 'sus', 'ella', 'ellos', 'eso', 'esto', 'ese', 'esa'],
  it: ['suo', 'sua', 'suoi', 'sue', 'esso', 'essa', 'questo', 'questa', 'quello', 'quella', 'loro'],
  pt: ['seu', 'sua', 'seus', 'suas', 'ele', 'ela', 'isso', 'isto', 'esse', 'essa'],
  nl: ['zijn', 'haar', 'hun', 'dit', 'dat', 'deze', 'hij', 'zij'],
}

const NUMBER = /^\p{N}[\p{N}.,]*$/u
const WORD = /[\p{L}\p{N}]+(?:['’][\p{L}\p{N}]+)*/gu

interface Word {
  readonly folded: string
  readonly end: number
}

function wordsOf(text: string): Word[] {
  return [...text.matchAll(WORD)]
    .map((m) => ({ folded: foldWord(m[0]).replaceAll("'", ' '), end: (m.index ?? 0) + m[0].length }))
    .flatMap((w) => w.folded.split(' ').map((folded) => ({ folded, end: w.end })))
}

function listsFor<T>(table: Readonly<Record<string, readonly T[]>>, language: string): readonly T[] {
  const code = baseLanguage(language)
  return [...(table[code] ?? []), ...(code === 'en' ? [] : (table.en ?? []))]
}

/** The follow-up after a leading opener, or undefined when it has none. */
function afterOpener(text: string, words: readonly Word[], language: string): string | undefined {
  const openers = listsFor(OPENERS, language)
    .map((opener) => opener.replaceAll("'", ' ').split(/\s+/))
    .sort((a, b) => b.length - a.length)
  for (const opener of openers) {
    if (opener.length <= words.length && opener.every((word, i) => words[i]?.folded === word)) {
      return text.slice(words[opener.length - 1]?.end ?? 0)
    }
  }
  return undefined
}

function stripEnd(text: string): string {
  return text.trim().replace(/[\s?!.¿¡:;,]+$/u, '')
}

function stripStart(text: string): string {
  return text.replace(/^[\s¿¡:;,\-–—]+/u, '')
}

function questionMark(language: string): string {
  return baseLanguage(language) === 'fr' ? ' ?' : '?'
}

/** Whether `question` leans on the previous question (see the heuristic above). */
export function isFollowUp(question: string, language: string): boolean {
  const words = wordsOf(question)
  if (words.length === 0) return false
  const first = words[0]?.folded ?? ''
  if (afterOpener(question, words, language) !== undefined) return true
  if (listsFor(CONJUNCTIONS, language).includes(first)) return true
  const significant = analyzeTokens(question, language).length
  if (significant <= 1) return true
  const references = new Set(listsFor(REFERENCES, language))
  return significant <= 4 && words.some((word) => references.has(word.folded))
}

/**
 * The question made standalone with the previous user question (see the heuristic above), or the
 * question itself (trimmed) when it is not a follow-up or there is no previous question.
 */
export function rephrase(question: string, previousQuestion: string | undefined, language: string): string {
  const trimmed = question.trim()
  if (!previousQuestion?.trim() || !isFollowUp(trimmed, language)) return trimmed
  const previous = stripEnd(previousQuestion)
  const words = wordsOf(trimmed)
  const opened = afterOpener(trimmed, words, language)
  let remainder = stripEnd(stripStart(opened ?? trimmed))
  const conjunctions = listsFor(CONJUNCTIONS, language)

  const tokens = analyzeTokens(trimmed, language)
  const numbers = tokens.filter((token) => NUMBER.test(token.surface)).map((token) => token.surface)
  if (numbers.length > 0 && numbers.length === tokens.length) {
    const replacement = numbers[0] as string
    const candidates = [...previous.matchAll(/\p{N}[\p{N}.,]*/gu)].filter(
      (m) => m[0].replace(/\D/g, '').length === replacement.replace(/\D/g, '').length,
    )
    const last = candidates.at(-1)
    if (last && last.index !== undefined) {
      return `${previous.slice(0, last.index)}${replacement}${previous.slice(last.index + last[0].length)}${questionMark(language)}`
    }
    // "and in 2023?" after a question without a year: the year joins the previous question.
    const leading = wordsOf(remainder)[0]?.folded
    if (leading && conjunctions.includes(leading)) remainder = stripStart(remainder.slice(remainder.search(/\s/) + 1))
    return `${previous} ${remainder}${questionMark(language)}`
  }
  const lower = remainder.charAt(0).toLowerCase() + remainder.slice(1)
  return `${previous}, ${lower}${questionMark(language)}`
}
