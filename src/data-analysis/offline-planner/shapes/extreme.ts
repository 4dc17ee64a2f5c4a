import type { ColumnSchema } from '../../types.js'
import { entityColumn, isCategory, numericOf, resultOf } from '../column-traits.js'
import { isNumeric } from '../columns.js'
import type { Superlative } from '../cues/types.js'
import type { Grounding } from '../grounding/grounding.js'
import { orderColumn, orderFor } from '../grounding/ranking.js'
import type { ScalarFunction } from '../intent.js'
import { ROW_RELATIVE_WORDS, SINGLE_ROW_WORDS, TOP_WORDS } from '../lexicon/superlatives.js'
import { type Declined, declined, type Recognition } from '../recognition.js'
import { groupRankedByRows, rowNameColumn, rowNounRanked, whichNamesRows, whichNounUnread } from '../row-noun.js'
import { intentOf } from './intent-of.js'
import { ranksNamedRows } from './ranked-rows.js'
import { unmappedRankedWord } from './unmapped-measure.js'

/** How a superlative question ranks: what it ranks (a group or rows) and by what (a column or the count of rows). */
interface Ranking {
  readonly superlative: Superlative
  /** The column whose values are ranked as groups ("which country"), if the question names one. */
  readonly group: ColumnSchema | null
  readonly order: ColumnSchema | null
  /** "the country with the most products": ranked by the number of rows. */
  readonly byCount: boolean
  /** "the single heaviest lift", "the oldest person": one row, not a group's total. */
  readonly perRow: boolean
}

function readRanking(g: Grounding, superlative: Superlative): Ranking {
  const { count, subjects } = g
  const group =
    g.whichNoun?.column ??
    g.byMention?.column ??
    (g.who ? entityColumn(g.table) : null) ??
    (whichNamesRows(g) ? rowNameColumn(g.table) : null) ??
    (g.byMeasure ? (subjects.find((m) => m.end < g.byIndex && !isNumeric(m.column))?.column ?? null) : null) ??
    groupRankedByRows(g, superlative)
  const order = orderColumn(g, new Set(group ? [group] : []))
  // "the number of X … the highest": the count phrase only names the column X ranked by, it counts no rows
  const countNamesOrder =
    order !== null &&
    count < superlative.index &&
    subjects.some((m) => m.start > count && m.start <= count + 3 && numericOf(m) === order)
  return {
    superlative,
    group,
    order,
    byCount: count >= 0 && !countNamesOrder,
    perRow:
      g.tokens.some((t) => SINGLE_ROW_WORDS.has(t.text)) ||
      superlative.hints.length > 0 ||
      rowNounRanked(g, superlative.index) ||
      (order !== null && ranksNamedRows(g, superlative, order)),
  }
}

function refusal(g: Grounding, ranking: Ranking): Declined | null {
  const { cues } = g
  if (g.average && cues.limit !== null && cues.limit > 1 && !ranking.group) {
    return declined('an average over the top rows is not supported by the offline planner')
  }
  const rankers = cues.superlatives.filter((sup) => !sup.mode && !TOP_WORDS.has(g.tokens[sup.index]?.text ?? ''))
  const excluded = new Set(ranking.group ? [ranking.group] : [])
  if (rankers.length > 1 && new Set(rankers.map((sup) => orderFor(g, sup, excluded))).size > 1) {
    return declined('the question ranks by two different things at once')
  }
  return null
}

/** "Which country has the most products?", "the top 2 cities by total amount", "the player with the highest score". */
function rankGroups(g: Grounding, ranking: Ranking, group: ColumnSchema): Recognition {
  const { order, byCount } = ranking
  const { direction } = ranking.superlative
  const { limit, wantsList } = g
  if (!order && !byCount) {
    const unmapped = unmappedRankedWord(g, ranking.superlative)
    if (unmapped) return declined(`the question ranks by "${unmapped}", which could not be mapped to a column`)
    // "which country has the most products": the group with the most rows
    return intentOf(g, { kind: 'mode', column: group, direction, limit }, resultOf(group, wantsList))
  }
  // a group of one row each (names, titles): the rows themselves are ranked
  const unique = group.distinctCount >= g.table.rowCount * 0.9
  if (g.average && unique) return declined('an average over the top rows is not supported by the offline planner')
  if (!byCount && order && (unique || ranking.perRow)) {
    return intentOf(
      g,
      { kind: 'rows', target: group, order, direction, limit, distinct: false, offset: g.cues.offset },
      resultOf(group, wantsList),
    )
  }
  const fn: ScalarFunction = byCount ? 'count' : g.average ? 'avg' : 'sum'
  // "the highest total amount by city": the amounts, unless the question asks which city
  const returnMetric = g.byMention !== null && g.whichNoun === null && order !== null && !g.who
  return intentOf(
    g,
    { kind: 'group', group, fn, measure: byCount ? null : order, direction, limit, returnMetric },
    returnMetric ? (wantsList ? 'list[number]' : 'number') : resultOf(group, wantsList),
  )
}

/** "the age of the woman with the lowest BMI", "the 3 highest scores", "the highest score". */
function rankRows(g: Grounding, ranking: Ranking, order: ColumnSchema): Recognition {
  const { count, subjects, limit, wantsList, cues } = g
  const { superlative } = ranking
  const { direction } = superlative
  const offset = cues.offset
  // what is asked for is named before the superlative
  const target =
    subjects.find(
      (m) =>
        m.end < superlative.index && m.column !== order && numericOf(m) !== order && !(count >= 0 && m.start <= count),
    )?.column ??
    subjects.find((m) => m.end < superlative.index && count >= 0 && m.start > count && numericOf(m) !== order)
      ?.column ??
    null
  const rowWords = g.tokens.slice(Math.max(0, superlative.index - 3), superlative.index).map((t) => t.text)
  if (!target && rowWords.some((word) => ROW_RELATIVE_WORDS.has(word)) && !wantsList) {
    return declined(
      'the question asks about the row with the highest or lowest value but the column it wants could not be mapped',
    )
  }
  if (target && target !== order) {
    const unique = target.distinctCount >= g.table.rowCount * 0.9
    // "the city with the highest amount": a repeated category is ranked by its total
    if (!isNumeric(target) && !unique && !ranking.perRow && !g.average) {
      return intentOf(
        g,
        { kind: 'group', group: target, fn: 'sum', measure: order, direction, limit, returnMetric: false },
        resultOf(target, wantsList),
      )
    }
    if (g.average && (!isNumeric(target) || isCategory(target, g.table))) {
      return intentOf(
        g,
        { kind: 'group', group: target, fn: 'avg', measure: order, direction, limit, returnMetric: false },
        resultOf(target, wantsList),
      )
    }
    return intentOf(
      g,
      { kind: 'rows', target, order, direction, limit, distinct: false, offset },
      resultOf(target, wantsList),
    )
  }
  if (g.average && !wantsList) return intentOf(g, { kind: 'scalar', fn: 'avg', column: order }, 'number')
  const unreadNoun = whichNounUnread(g)
  if (unreadNoun)
    return declined(
      `the question asks which "${unreadNoun}", but no column was read for "${unreadNoun}": the planner could only rank their numbers`,
    )
  if (wantsList || cues.limit !== null || offset > 0) {
    return intentOf(
      g,
      { kind: 'rows', target: order, order, direction, limit, distinct: cues.distinct, offset },
      resultOf(order, wantsList),
    )
  }
  return intentOf(
    g,
    { kind: 'scalar', fn: direction === 'desc' ? 'max' : 'min', column: order },
    resultOf(order, false),
  )
}

/** Superlatives: ranked groups, extreme rows, top values. */
export function recogniseExtreme(g: Grounding): Recognition | null {
  if (!g.superlative) return null
  const ranking = readRanking(g, g.superlative)
  const refused = refusal(g, ranking)
  if (refused) return refused
  if (ranking.group) return rankGroups(g, ranking, ranking.group)
  if (!ranking.order)
    return declined('the question asks for a highest or lowest value but names no numeric column to rank by')
  // "the highest shipping prices": what "highest" qualifies is not the column found further on
  const unmapped = g.superlative.hints.length === 0 && !g.byMeasure ? unmappedRankedWord(g, g.superlative) : null
  if (unmapped) return declined(`the question ranks by "${unmapped}", which could not be mapped to a column`)
  return rankRows(g, ranking, ranking.order)
}
