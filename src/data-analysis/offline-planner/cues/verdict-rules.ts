import { escapeRegex } from '../../../lib/regex.js'
import type { VerdictCase, VerdictCondition } from '../../types.js'
import { coversEveryValue } from '../../verdict-cases.js'

/**
 * The rules a question states for a verdict's answers (docs/data-analysis.md, "Tests"): "Consider
 * the relationship to be linear if the p-value is less than 0.05 and the absolute value of r is
 * greater than or equal to 0.5", "If the p-value is greater than or equal to 0.05, report that
 * there is no significant correlation", "Otherwise, …". Each sentence with a condition on the
 * p-value, r or |r| gives the answer it names to the values it describes. Read only when every
 * answer gets a rule and every p-value and r gets exactly one answer; else null (declined).
 */
export interface VerdictRules {
  readonly cases: readonly VerdictCase[]
  /** Where the rules' numbers on r and their answers' words are in the text: no condition on the rows, no cue. */
  readonly taken: ReadonlyArray<readonly [number, number]>
}

/** A sentence: up to a full stop that is no decimal point, or a line end. */
const SENTENCE = /(?:[^.!?\n]|\.(?=\d))+/g
const CONDITION_WORD = /\b(?:if|when|whenever)\b/i
const OTHERWISE = /^\W*(?:otherwise|else)\b/i
/** A condition's atoms, joined by "and" or a comma; an "or" is not read. */
const ATOM_SEPARATOR = /\s*(?:,|\band\b)\s*/gi
const NUMBER = /[-−]?\d*\.?\d+/
/** |r| before r: "the absolute value of r" names both. */
const QUANTITIES: ReadonlyArray<readonly [VerdictCondition['quantity'], RegExp]> = [
  [
    'abs_r',
    /\babsolute value of (?:the )?(?:r|pearson |correlation |r )?(?:value|coefficient|correlation)?\b|\|\s*r\s*\||\bmagnitude of\b/i,
  ],
  ['p', /\bp[-\s]?values?\b|\bp\b/i],
  ['r', /\br(?:[-\s]value)?\b|\bcorrelation coefficient\b|\bcoefficient\b/i],
]
/** Longest first: "greater than or equal to" before "greater than". */
const COMPARATORS: ReadonlyArray<readonly [VerdictCondition['op'], RegExp]> = [
  ['>=', /\b(?:greater than or equal to|equal to or greater than|at least|no less than|not less than)\b|>=|≥/i],
  ['<=', /\b(?:less than or equal to|equal to or less than|at most|no more than|not greater than)\b|<=|≤/i],
  ['>', /\b(?:greater than|more than|higher than|larger than|above|exceeds?)\b|>/i],
  ['<', /\b(?:less than|lower than|smaller than|below|under)\b|</i],
]
const NEGATIVE = /\b(?:no|not|non|none)\b/i

type Atom = { condition: VerdictCondition; numberAt: readonly [number, number] } | 'unread' | null

/** One atom ("the absolute value of r is greater than or equal to 0.5"): a condition, `unread` when it names a test value it cannot read, null when it names none. */
function readAtom(atom: string, at: number): Atom {
  const quantity = QUANTITIES.find(([, pattern]) => pattern.test(atom))?.[0]
  if (!quantity) return null
  const comparator = COMPARATORS.map(([op, pattern]) => [op, pattern.exec(atom)] as const).find(([, m]) => m)
  if (!comparator?.[1]) return 'unread'
  // An "or" outside the comparator ("greater than or equal to") joins two conditions: not read.
  if (/\bor\b|\bbetween\b/i.test(atom.replace(comparator[1][0], ' '))) return 'unread'
  const after = comparator[1].index + comparator[1][0].length
  const number = NUMBER.exec(atom.slice(after))
  if (!number) return 'unread'
  const value = Number(number[0].replace('−', '-'))
  const start = at + after + number.index
  return { condition: { quantity, op: comparator[0], value }, numberAt: [start, start + number[0].length] }
}

/** The answers a sentence names, a longer one over the one it contains ("not normal" over "normal"). */
function answerPattern(answer: string): RegExp {
  return new RegExp(`(?<![\\w-])${escapeRegex(answer)}(?![\\w-])`, 'i')
}

function namedAnswers(text: string, answers: readonly string[]): string[] {
  const named = answers.filter((answer) => answerPattern(answer).test(text))
  return named.filter(
    (answer) => !named.some((other) => other !== answer && other.toLowerCase().includes(answer.toLowerCase())),
  )
}

/** A condition's atoms with their offsets. */
function partsOf(condition: string): Array<readonly [string, number]> {
  const parts: Array<readonly [string, number]> = []
  let last = 0
  for (const separator of condition.matchAll(ATOM_SEPARATOR)) {
    parts.push([condition.slice(last, separator.index), last])
    last = (separator.index ?? 0) + separator[0].length
  }
  parts.push([condition.slice(last), last])
  return parts
}

export function readVerdictRules(text: string, answers: readonly string[]): VerdictRules | null {
  const cases: Array<{ answer: string | null; when: VerdictCondition[]; consequence: string }> = []
  const taken: Array<readonly [number, number]> = []
  for (const sentence of text.matchAll(SENTENCE)) {
    const body = sentence[0]
    const at = sentence.index ?? 0
    const word = CONDITION_WORD.exec(body)
    let consequence: string
    let consequenceAt = at
    const when: VerdictCondition[] = []
    if (word) {
      // "If <condition>, <answer>" or "<answer> if <condition>".
      const opening = body.slice(0, word.index).trim() === ''
      const start = word.index + word[0].length
      const comma = body.indexOf(',', start)
      const end = opening && comma >= 0 ? comma : body.length
      consequence = opening ? body.slice(end) : body.slice(0, word.index)
      consequenceAt = opening ? at + end : at
      const condition = body.slice(start, end)
      for (const [part, offset] of partsOf(condition)) {
        const atom = readAtom(part, at + start + offset)
        if (atom === 'unread') return null
        if (!atom) continue
        when.push(atom.condition)
        if (atom.condition.quantity !== 'p') taken.push(atom.numberAt)
      }
      if (when.length === 0) continue
    } else if (OTHERWISE.test(body)) consequence = body
    else continue
    const named = namedAnswers(consequence, answers)
    if (named.length > 1) return null
    const [answer] = named
    // The answer's words are the rule's ("to be negative"), no cue of the question (a comparison with 0).
    const answerAt = answer ? answerPattern(answer).exec(consequence) : null
    if (answerAt) taken.push([consequenceAt + answerAt.index, consequenceAt + answerAt.index + answerAt[0].length])
    cases.push({ answer: answer ?? null, when, consequence })
  }
  // One rule naming no answer ("report that there is no significant correlation") is the one answer left, when both say no.
  const left = answers.filter((answer) => !cases.some((c) => c.answer === answer))
  const unnamed = cases.filter((c) => c.answer === null)
  if (unnamed.length > 1) return null
  const [rule] = unnamed
  if (rule) {
    const [answer] = left
    if (left.length !== 1 || !answer || !NEGATIVE.test(answer) || !NEGATIVE.test(rule.consequence)) return null
    rule.answer = answer
    left.length = 0
  }
  if (left.length > 0 || cases.length === 0) return null
  const read = cases.map((c) => ({ answer: c.answer as string, when: c.when }))
  return coversEveryValue(read) ? { cases: read, taken } : null
}
