import { escapeRegex } from '../../../lib/regex.js'
import type { VerdictCase, VerdictCondition } from '../../types.js'
import { coversEveryValue } from '../../verdict-cases.js'
import { COMPARATORS as COMPARATOR_PHRASES } from '../lexicon/comparisons.js'

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
const INEQUALITIES: ReadonlySet<string> = new Set(['<', '<=', '>', '>='])
/**
 * The planner's comparator phrases (lexicon/comparisons.ts) that compare a test value, longest
 * first ("greater than or equal to" before "greater than"), then the symbols.
 */
const COMPARATORS: ReadonlyArray<readonly [VerdictCondition['op'], RegExp]> = [
  ...COMPARATOR_PHRASES.filter(([, op]) => INEQUALITIES.has(op))
    .sort((a, b) => b[0].length - a[0].length)
    .map(([phrase, op]) => [op as VerdictCondition['op'], new RegExp(`\\b${escapeRegex(phrase)}\\b`, 'i')] as const),
  ['>=', />=|≥/],
  ['<=', /<=|≤/],
  ['>', />/],
  ['<', /</],
]
const NEGATIVE = /\b(?:no|not|non|none)\b/i

type Atom = { conditions: VerdictCondition[]; numbers: Array<readonly [number, number]> } | 'unread' | null

const FLIPPED: Readonly<Record<VerdictCondition['op'], VerdictCondition['op']>> = {
  '<': '>',
  '<=': '>=',
  '>': '<',
  '>=': '<=',
}

/** The comparators of an atom in order, a longer phrase first where two start together. */
function comparatorsIn(atom: string): Array<{ op: VerdictCondition['op']; index: number; end: number }> {
  const found: Array<{ op: VerdictCondition['op']; index: number; end: number }> = []
  for (const [op, pattern] of COMPARATORS) {
    for (const m of atom.matchAll(new RegExp(pattern.source, 'gi'))) {
      const index = m.index ?? 0
      const end = index + m[0].length
      if (!found.some((f) => index < f.end && f.index < end)) found.push({ op, index, end })
    }
  }
  return found.sort((a, b) => a.index - b.index)
}

/**
 * One atom: "the absolute value of r is greater than or equal to 0.5", "p < 0.05", "0.3 <= |r|",
 * "0.3 <= |r| < 0.5" (two conditions). Its conditions, `unread` when it names a test value in a
 * form not read (an "or", the number elsewhere), null when it names none.
 */
function readAtom(atom: string, at: number): Atom {
  const quantityMatch = QUANTITIES.map(([quantity, pattern]) => [quantity, pattern.exec(atom)] as const).find(
    ([, m]) => m,
  )
  if (!quantityMatch?.[1]) return null
  const [quantity, q] = [quantityMatch[0], quantityMatch[1]]
  const comparators = comparatorsIn(atom)
  // An "or" outside the comparators ("greater than or equal to") joins two conditions: not read.
  let rest = atom
  for (const c of comparators) rest = rest.slice(0, c.index) + ' '.repeat(c.end - c.index) + rest.slice(c.end)
  if (/\bor\b|\bbetween\b/i.test(rest)) return 'unread'
  const numbers = [...atom.matchAll(new RegExp(NUMBER.source, 'g'))].filter(
    (m) => (m.index ?? 0) >= q.index + q[0].length || (m.index ?? 0) + m[0].length <= q.index,
  )
  const numberOf = (m: RegExpMatchArray) => Number(m[0].replace('−', '-'))
  const span = (m: RegExpMatchArray) => [at + (m.index ?? 0), at + (m.index ?? 0) + m[0].length] as const
  const before = (m: RegExpMatchArray) => (m.index ?? 0) < q.index
  const [first, second] = comparators
  const [n1, n2] = numbers
  // "q op n" or "n op q".
  if (comparators.length === 1 && first && numbers.length === 1 && n1) {
    if (!before(n1) && first.index > q.index && (n1.index ?? 0) >= first.end)
      return { conditions: [{ quantity, op: first.op, value: numberOf(n1) }], numbers: [span(n1)] }
    if (before(n1) && first.index > (n1.index ?? 0) && first.end <= q.index)
      return { conditions: [{ quantity, op: FLIPPED[first.op], value: numberOf(n1) }], numbers: [span(n1)] }
    return 'unread'
  }
  // "n1 op1 q op2 n2".
  if (comparators.length === 2 && first && second && numbers.length === 2 && n1 && n2 && before(n1) && !before(n2))
    return {
      conditions: [
        { quantity, op: FLIPPED[first.op], value: numberOf(n1) },
        { quantity, op: second.op, value: numberOf(n2) },
      ],
      numbers: [span(n1), span(n2)],
    }
  return 'unread'
}

/** A sentence's clauses, one per condition: "weak if |r| < 0.3, moderate if …, and strong if …" gives three. */
function clausesOf(body: string, at: number): Array<readonly [string, number]> {
  const clauses: Array<readonly [string, number]> = []
  let last = 0
  for (const boundary of body.matchAll(/[,;]\s*(?:and\s+|or\s+)?(?=[^,;]*\bif\b)/gi)) {
    const index = boundary.index ?? 0
    // A boundary only between two conditional clauses: the opening "If …, report …" stays whole.
    if (!CONDITION_WORD.test(body.slice(last, index))) continue
    clauses.push([body.slice(last, index), at + last])
    last = index + boundary[0].length
  }
  clauses.push([body.slice(last), at + last])
  return clauses
}

/** An answer as whole words ("linear" is not in "nonlinear" or "non-linear"). */
function answerPattern(answer: string): RegExp {
  return new RegExp(`(?<![\\w-])${escapeRegex(answer)}(?![\\w-])`, 'i')
}

/** The answers a clause names, a longer one over the one it contains ("not normal" over "normal"). */
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
  const clauses = [...text.matchAll(SENTENCE)].flatMap((sentence) => clausesOf(sentence[0], sentence.index ?? 0))
  for (const [body, at] of clauses) {
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
        when.push(...atom.conditions)
        if (atom.conditions.some((condition) => condition.quantity !== 'p')) taken.push(...atom.numbers)
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
