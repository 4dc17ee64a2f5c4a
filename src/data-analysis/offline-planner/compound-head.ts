import type { Grounding } from './grounding/grounding.js'
import type { Intent } from './intent.js'
import { intentColumns } from './intent-columns.js'
import { type Declined, declined } from './recognition.js'
import { spanWords } from './unread-words.js'

/**
 * "the **heart outcomes**" named `heart_risk_factor` by "heart", while "outcomes", right after it,
 * names the column `outcome`, which the plan does not read: in a compound the last noun
 * says what is meant and the words before it qualify it. A plan reading the qualifier's column
 * (part of its header) instead of the head's answers about another column; the planner declines.
 */
export function qualifierReadForHead(g: Grounding, intent: Intent): Declined | null {
  const used = new Set(intentColumns(intent))
  for (const qualifier of g.mentions) {
    if (qualifier.start < 0 || qualifier.coverage >= 1 || !used.has(qualifier.column.name)) continue
    const head = g.mentions.find(
      (m) =>
        m.start === qualifier.end + 1 && m.column !== qualifier.column && m.coverage >= 0.5 && !used.has(m.column.name),
    )
    if (!head) continue
    return declined(
      `"${spanWords(g, qualifier.start, head.end)}" names "${head.column.name}", but the plan would read "${qualifier.column.name}" (named by "${spanWords(g, qualifier.start, qualifier.end)}" only)`,
    )
  }
  return null
}
