import { isFlag } from '../column-traits.js'
import { FLAG_NEGATIONS } from '../lexicon/question-forms.js'
import type { ConditionContext, Conditions } from './condition-context.js'

/**
 * A yes/no (0/1) column named as a condition: "applicants without research experience" → = 0.
 * Only where the question counts, asks yes or no, or names other columns: otherwise the flag
 * itself is what is asked about.
 */
export function addFlagConditions(context: ConditionContext, conditions: Conditions): void {
  const { cues, tokens, count } = context
  const others = context.mentions.filter((m) => !conditions.consumed.has(m))
  for (const mention of others) {
    if (!isFlag(mention.column)) continue
    if (!(cues.boolean || count >= 0 || others.length > 1)) continue
    const before = tokens.slice(Math.max(0, mention.start - 4), mention.start).map((t) => t.text)
    const negated = before.some((word) => FLAG_NEGATIONS.has(word))
    conditions.filters.push({ kind: 'compare', column: mention.column, op: '=', value: negated ? 0 : 1 })
    conditions.consumed.add(mention)
  }
}
