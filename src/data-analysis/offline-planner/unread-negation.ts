import type { Grounding } from './grounding/grounding.js'
import type { Filter, Intent } from './intent.js'
import { SLOT_WORDS } from './lexicon/statistics.js'
import { type Declined, declined } from './recognition.js'

/** Words that negate what follows them, English and French, folded. */
const NEGATIONS = new Set([
  'not',
  'no',
  'without',
  'never',
  'none',
  "don't",
  "doesn't",
  "didn't",
  "isn't",
  "aren't",
  "wasn't",
  "weren't",
  'pas',
  'sans',
  'jamais',
  'aucun',
  'aucune',
])

function negates(filter: Filter): boolean {
  switch (filter.kind) {
    case 'equals':
    case 'item':
      return filter.negated || filter.value === 'false'
    case 'compare':
      return filter.op === '<>' || (filter.op === '=' && filter.value === 0)
    case 'present':
      return !filter.present
    default:
      return false
  }
}

/**
 * "do not …", "don't …": an instruction to whoever computes. "did not survive", "does not own" are
 * conditions on rows and stay.
 */
const AUXILIARIES = new Set(['do'])
const VERBAL_NEGATIONS = new Set(["don't"])

/**
 * A negation of how to compute rather than of which rows: "do not apply any transformation",
 * "don't round", "without removing", "not considering".
 */
function negatesAVerb(g: Grounding, index: number): boolean {
  const word = g.tokens[index]?.text ?? ''
  if (VERBAL_NEGATIONS.has(word) || AUXILIARIES.has(g.tokens[index - 1]?.text ?? '')) return true
  return /\p{L}{3,}ing$/u.test(g.tokens[index + 1]?.text ?? '')
}

/** "no missing values", "no null or NaN values": empty cells, which every aggregate skips already. */
function negatesEmptyCells(g: Grounding, index: number): boolean {
  return g.tokens.slice(index + 1, index + 3).some((next) => SLOT_WORDS.missing.includes(next.text))
}

/** Words of how a value is computed: "not the other way around", "not the sample standard deviation formula". */
const METHOD_WORDS = new Set(['formula', 'formulas', 'way', 'method', 'approach', 'sample', 'population'])
const METHOD_WINDOW = 4

/** A negation of a method ("the population formula, not the sample one"): no condition on the rows. */
function negatesAMethod(g: Grounding, index: number): boolean {
  return g.tokens.slice(index + 1, index + 1 + METHOD_WINDOW).some((next) => METHOD_WORDS.has(next.text))
}

/**
 * "the languages of items that are **not** on sale": when no condition of the plan is negated and
 * no yes/no check reads the negation, the plan answers the question without it. A test's verdict
 * reads its own negation ("below 0.05, it is not normal"), a negated verb or method says how to
 * compute, and "no missing values" speaks of empty cells.
 */
export function unreadNegation(g: Grounding, intent: Intent): Declined | null {
  if (intent.shape.kind === 'statistics' && intent.shape.method.test) return null
  const word = g.tokens.find(
    (t, i) => NEGATIONS.has(t.text) && !negatesAVerb(g, i) && !negatesEmptyCells(g, i) && !negatesAMethod(g, i),
  )?.text
  if (!word) return null
  const filters = [...intent.filters, ...(intent.shape.kind === 'share' ? intent.shape.condition : [])]
  const check = intent.check
  const checkFilters = check?.kind === 'all' ? check.condition : check?.kind === 'more' ? check.other : []
  if ([...filters, ...checkFilters].some(negates)) return null
  if (g.cues.negated || (check?.kind === 'exists' && check.negated)) return null
  return declined(`the question says "${word}", but no condition could be tied to it`)
}
