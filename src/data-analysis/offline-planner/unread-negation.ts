import type { Grounding } from './grounding/grounding.js'
import type { Filter, Intent } from './intent.js'
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
 * "the languages of items that are **not** on sale": when no condition of the plan is negated and
 * no yes/no check reads the negation, the plan answers the question without it.
 */
export function unreadNegation(g: Grounding, intent: Intent): Declined | null {
  const word = g.tokens.find((t) => NEGATIONS.has(t.text))?.text
  if (!word) return null
  const filters = [...intent.filters, ...(intent.shape.kind === 'share' ? intent.shape.condition : [])]
  const check = intent.check
  const checkFilters = check?.kind === 'all' ? check.condition : check?.kind === 'more' ? check.other : []
  if ([...filters, ...checkFilters].some(negates)) return null
  if (g.cues.negated || (check?.kind === 'exists' && check.negated)) return null
  return declined(`the question says "${word}", but no condition could be tied to it`)
}
