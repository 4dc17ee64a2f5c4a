import { numericOf } from '../column-traits.js'
import type { Grounding } from '../grounding/grounding.js'
import { FRENCH_WHICH_OPENERS, FRENCH_WHICH_VERBS, WHICH_ONE_OPENERS } from '../lexicon/question-forms.js'
import { declined, type Recognition } from '../recognition.js'
import { intentOf } from './intent-of.js'

/** "What is the average amount?", "the median quantity", "the total amount by city". */
export function recogniseAggregate(g: Grounding): Recognition | null {
  const { simpleAggregate, subjects, tokens, byMention } = g
  if (!simpleAggregate) return null
  const after = subjects.find((m) => m.start > simpleAggregate.index && numericOf(m))
  const any = subjects.find((m) => numericOf(m))
  const column = (after ? numericOf(after) : null) ?? (any ? numericOf(any) : null)
  if (!column) return declined(`the question asks for an aggregate (${simpleAggregate.fn}) but names no numeric column`)
  const asksWhich =
    WHICH_ONE_OPENERS.has(tokens[0]?.text ?? '') ||
    (FRENCH_WHICH_OPENERS.has(tokens[0]?.text ?? '') && !FRENCH_WHICH_VERBS.has(tokens[1]?.text ?? ''))
  if (asksWhich && !byMention) {
    return declined('the question asks which one, but the thing it asks about could not be matched to a column')
  }
  if (byMention && byMention.column !== column) {
    return intentOf(
      g,
      {
        kind: 'group',
        group: byMention.column,
        fn: simpleAggregate.fn,
        measure: column,
        direction: 'desc',
        limit: g.cues.limit ?? 1000,
        returnMetric: true,
      },
      'list[number]',
    )
  }
  return intentOf(g, { kind: 'scalar', fn: simpleAggregate.fn, column }, 'number')
}
