import { escapeRegex } from '../../../lib/regex.js'
import type { Verdict } from '../../types.js'
import { ARTICLE_WORDS, FALSE_WORDS, NEGATION_WORDS, TRUE_WORDS } from '../lexicon/statistics.js'
import { fold } from '../tokenise.js'
import { readVerdictRules } from './verdict-rules.js'

/**
 * The answers an answer format offers for a verdict slot: `@is_normal[is_normal] where "is_normal"
 * is a string that can be either "Normal" or "Not Normal"`, or `@normal[True]` … `@normal[False]`.
 * Two answers, one the other negated ("Non-normal", "not correlated", "Not a normal distribution")
 * or true and false, are decided by the p-value; two or more with the rules the question states
 * for each ("linear" / "nonlinear" / "none" by the p-value and |r|, cues/verdict-rules.ts) by those
 * rules. Any other choice leaves the slot unfilled (declined).
 */
export type VerdictOptions = Verdict
export type TwoAnswers = Extract<Verdict, { affirmative: string }>

const SLOT = /@(\w+)\[([^\]]*)\]/g
const QUOTED = /["“”]([^"“”\n]{1,60})["“”]/g

/** The folded words of an answer, split at spaces, hyphens and underscores. */
function answerWords(answer: string): string[] {
  return fold(answer)
    .split(/[^a-z0-9]+/)
    .filter(Boolean)
}

/** The two answers as affirmative and negative, when one is the other negated or they are true and false. */
export function verdictOf(first: string, second: string): TwoAnswers | null {
  const [a, b] = [answerWords(first), answerWords(second)]
  const only = (words: string[], set: ReadonlySet<string>) => words.length === 1 && set.has(words[0] as string)
  if (only(a, TRUE_WORDS) && only(b, FALSE_WORDS)) return { affirmative: first, negative: second }
  if (only(b, TRUE_WORDS) && only(a, FALSE_WORDS)) return { affirmative: second, negative: first }
  const core = (words: string[]) => words.filter((w) => !NEGATION_WORDS.has(w) && !ARTICLE_WORDS.has(w)).join(' ')
  const negated = (words: string[]) => words.filter((w) => NEGATION_WORDS.has(w)).length
  if (core(a) === '' || core(a) !== core(b)) return null
  if (negated(a) === 0 && negated(b) === 1) return { affirmative: first, negative: second }
  if (negated(b) === 0 && negated(a) === 1) return { affirmative: second, negative: first }
  return null
}

/**
 * Each slot's verdict answers, read from the format (`format`: the question from its first slot
 * on): the quoted strings of the slot's placeholder, or of the sentences that name its placeholder
 * in quotes, or the literal placeholders the slot is written with twice (`[True]`, `[False]`).
 */
export function readSlotOptions(format: string): ReadonlyMap<string, VerdictOptions> {
  return readVerdicts(format, '').options
}

/**
 * The verdict slots of an answer format, with the rules `constraints` (the question before the
 * format) states for their answers when it states them; `taken`: where the rules' numbers are in
 * `constraints` (a threshold on r is no condition on the rows).
 */
export function readVerdicts(
  format: string,
  constraints: string,
): { options: ReadonlyMap<string, VerdictOptions>; taken: ReadonlyArray<readonly [number, number]> } {
  const options = new Map<string, VerdictOptions>()
  const taken: Array<readonly [number, number]> = []
  for (const [slot, answers] of slotAnswers(format)) {
    const rules = answers.length >= 2 ? readVerdictRules(constraints, answers) : null
    if (rules) {
      options.set(slot, { cases: rules.cases })
      taken.push(...rules.taken)
      continue
    }
    const [first, second] = answers
    const verdict = answers.length === 2 && first && second ? verdictOf(first, second) : null
    if (verdict) options.set(slot, verdict)
  }
  return { options, taken }
}

function slotAnswers(format: string): Map<string, string[]> {
  const placeholders = new Map<string, string[]>()
  for (const [, slot, placeholder] of format.matchAll(SLOT)) {
    if (!slot) continue
    placeholders.set(slot, [...(placeholders.get(slot) ?? []), (placeholder ?? '').trim()])
  }
  const names = new Set([...placeholders.keys(), ...[...placeholders.values()].flat()].map((n) => n.toLowerCase()))
  const sentences = format.replace(SLOT, ' ').split(/\n|\bwhere\b|;|\.\s/i)
  const answersOf = new Map<string, string[]>()
  for (const [slot, written] of placeholders) {
    if (written.length === 2 && written[0] !== written[1]) {
      answersOf.set(slot, written)
      continue
    }
    const placeholder = written[0] ?? ''
    const inside = [...placeholder.matchAll(QUOTED)].map((m) => m[1] as string)
    const said = sentences
      .filter((sentence) => placeholder !== '' && new RegExp(`["“”]${escapeRegex(placeholder)}["“”]`).test(sentence))
      .flatMap((sentence) => [...sentence.matchAll(QUOTED)].map((m) => (m[1] as string).trim()))
    answersOf.set(
      slot,
      [...new Set([...inside, ...said])].filter((answer) => !names.has(answer.toLowerCase())),
    )
  }
  return answersOf
}
