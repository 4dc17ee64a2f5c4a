import { detectLanguage } from './analysis.js'
import { baseLanguage } from './languages.js'
import { AUTOMATIC_LOCALE } from './locales.js'

/** Languages the answering steps have their own words for (framing, small talk, not found). */
export const ANSWER_LANGUAGES = ['en', 'fr', 'de', 'es', 'it', 'pt', 'nl'] as const
export type AnswerLanguage = (typeof ANSWER_LANGUAGES)[number]

export function isAnswerLanguage(code: string): code is AnswerLanguage {
  return (ANSWER_LANGUAGES as readonly string[]).includes(code)
}

/** The languages of one question: the one it is written in (detected), and the one to answer in. */
export interface QuestionLanguages {
  readonly question: string
  readonly answer: string
}

/**
 * A question's languages under a bot's locale, detecting the question's language once. The answer's
 * (ISO 639-1) is the bot's locale, or under `AUTOMATIC` the question's (English when detection is unsure).
 */
export function questionLanguages(botLocale: string, question: string): QuestionLanguages {
  const detected = detectLanguage(question)
  return { question: detected, answer: botLocale === AUTOMATIC_LOCALE ? detected : baseLanguage(botLocale) }
}

/** The language whose framing words are used: `language` when there are words for it, else English. */
export function framingLanguage(language: string): AnswerLanguage {
  const code = baseLanguage(language)
  return isAnswerLanguage(code) ? code : 'en'
}
