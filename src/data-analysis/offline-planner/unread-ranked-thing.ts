import { isContentWord } from './columnless-plan.js'
import type { Grounding } from './grounding/grounding.js'
import type { Intent } from './intent.js'
import { RANKED_THING_LINKS, ROW_RELATIVE_WORDS } from './lexicon/superlatives.js'
import { type Declined, declined } from './recognition.js'
import { isRead } from './unread-words.js'

/** The column whose own values the plan returns as the ranking's answer ("the 5 highest calories"), if so. */
function rankedValuesReturned(intent: Intent) {
  const s = intent.shape
  if (s.kind === 'rows') return s.target === s.order ? s.order : null
  if (s.kind === 'scalar' && (s.fn === 'max' || s.fn === 'min')) return s.column
  return null
}

/**
 * "List the top 5 foods with the most calories", "What food has the highest calorie content?":
 * the question asks for things (foods) that no column was read for, ranked by a measure it
 * names. Returning the measure's highest values answers "the 5 highest calorie counts", another
 * question, so the planner declines and says which word it could not map.
 */
export function unreadRankedThing(g: Grounding, intent: Intent): Declined | null {
  const sup = g.superlative
  const ranked = rankedValuesReturned(intent)
  if (!sup || !ranked) return null
  const word = (at: number) => g.tokens[at]?.text ?? ''
  // "the foods with the most calories", "the food that has the highest …"
  const relative = (at: number) => ROW_RELATIVE_WORDS.has(word(at)) || RANKED_THING_LINKS.has(word(at))
  // "the bottom 3 entities in terms of y": the measure may follow the things after the superlative
  const interms = (at: number) => word(at) === 'in' && word(at + 1) === 'terms'
  const measure = g.mentions.find((m) => m.start > sup.index && m.column === ranked)
  const asks = (at: number) =>
    (at < sup.index && relative(at + 1)) || (measure !== undefined && at < measure.start && interms(at + 1))
  const thing = g.tokens.find((t) => asks(t.index) && isContentWord(t.text) && !isRead(g, t.index))
  if (!thing) return null
  return declined(
    `the question asks for "${thing.text}" ranked by "${ranked.name}", not for its values, and no column was read for "${thing.text}"`,
  )
}
