import { isIdLike, percentAdjusted } from '../column-traits.js'
import { type ColumnMention, columnsNamed, isNumeric } from '../columns.js'
import type { Comparator } from '../cues/types.js'
import type { Filter } from '../intent.js'
import { RATE_WORDS } from '../lexicon/comparisons.js'
import { DISTINCT_WORDS_AFTER_NUMBER } from '../lexicon/computations.js'
import { ID_HEADER } from '../lexicon/headers.js'
import { ROW_COUNT_NOUNS } from '../lexicon/limits.js'
import { MAXIMUM_ADJECTIVES } from '../lexicon/superlatives.js'
import { type Declined, declined } from '../recognition.js'
import { isTableRowWord } from '../row-noun.js'
import { ordinalValue } from '../tokenise.js'
import type { ConditionContext, Conditions } from './condition-context.js'
import { dateColumnNear, yearCondition } from './date-conditions.js'

/** Where a number sits: its first token (the comparator's), its own token, and the dimension it names. */
type NumberPlace = Pick<Comparator, 'start' | 'numberIndex' | 'hints'>

/**
 * The numeric column a number belongs to: named right after it, else just before its comparator
 * (with no text column between), else shortly after, else the column its words hint at ("older").
 */
export function numericMentionFor(
  context: ConditionContext,
  consumed: ReadonlySet<ColumnMention>,
  place: NumberPlace,
): ColumnMention | null {
  const { mentions, table } = context
  const numericMentions = mentions.filter((m) => isNumeric(m.column))
  const right = numericMentions.find((m) => m.start === place.numberIndex + 1 && !consumed.has(m))
  if (right) return right
  const left = [...numericMentions]
    .filter((m) => m.end < place.start && place.start - m.end <= 6 && !consumed.has(m))
    .sort((a, b) => b.end - a.end)[0]
  if (left && !mentions.some((m) => m.start > left.end && m.end < place.start && !isNumeric(m.column))) return left
  const after = numericMentions.find(
    (m) => m.start > place.numberIndex && m.start - place.numberIndex <= 3 && !consumed.has(m),
  )
  if (after) return after
  if (place.hints.length > 0) {
    const hinted = columnsNamed([table], place.hints)[0]
    if (hinted) return hinted
  }
  return null
}

export interface YesNoComparators {
  readonly checkComparator: Comparator | null
  readonly countComparator: Comparator | null
  /** "at least 2 orders": a number of rows each group must have (shapes/groups-by-rows.ts). */
  readonly rowsPerGroup: Comparator | null
}

/**
 * Each comparator becomes a condition on its column, except in a yes/no question where it compares
 * the computation named before it ("Is the average X above 105?", "Is the highest X negative?") or
 * a count ("Are there more than 3 different brands?").
 */
export function addComparisonConditions(
  context: ConditionContext,
  conditions: Conditions,
): YesNoComparators | Declined {
  const { cues, tokens, aggregates, count } = context
  const aggregateFirst =
    aggregates.length > 0 || cues.superlatives.some((s) => !s.mode && s.direction !== undefined) || count >= 0
  let checkComparator: Comparator | null = null
  let countComparator: Comparator | null = null
  let rowsPerGroup: Comparator | null = null
  for (const comparator of cues.comparators) {
    const aggregateBefore =
      cues.boolean &&
      !cues.any &&
      aggregateFirst &&
      [...aggregates.map((a) => a.index), ...cues.superlatives.map((s) => s.index), count].some(
        (index) => index >= 0 && index < comparator.start,
      )
    const distinctAfter = DISTINCT_WORDS_AFTER_NUMBER.has(tokens[comparator.numberIndex + 1]?.text ?? '')
    if (cues.boolean && distinctAfter && !countComparator) {
      countComparator = comparator
      continue
    }
    if (aggregateBefore && !checkComparator) {
      checkComparator = comparator
      continue
    }
    const found = numericMentionFor(context, conditions.consumed, comparator)
    // "at least 2 orders", "at least 5 observations": the rows' noun after the number counts rows,
    // it is no value of `order_id` nor of a numeric column nearby
    const rows = rowNounAfter(context, comparator) || (found !== null && countsRows(context, found, comparator))
    const mention = rows ? null : found
    if (!mention) {
      // "Are there more than 3 orders?" counts rows; "Is there a city with at least 3 orders?" groups them
      const groupBefore = rows && context.mentions.some((m) => m.end < comparator.start && m !== found)
      if (cues.boolean && !countComparator && !groupBefore) {
        countComparator = comparator
        continue
      }
      if (rows && !rowsPerGroup) {
        rowsPerGroup = comparator
        // the noun's id-like column names the rows, not what the question asks about
        if (found && found.start > comparator.numberIndex) conditions.consumed.add(found)
        continue
      }
      if (rows)
        return declined(
          `"${comparator.value} ${context.tokens[comparator.numberIndex + 1]?.text}" counts rows per group, which the planner does not compute`,
        )
      return declined(`the number ${comparator.value} could not be tied to a numeric column`)
    }
    conditions.filters.push({
      kind: 'compare',
      column: mention.column,
      op: comparator.op,
      value: percentAdjusted(mention.column, comparator),
    })
    // a column found by its hint only ("older" → Age) is not a mention of the question
    if (mention.start >= 0) conditions.consumed.add(mention)
  }
  return { checkComparator, countComparator, rowsPerGroup }
}

/**
 * A number right before words that name an identifier column without its identifier word ("2
 * orders" for `order_id`): the words are the rows themselves, and the number how many of them.
 * With the word ("order ids above 2", "an order_id of 5") it is the identifier's value.
 */
function countsRows(context: ConditionContext, mention: ColumnMention, comparator: Comparator): boolean {
  if (mention.start !== comparator.numberIndex + 1 || !isIdLike(mention.column)) return false
  const said = context.tokens.slice(mention.start, mention.end + 1).map((token) => token.text)
  return !ID_HEADER.test(said.join(' '))
}

/** "at least 5 observations", "more than 100 Pokémon": a word for rows (or the table's own name) after the number. */
function rowNounAfter(context: ConditionContext, comparator: Comparator): boolean {
  const at = comparator.numberIndex + 1
  const noun = context.tokens[at]?.text ?? ''
  if (context.mentions.some((m) => m.start <= at && at <= m.end)) return false
  return ROW_COUNT_NOUNS.has(noun) || isTableRowWord(context.table, noun)
}

/** "between 5 and 10", "1st to 3rd": a range on the numeric column next to it. */
export function addRangeConditions(context: ConditionContext, conditions: Conditions): Declined | null {
  for (const range of context.cues.between) {
    const mention = numericMentionFor(context, conditions.consumed, {
      start: range.start,
      numberIndex: range.end,
      hints: [],
    })
    if (!mention) return declined(`the range ${range.low}–${range.high} could not be tied to a numeric column`)
    conditions.filters.push({ kind: 'between', column: mention.column, low: range.low, high: range.high })
    if (mention.start >= 0) conditions.consumed.add(mention)
  }
  return null
}

/** A number no cue explained: a year, a code after its column's name, a count before one, a season's start. */
export function addStrayNumberConditions(context: ConditionContext, conditions: Conditions): Declined | null {
  const { tokens, mentions, table } = context
  const { filters, consumed } = conditions
  for (const stray of context.cues.strayNumbers) {
    // "in 2024": a year, when the table has a date column
    const yearColumn =
      Number.isInteger(stray.value) && stray.value >= 1900 && stray.value <= 2100
        ? dateColumnNear(context, consumed, stray.index)
        : null
    if (yearColumn) {
      filters.push(yearCondition(yearColumn, stray.value))
      for (const m of mentions) if (m.column === yearColumn) consumed.add(m)
      continue
    }
    // "code 00001522": a literal right after a text column's name
    const before = mentions.find((m) => m.end === stray.index - 1 && !consumed.has(m))
    if (before) {
      const filter: Filter = isNumeric(before.column)
        ? { kind: 'compare', column: before.column, op: '=', value: stray.value }
        : { kind: 'equals', column: before.column, value: tokens[stray.index]?.text ?? '', negated: false }
      filters.push(filter)
      conditions.valueFilters.push(filter)
      consumed.add(before)
      continue
    }
    // "0% humidity", "82 games": a number right before a numeric column's name, unless a rate ("5 goals per game")
    const nextMention = mentions.find((m) => m.start === stray.index + 1 && isNumeric(m.column) && !consumed.has(m))
    const rate = RATE_WORDS.has(tokens[(nextMention?.end ?? 0) + 1]?.text ?? '')
    if (nextMention && !rate) {
      const token = tokens[stray.index]
      filters.push({
        kind: 'compare',
        column: nextMention.column,
        op: '=',
        value: percentAdjusted(nextMention.column, { value: stray.value, percent: token?.percent ?? false }),
      })
      consumed.add(nextMention)
      continue
    }
    const raw = tokens[stray.index]?.text ?? ''
    // "GDP per capita in 2007" naming `gdpPercap_2007`: the number is part of a named column's name
    const inName = (m: { readonly column: { readonly name: string } }) =>
      m.column.name.match(/\d+/g)?.includes(raw) ?? false
    if (/^\d+$/.test(raw) && mentions.some(inName)) continue
    // "the season that started in 2012": the start of values like `2012-13` of one text column
    const prefixed = table.columns.filter(
      (column) => column.type === 'text' && column.topValues.some((value) => new RegExp(`^${raw}[-/]`).test(value)),
    )
    if (/^\d+$/.test(raw) && prefixed.length === 1 && prefixed[0]) {
      filters.push({ kind: 'prefix', column: prefixed[0], value: raw })
      continue
    }
    return declined(`the number ${stray.value} in the question could not be tied to a column or a condition`)
  }
  return null
}

/** "the sixth month": an ordinal right before a numeric column; "a perfect score": the column's maximum. */
export function addOrdinalConditions(context: ConditionContext, conditions: Conditions): void {
  const { tokens, cues } = context
  for (const mention of context.mentions) {
    if (conditions.consumed.has(mention) || !isNumeric(mention.column)) continue
    const ordinalToken = tokens[mention.start - 1]
    const ordinal = ordinalToken && !cues.used.has(mention.start - 1) ? ordinalValue(ordinalToken.text) : null
    if (ordinal !== null && ordinal > 1) {
      conditions.filters.push({ kind: 'compare', column: mention.column, op: '=', value: ordinal })
      conditions.consumed.add(mention)
      continue
    }
    if (MAXIMUM_ADJECTIVES.has(tokens[mention.start - 1]?.text ?? '') && typeof mention.column.max === 'number') {
      conditions.filters.push({ kind: 'compare', column: mention.column, op: '=', value: mention.column.max })
      conditions.consumed.add(mention)
    }
  }
}
