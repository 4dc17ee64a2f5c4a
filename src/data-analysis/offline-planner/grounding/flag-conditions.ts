import { isFlag } from '../column-traits.js'
import type { ColumnMention } from '../columns.js'
import type { Filter } from '../intent.js'
import { FLAG_NEGATIONS } from '../lexicon/question-forms.js'
import { FILLERS } from '../lexicon/vague-words.js'
import type { ConditionContext, Conditions } from './condition-context.js'

/** Words after a flag's name that make it a predicate ("… is featured or not"), not an adjective. */
const NOT_A_NOUN = new Set(['is', 'are', 'was', 'were', 'or', 'and', 'has', 'have', 'than', 'status', 'flag'])

/**
 * The flag said as an adjective of the rows' noun ("featured products", "smoker patients"): the
 * word after it is a plain word that no column, value or cue took.
 */
function qualifiesNoun(context: ConditionContext, mention: ColumnMention): boolean {
  const next = mention.end + 1
  const token = context.tokens[next]
  if (!token || token.number !== null || !/^\p{L}+$/u.test(token.text)) return false
  if (FILLERS.has(token.text) || NOT_A_NOUN.has(token.text) || context.cues.used.has(next)) return false
  const taken = (span: { start: number; end: number }) => span.start <= next && next <= span.end
  return !context.mentions.some(taken) && !context.values.some(taken)
}

/** `= 1` on a 0/1 column, `= true` (read as text) on a true/false one. */
function flagFilter(mention: ColumnMention, negated: boolean): Filter {
  if (mention.column.type === 'boolean')
    return { kind: 'equals', column: mention.column, value: negated ? 'false' : 'true', negated: false }
  return { kind: 'compare', column: mention.column, op: '=', value: negated ? 0 : 1 }
}

/**
 * A yes/no column named as a condition: "applicants without research experience" → = 0.
 * Only where the question counts, asks yes or no, names other columns or says the flag before
 * a noun: otherwise the flag itself is what is asked about.
 */
export function addFlagConditions(context: ConditionContext, conditions: Conditions): void {
  const { cues, tokens, count } = context
  const others = context.mentions.filter((m) => !conditions.consumed.has(m))
  for (const mention of others) {
    if (!isFlag(mention.column)) continue
    if (!(cues.boolean || count >= 0 || others.length > 1 || qualifiesNoun(context, mention))) continue
    const before = tokens.slice(Math.max(0, mention.start - 4), mention.start).map((t) => t.text)
    const negated = before.some((word) => FLAG_NEGATIONS.has(word))
    conditions.filters.push(flagFilter(mention, negated))
    conditions.consumed.add(mention)
  }
}
