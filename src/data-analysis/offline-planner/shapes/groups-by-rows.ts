import { isCategory, isIdLike } from '../column-traits.js'
import { isNumeric } from '../columns.js'
import type { Grounding } from '../grounding/grounding.js'
import { declined, type Recognition } from '../recognition.js'
import { intentOf } from './intent-of.js'

/**
 * "How many customers have at least 2 orders?", "Which species have at least 5 observations?":
 * the groups of one column counted or listed by their number of rows (GROUP BY … HAVING
 * count(*)), or whether any group has that many. The group is the one column named before the
 * number; with anything else to compute (a superlative, an aggregate, a compared count) or another
 * column left unread, it declines.
 */
export function recogniseGroupsByRows(g: Grounding): Recognition | null {
  const comparator = g.rowsPerGroup
  if (!comparator) return null
  const said = `"${comparator.value} ${g.tokens[comparator.numberIndex + 1]?.text ?? ''}"`
  const refuse = (why: string) => declined(`${said} counts rows per group, but ${why}`)
  if (g.superlative || g.mostFrequent || g.aggregates.length > 0 || g.checkComparator || g.countComparator)
    return refuse('the question also asks for another computation')
  const [group, ...others] = g.subjects
  if (!group || others.length > 0 || group.end >= comparator.start)
    return refuse('no single column named before it says what the groups are')
  // a measure is no group ("prices with at least 2 orders"); an identifier or a code of few values is
  if (isNumeric(group.column) && !isIdLike(group.column) && !isCategory(group.column, g.table))
    return refuse(`"${group.column.name}" is a measure, not a group`)
  // "Is there a customer with at least 2 orders?": whether any group has that many rows
  if (g.cues.boolean) {
    if (g.count >= 0 || g.cues.all) return refuse('the yes/no question asks more than whether such a group exists')
    return intentOf(
      g,
      { kind: 'groupsByRows', group: group.column, op: comparator.op, value: comparator.value, counted: true },
      'boolean',
      { kind: 'compare', op: '>', value: 0 },
    )
  }
  if (g.count >= 0 && g.count < group.start) {
    return intentOf(
      g,
      { kind: 'groupsByRows', group: group.column, op: comparator.op, value: comparator.value, counted: true },
      'number',
    )
  }
  if (g.whichIndex >= 0 || g.cues.list) {
    return intentOf(
      g,
      { kind: 'groupsByRows', group: group.column, op: comparator.op, value: comparator.value, counted: false },
      isNumeric(group.column) ? 'list[number]' : 'list[category]',
    )
  }
  return refuse('the question neither counts nor lists the groups')
}
