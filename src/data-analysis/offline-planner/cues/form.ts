import { BOOLEAN_OPENERS, LIST_OPENERS, YES_NO_PREFIXES } from '../lexicon/question-forms.js'
import { type Token, words } from '../tokenise.js'
import { findPhrase } from './phrases.js'

/** Whether the question is written as a yes/no question (its count phrase may still overrule it). */
export function opensYesNo(question: string, tokens: readonly Token[]): boolean {
  const first = tokens[0]?.text ?? ''
  const second = tokens[1]?.text ?? ''
  // a leading "a" is as likely the English article ("A-t-il …" is caught by the inversion below); "y" opens "y a-t-il"
  if (BOOLEAN_OPENERS.has(first) && !(first === 'a' || (first === 'y' && second !== 'a'))) return true
  if (first === 'if' || first === 'si') {
    const comma = question.indexOf(',')
    const after = comma >= 0 ? words(question.slice(comma + 1))[0] : undefined
    if (after && BOOLEAN_OPENERS.has(after)) return true
  }
  if (findPhrase(tokens, YES_NO_PREFIXES, 0, 2) >= 0) return true
  // French inversion: "Le prix est-il …", "Y a-t-il …"
  if (/\b\p{L}+-(?:t-)?(?:il|elle|ils|elles|on)\b/iu.test(question) && question.includes('?')) return true
  if (/\btrue or false\b|\bvrai ou faux\b|\byes or no\b|\boui ou non\b/i.test(question)) return true
  if (question.includes('?')) {
    // "In 2020, was …?": the yes/no opener after a leading clause
    const clauses = question.split(',').slice(1)
    if (clauses.some((clause) => BOOLEAN_OPENERS.has(words(clause)[0] ?? '') && (words(clause)[0] ?? '') !== 'a'))
      return true
  }
  return false
}

/** "List …", "What are …", "Donnez …" in the first words. */
export function opensList(tokens: readonly Token[]): boolean {
  return findPhrase(tokens, LIST_OPENERS, 0, 3) >= 0
}
