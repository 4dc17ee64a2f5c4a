import { isNumeric } from '../columns.js'
import type { Filter } from '../intent.js'
import { CONTAINING_WORDS } from '../lexicon/computations.js'
import { VALUE_NEGATIONS } from '../lexicon/question-forms.js'
import { type Declined, declined } from '../recognition.js'
import type { ConditionContext, Conditions } from './condition-context.js'

/** "orders from Paris", "not from Paris": a seen value of a text column; its column's name, said next to it, is taken too. */
export function addValueConditions(context: ConditionContext, conditions: Conditions): void {
  const { tokens, mentions } = context
  for (const value of context.values) {
    const before = tokens.slice(Math.max(0, value.start - 3), value.start).map((t) => t.text)
    const negated = before.some((word) => VALUE_NEGATIONS.has(word))
    const filter: Filter = value.item
      ? { kind: 'item', column: value.column, value: value.value, negated }
      : { kind: 'equals', column: value.column, value: value.value, negated }
    conditions.filters.push(filter)
    conditions.valueFilters.push(filter)
    const named = mentions.find((m) => m.column === value.column && Math.abs(m.start - value.end) <= 3)
    if (named) conditions.consumed.add(named)
  }
}

/** Quoted text never seen in the table: equal to, or contained in, the text column named nearest to it. */
export function addSearchedTextConditions(context: ConditionContext, conditions: Conditions): Declined | null {
  for (const quote of context.searched) {
    const near = [...context.mentions]
      .filter((m) => !isNumeric(m.column) && !conditions.consumed.has(m))
      .sort((a, b) => Math.abs(a.start - quote.start) - Math.abs(b.start - quote.start))[0]
    const column = near?.column ?? null
    if (!column)
      return declined(`"${quote.text}" is not a value seen in the table and no text column is named to search it in`)
    const containing = context.tokens.some((t) => CONTAINING_WORDS.has(t.text))
    const filter: Filter = containing
      ? { kind: 'contains', column, value: quote.text }
      : { kind: 'equals', column, value: quote.text, negated: false }
    conditions.filters.push(filter)
    conditions.valueFilters.push(filter)
    if (near) conditions.consumed.add(near)
  }
  return null
}
