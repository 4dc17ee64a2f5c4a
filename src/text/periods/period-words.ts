import { analyze } from '../analysis.js'
import { periodsIn } from './mentions.js'

const NUMBER = /^\d/

/**
 * The words of a question that only write a period (`fy` and `fy2023` of `FY2023`, `fiscal`, `h1`,
 * `first half`), and nowhere else in it. Which document's period fits is for the document span to
 * weigh, from the cards; as search terms or evidence these words would favour the passages that
 * happen to write dates the same way (`FY23 appropriations`), and such notation is rare enough in
 * a knowledge base to outweigh the words that say what is asked. The years stay: `2023` in
 * "expected to resume in 2023" is an answer.
 */
export function periodWords(question: string, language: string): Set<string> {
  const mentions = periodsIn(question, { bareYears: false })
  if (mentions.length === 0) return new Set()
  let rest = question
  const inMentions = new Set<string>()
  for (const mention of mentions) {
    for (const term of analyze(mention.text, language)) if (!NUMBER.test(term)) inMentions.add(term)
    rest = rest.replace(mention.text, ' ')
  }
  for (const term of analyze(rest, language)) inMentions.delete(term)
  return inMentions
}
