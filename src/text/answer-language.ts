import { detectLanguage } from './analysis.js'
import { baseLanguage } from './languages.js'
import { AUTOMATIC_LOCALE } from './locales.js'

/** Languages the answering steps have their own words for (framing, small talk, not found). */
export const ANSWER_LANGUAGES = ['en', 'fr', 'de', 'es', 'it', 'pt', 'nl'] as const
export type AnswerLanguage = (typeof ANSWER_LANGUAGES)[number]

export function isAnswerLanguage(code: string): code is AnswerLanguage {
  return (ANSWER_LANGUAGES as readonly string[]).includes(code)
}

/**
 * The ISO 639-1 language an answer is written in: the bot's locale, or under `AUTOMATIC` the
 * language detected in the question (English when detection is unsure).
 */
export function answerLanguage(botLocale: string, question: string): string {
  if (botLocale !== AUTOMATIC_LOCALE) return baseLanguage(botLocale)
  return detectLanguage(question)
}

/** The language whose framing words are used: `language` when there are words for it, else English. */
export function framingLanguage(language: string): AnswerLanguage {
  const code = baseLanguage(language)
  return isAnswerLanguage(code) ? code : 'en'
}
