import type { Grounding } from './grounding/grounding.js'
import type { Intent } from './intent.js'
import { type Declined, declined } from './recognition.js'
import { fold, splitHeader, words } from './tokenise.js'

/** Headers whose smallest value is the best one: a rank, a position, a place. */
const RANK_WORDS = new Set(['rank', 'ranking', 'position', 'place', 'placing', 'standing'])

/** Superlatives that judge ("best", "top") or say height ("highest rank"), not a number's size. */
const JUDGING = new Set(['best', 'worst', 'top', 'bottom', 'highest', 'lowest', 'led', 'leads', 'leader', 'leading'])

/**
 * "the song with the highest rank", "the best-ranked player": on a rank, 1 is the best and the
 * highest, and also the smallest number; the words do not say which end is meant. The planner
 * declines rather than pick one end. "the maximum rank", "the largest rank number" say a size.
 */
export function rankDirection(g: Grounding, intent: Intent): Declined | null {
  const sup = g.superlative
  if (!sup) return null
  const word = g.tokens[sup.index]?.text ?? ''
  if (!JUDGING.has(word)) return null
  const order = (() => {
    if (intent.check?.kind === 'top') return intent.check.order
    const s = intent.shape
    if (s.kind === 'rows') return s.order
    if (s.kind === 'group') return s.measure
    if (s.kind === 'scalar') return s.column
    return null
  })()
  if (!order) return null
  if (!words(fold(splitHeader(order.name))).some((w) => RANK_WORDS.has(w))) return null
  return declined(
    `the question ranks "${order.name}" by "${word}": on a rank the best is the smallest number, so which end is meant is unclear`,
  )
}
