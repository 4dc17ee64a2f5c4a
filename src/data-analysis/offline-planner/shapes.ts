import { type ColumnSchema, quoteIdentifier, type ResultType, type TableSchema } from '../types.js'
import { type ColumnMention, columnsNamed, findColumnMentions, isNumeric } from './columns.js'
import type { Comparator, Cues, Superlative } from './cues/types.js'
import type { Check, Filter, Intent, ScalarFunction, Shape } from './intent.js'
import { COMPARATIVE_WORDS, FEWER_WORDS, RATE_WORDS, THAN_WORDS } from './lexicon/comparisons.js'
import { CONTAINING_WORDS, DISTINCT_WORDS, DISTINCT_WORDS_AFTER_NUMBER } from './lexicon/computations.js'
import { ENTITY_HEADER, ID_HEADER, LABEL_HEADER, NAME_HEADER } from './lexicon/headers.js'
import {
  ASKS_NAME_OPENERS,
  BY_WORDS,
  DEFINITE_ARTICLES,
  FLAG_NEGATIONS,
  FRENCH_WHICH_OPENERS,
  FRENCH_WHICH_VERBS,
  NAME_NOUNS,
  NAME_WORDS,
  PLURAL_VERBS,
  VALUE_NEGATIONS,
  WHICH_GAP_WORDS,
  WHICH_ONE_OPENERS,
  WHICH_WORDS,
  WHO_WORDS,
} from './lexicon/question-forms.js'
import {
  type Direction,
  MAXIMUM_ADJECTIVES,
  ROW_RELATIVE_WORDS,
  SINGLE_ROW_WORDS,
  TOP_WORDS,
} from './lexicon/superlatives.js'
import { FILLERS } from './lexicon/vague-words.js'
import { fold, ordinalValue, splitHeader, stemsOf, words } from './tokenise.js'
import { findQuotedValue, findValueMentions, type ValueMention } from './values.js'

/**
 * The shape recognisers: from the question's cues and the columns and values it names to one
 * Intent (filters + computation + yes/no check), or the reason none fits.
 */

export type Recognition =
  | { readonly kind: 'intent'; readonly intent: Intent }
  | { readonly kind: 'declined'; readonly reason: string }

const decline = (reason: string): Recognition => ({ kind: 'declined', reason })

function isIdLike(column: ColumnSchema, _table: TableSchema): boolean {
  const header = fold(splitHeader(column.name))
  return ID_HEADER.test(header)
}

/** The text column a "who"/"which one" question is about: a name-like header, else the most varied text column. */
function entityColumn(table: TableSchema): ColumnSchema | null {
  const text = table.columns.filter((column) => column.type === 'text')
  const named = text.find((column) => ENTITY_HEADER.test(fold(splitHeader(column.name))))
  if (named) return named
  return [...text].sort((a, b) => b.distinctCount - a.distinctCount)[0] ?? null
}

/** Values come first when they cover more of the question than a column mention at the same place. */
function resolveOverlaps(
  columns: ColumnMention[],
  values: ValueMention[],
): { columns: ColumnMention[]; values: ValueMention[] } {
  const keptValues: ValueMention[] = []
  const droppedColumns = new Set<ColumnMention>()
  for (const value of values) {
    const overlapping = columns.filter((c) => c.start <= value.end && value.start <= c.end)
    const valueLength = value.end - value.start + 1
    const beats = overlapping.every(
      (c) => valueLength > c.end - c.start + 1 || (valueLength === c.end - c.start + 1 && c.coverage < 1),
    )
    if (!beats) continue
    for (const c of overlapping) droppedColumns.add(c)
    keptValues.push(value)
  }
  return { columns: columns.filter((c) => !droppedColumns.has(c)), values: keptValues }
}

function percentAdjusted(column: ColumnSchema, comparator: Pick<Comparator, 'value' | 'percent'>): number {
  const max = typeof column.max === 'number' ? column.max : null
  if (max !== null && max <= 1 && (comparator.percent || comparator.value > 1) && comparator.value <= 100)
    return comparator.value / 100
  return comparator.value
}

function resultOf(column: ColumnSchema, list: boolean): ResultType {
  if (isNumeric(column)) return list ? 'list[number]' : 'number'
  if (column.type === 'boolean' && !list) return 'boolean'
  return list ? 'list[category]' : 'category'
}

/**
 * A "which/who/where …" or "what is the name of …" question wants a category: an aggregate
 * number would answer another question, so the planner declines instead.
 */
export function recognise(cues: Cues, tables: readonly TableSchema[]): Recognition {
  const recognition = recogniseShape(cues, tables)
  if (recognition.kind !== 'intent' || recognition.intent.check || recognition.intent.shape.kind !== 'scalar')
    return recognition
  const { tokens } = cues
  const first = tokens[0]?.text ?? ''
  const asksName =
    ASKS_NAME_OPENERS.has(first) ||
    (FRENCH_WHICH_OPENERS.has(first) && !FRENCH_WHICH_VERBS.has(tokens[1]?.text ?? '')) ||
    tokens.slice(0, 6).some((t, i) => NAME_NOUNS.has(t.text) && DEFINITE_ARTICLES.has(tokens[i - 1]?.text ?? ''))
  if (asksName && recognition.intent.resultType === 'number') {
    return decline('the question asks which one, but the planner could only compute a number for it')
  }
  return recognition
}

function recogniseShape(cues: Cues, tables: readonly TableSchema[]): Recognition {
  if (tables.length === 0) return decline('no table is loaded')
  if (cues.unsupported)
    return decline(`the question asks for "${cues.unsupported}", which the offline planner does not compute`)
  const { tokens } = cues

  // the question's column and value words, on the tokens the cues did not take
  const blocked = new Set<number>(cues.used)
  for (const quote of cues.quoted) for (let i = quote.start; i <= quote.end; i++) blocked.add(i)
  let columnMentions = findColumnMentions(tokens, tables, blocked)
  const valueMentions = findValueMentions(tokens, tables, blocked, new Set(columnMentions.map((m) => m.column)))
  const resolved = resolveOverlaps(columnMentions, valueMentions)
  columnMentions = resolved.columns
  const values: ValueMention[] = [...resolved.values]

  // quoted strings: a header ('Weight Class'), a seen value ('Hacendado'), or text searched in the nearest text column
  const quotedContains: Array<{ text: string; start: number; end: number }> = []
  for (const quote of cues.quoted) {
    const quotedStems = words(quote.text).map((word) => stemsOf(word)[1] ?? word)
    const header = tables
      .flatMap((table) => table.columns.map((column) => ({ table, column })))
      .find(({ column }) => {
        if (fold(column.name) === fold(quote.text)) return true
        const headerStems = words(splitHeader(column.name)).map((word) => stemsOf(word)[1] ?? word)
        return headerStems.length === quotedStems.length && headerStems.every((stem, i) => stem === quotedStems[i])
      })
    if (header) {
      columnMentions.push({ ...header, start: quote.start, end: quote.end, strength: 9, coverage: 1 })
      continue
    }
    const seen = findQuotedValue(quote.text, tables)
    if (seen) {
      values.push({ ...seen, start: quote.start, end: quote.end })
      continue
    }
    quotedContains.push(quote)
  }
  columnMentions.sort((a, b) => a.start - b.start)
  const inColumn = (index: number) => index >= 0 && columnMentions.some((m) => m.start <= index && index <= m.end)
  const aggregates = cues.aggregates.filter((a) => !inColumn(a.index))
  let count = inColumn(cues.count) ? -1 : cues.count

  // one table: the one the question names most (joins are declined for now)
  const votes = new Map<TableSchema, number>()
  for (const mention of [...columnMentions, ...values]) votes.set(mention.table, (votes.get(mention.table) ?? 0) + 1)
  const table = [...tables].sort((a, b) => (votes.get(b) ?? 0) - (votes.get(a) ?? 0))[0]
  if (!table) return decline('no table is loaded')
  if (tables.length > 1 && [...votes.keys()].length > 1) {
    const named = [...votes.keys()]
    const joined = named.length === 2 ? joinTables(named[0] as TableSchema, named[1] as TableSchema) : null
    if (!joined) {
      return decline('the question names columns of several tables that share no column to join them on (one-to-many)')
    }
    return recognise(cues, [joined])
  }
  const mentions = columnMentions.filter((m) => m.table === table)
  const tableValues = values.filter((v) => v.table === table)

  const filters: Filter[] = []
  const consumed = new Set<ColumnMention>()
  const filterMentionOf = new Map<Filter, ColumnMention | null>()
  const valueFilters: Filter[] = []
  for (const value of tableValues) {
    const before = tokens.slice(Math.max(0, value.start - 3), value.start).map((t) => t.text)
    const negated = before.some((word) => VALUE_NEGATIONS.has(word))
    const filter: Filter = value.item
      ? { kind: 'item', column: value.column, value: value.value, negated }
      : { kind: 'equals', column: value.column, value: value.value, negated }
    filters.push(filter)
    valueFilters.push(filter)
    const named = mentions.find((m) => m.column === value.column && Math.abs(m.start - value.end) <= 3)
    if (named) consumed.add(named)
    filterMentionOf.set(filter, named ?? null)
  }
  for (const quote of quotedContains) {
    const near = [...mentions]
      .filter((m) => !isNumeric(m.column) && !consumed.has(m))
      .sort((a, b) => Math.abs(a.start - quote.start) - Math.abs(b.start - quote.start))[0]
    const column = near?.column ?? null
    if (!column)
      return decline(`"${quote.text}" is not a value seen in the table and no text column is named to search it in`)
    const containing = tokens.some((t) => CONTAINING_WORDS.has(t.text))
    const filter: Filter = containing
      ? { kind: 'contains', column, value: quote.text }
      : { kind: 'equals', column, value: quote.text, negated: false }
    filters.push(filter)
    valueFilters.push(filter)
    if (near) consumed.add(near)
  }

  // a comparator belongs to the numeric column named next to it
  const numericMentions = mentions.filter((m) => isNumeric(m.column))
  const attach = (comparator: {
    start: number
    numberIndex: number
    hints: readonly string[]
  }): ColumnMention | null => {
    const right = numericMentions.find((m) => m.start === comparator.numberIndex + 1 && !consumed.has(m))
    if (right) return right
    const left = [...numericMentions]
      .filter((m) => m.end < comparator.start && comparator.start - m.end <= 6 && !consumed.has(m))
      .sort((a, b) => b.end - a.end)[0]
    if (left && !mentions.some((m) => m.start > left.end && m.end < comparator.start && !isNumeric(m.column)))
      return left
    const after = numericMentions.find(
      (m) => m.start > comparator.numberIndex && m.start - comparator.numberIndex <= 3 && !consumed.has(m),
    )
    if (after) return after
    if (comparator.hints.length > 0) {
      const hinted = columnsNamed([table], comparator.hints)[0]
      if (hinted) return hinted
    }
    return null
  }

  // yes/no about an aggregate: "Is the average X better than 105?", "Is the highest X negative?"
  const aggregateFirst =
    aggregates.length > 0 || cues.superlatives.some((s) => !s.mode && s.direction !== undefined) || count >= 0
  let checkComparator: Comparator | null = null
  let countComparator: Comparator | null = null
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
    const mention = attach(comparator)
    if (aggregateBefore && !checkComparator) {
      // the compared column stays a subject: it is the measure of the aggregate
      checkComparator = comparator
      continue
    }
    if (!mention) {
      if (cues.boolean && !countComparator) {
        countComparator = comparator
        continue
      }
      return decline(`the number ${comparator.value} could not be tied to a numeric column`)
    }
    const filter: Filter = {
      kind: 'compare',
      column: mention.column,
      op: comparator.op,
      value: percentAdjusted(mention.column, comparator),
    }
    filters.push(filter)
    if (mention.start >= 0) consumed.add(mention)
  }
  for (const range of cues.between) {
    const mention = attach({ start: range.start, numberIndex: range.end, hints: [] })
    if (!mention) return decline(`the range ${range.low}–${range.high} could not be tied to a numeric column`)
    filters.push({ kind: 'between', column: mention.column, low: range.low, high: range.high })
    if (mention.start >= 0) consumed.add(mention)
  }
  const dateColumns = (near: number) => {
    const named = mentions.filter(
      (m) => (m.column.type === 'date' || m.column.type === 'timestamp') && !consumed.has(m),
    )
    named.sort((a, b) => Math.abs(a.start - near) - Math.abs(b.start - near))
    if (named[0]) return named[0].column
    const all = table.columns.filter((c) => c.type === 'date' || c.type === 'timestamp')
    return all.length === 1 ? (all[0] ?? null) : null
  }
  for (const date of cues.dates) {
    const column = dateColumns(date.index)
    if (!column) return decline(`the date ${date.value} could not be tied to one date column`)
    filters.push({ kind: 'date', column, op: date.op, value: date.value, ...(date.high ? { high: date.high } : {}) })
    for (const m of mentions) if (m.column === column) consumed.add(m)
  }
  for (const stray of cues.strayNumbers) {
    // "in 2024": a year, when the table has a date column
    const yearColumn =
      Number.isInteger(stray.value) && stray.value >= 1900 && stray.value <= 2100 ? dateColumns(stray.index) : null
    if (yearColumn) {
      filters.push({
        kind: 'date',
        column: yearColumn,
        op: 'between',
        value: `${stray.value}-01-01`,
        high: `${stray.value}-12-31`,
      })
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
      valueFilters.push(filter)
      consumed.add(before)
      continue
    }
    // "0% humidity", "82 games": a number right before a numeric column's name
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
    // "the season that started in 2012": the start of values like `2012-13` of one text column
    const raw = tokens[stray.index]?.text ?? ''
    const prefixed = table.columns.filter(
      (column) => column.type === 'text' && column.topValues.some((value) => new RegExp(`^${raw}[-/]`).test(value)),
    )
    if (/^\d+$/.test(raw) && prefixed.length === 1 && prefixed[0]) {
      filters.push({ kind: 'prefix', column: prefixed[0], value: raw })
      continue
    }
    return decline(`the number ${stray.value} in the question could not be tied to a column or a condition`)
  }
  for (const mention of mentions) {
    if (consumed.has(mention) || !isNumeric(mention.column)) continue
    // "the sixth month": an ordinal right before a numeric column
    const ordinalToken = tokens[mention.start - 1]
    const ordinal = ordinalToken && !cues.used.has(mention.start - 1) ? ordinalValue(ordinalToken.text) : null
    if (ordinal !== null && ordinal > 1) {
      filters.push({ kind: 'compare', column: mention.column, op: '=', value: ordinal })
      consumed.add(mention)
      continue
    }
    // "a perfect English score": the column's maximum
    if (MAXIMUM_ADJECTIVES.has(tokens[mention.start - 1]?.text ?? '') && typeof mention.column.max === 'number') {
      filters.push({ kind: 'compare', column: mention.column, op: '=', value: mention.column.max })
      consumed.add(mention)
    }
  }
  // a yes/no column (0/1) named as a condition: "applicants without research experience" → = 0
  const binary = (column: ColumnSchema) =>
    isNumeric(column) && column.distinctCount === 2 && column.min === 0 && column.max === 1
  const others = mentions.filter((m) => !consumed.has(m))
  for (const mention of others) {
    if (!binary(mention.column)) continue
    if (!(cues.boolean || count >= 0 || others.length > 1)) continue
    const before = tokens.slice(Math.max(0, mention.start - 4), mention.start).map((t) => t.text)
    const negated = before.some((word) => FLAG_NEGATIONS.has(word))
    filters.push({ kind: 'compare', column: mention.column, op: '=', value: negated ? 0 : 1 })
    consumed.add(mention)
  }

  const subjects = mentions.filter((m) => !consumed.has(m))
  /** A numeric column for a mention: its own, else a numeric column the same words also name. */
  const numericOf = (m: ColumnMention): ColumnSchema | null =>
    isNumeric(m.column) && !isIdLike(m.column, table)
      ? m.column
      : (m.alternatives?.find((c) => isNumeric(c) && !isIdLike(c, table)) ?? null)
  const firstSubject = subjects[0] ?? null
  const whichIndex = tokens.findIndex((t, i) => WHICH_WORDS.has(t.text) && i < 4)
  const gap = (from: number, to: number) =>
    tokens.slice(from + 1, to).filter((t) => !FILLERS.has(t.text) && !WHICH_GAP_WORDS.has(t.text)).length
  // the noun after "which"/"quel": a well-named column close by wins over a vague word right after
  const whichNoun =
    whichIndex >= 0
      ? (subjects.find(
          (m) => m.start > whichIndex && m.strength >= 1 && gap(whichIndex, m.start) <= 1 && !isNumeric(m.column),
        ) ??
        subjects.find(
          (m) =>
            m.start > whichIndex &&
            m.strength < 1 &&
            gap(whichIndex, m.start) <= 1 &&
            !isNumeric(m.column) &&
            !subjects.some((o) => o.strength >= 1 && o.start > m.end && o.start - m.end <= 4),
        ) ??
        null)
      : null
  // "by 'Weight Class'" groups; "by total lifts" ranks (an aggregate word or a number column after "by")
  const byIndex = tokens.findIndex((t) => BY_WORDS.has(t.text))
  const byTarget = byIndex >= 0 ? (subjects.find((m) => m.start > byIndex && m.start - byIndex <= 3) ?? null) : null
  const byIsMeasure =
    byTarget !== null &&
    (isNumeric(byTarget.column) || aggregates.some((a) => a.index > byIndex && a.index < byTarget.start))
  const byMention = byTarget && !byIsMeasure ? byTarget : null
  const byMeasure = byTarget && byIsMeasure ? numericOf(byTarget) : null
  const who = tokens.some((t, i) => i < 3 && WHO_WORDS.has(t.text))
  const avg = aggregates.find((a) => a.fn === 'avg')
  const simpleAggregate = aggregates.find((a) => a.fn !== 'sum' || !cues.superlatives.length)
  const superlative =
    cues.superlatives.find((s) => !s.mode && !TOP_WORDS.has(tokens[s.index]?.text ?? '')) ??
    cues.superlatives.find((s) => !s.mode) ??
    null
  const mode = cues.superlatives.find((s) => s.mode) ?? null
  const limit = cues.limit ?? 1
  const wantsList = cues.list || (cues.limit !== null && cues.limit > 1)

  /** The column a superlative ranks by: named after it, else before it, else the dimension it names. */
  /** The column a superlative ranks by: named after it, else the dimension it names, else named before it. */
  const orderFor = (sup: Superlative, excluded: ReadonlySet<ColumnSchema>): ColumnSchema | null => {
    if (byMeasure && !excluded.has(byMeasure)) return byMeasure
    const pool = subjects.filter((m) => !excluded.has(m.column))
    // a dimension adjective ("heaviest", "youngest") names its column, unless it is as vague as "cheapest"
    if (sup.hints.length > 0 && !sup.hints.includes('index')) {
      const named = pool.find(
        (m) => numericOf(m) && columnsNamed([table], sup.hints).some((h) => h.column === numericOf(m)),
      )
      if (named) return numericOf(named)
      const hinted = columnsNamed([table], sup.hints).find((m) => !excluded.has(m.column) && !isIdLike(m.column, table))
      if (hinted) return hinted.column
    }
    for (const m of pool) {
      if (m.start > sup.index && m.start - sup.index <= 6 && numericOf(m)) return numericOf(m)
    }
    for (const m of [...pool].reverse()) {
      if (m.end < sup.index && numericOf(m)) return numericOf(m)
    }
    const hinted =
      sup.hints.length > 0
        ? columnsNamed([table], sup.hints).find((m) => !excluded.has(m.column) && !isIdLike(m.column, table))
        : undefined
    return hinted?.column ?? null
  }
  const orderColumn = (excluded: ReadonlySet<ColumnSchema>): ColumnSchema | null =>
    superlative ? orderFor(superlative, excluded) : null

  // "the name of the month": a numeric code answered by its label column (same number of distinct values)
  const wantsName = tokens.some((t) => NAME_WORDS.has(t.text)) && !mentions.some((m) => NAME_HEADER.test(m.column.name))
  const labelOf = (column: ColumnSchema): ColumnSchema => {
    if (!wantsName || !isNumeric(column)) return column
    const labels = table.columns.filter(
      (c) => c.type === 'text' && c.distinctCount === column.distinctCount && c.nullCount === column.nullCount,
    )
    return labels.find((c) => LABEL_HEADER.test(c.name)) ?? labels[0] ?? column
  }
  const labelled = (shape: Shape): Shape => {
    switch (shape.kind) {
      case 'mode':
        return { ...shape, column: labelOf(shape.column) }
      case 'group':
        return shape.returnMetric ? shape : { ...shape, group: labelOf(shape.group) }
      case 'rows':
        return shape.target === shape.order ? shape : { ...shape, target: labelOf(shape.target) }
      case 'distinct':
        return { ...shape, column: labelOf(shape.column) }
      default:
        return shape
    }
  }
  const intent = (
    shape: Shape,
    resultType: ResultType,
    check: Check | null = null,
    extra: Filter[] = [],
  ): Recognition => {
    const final = labelled(shape)
    const relabelled = final !== shape && JSON.stringify(final) !== JSON.stringify(shape)
    const type: ResultType = relabelled ? (resultType.startsWith('list') ? 'list[category]' : 'category') : resultType
    return { kind: 'intent', intent: { table, filters: [...filters, ...extra], shape: final, check, resultType: type } }
  }

  // ---- yes/no questions
  if (cues.boolean) {
    if (cues.all && cues.distinct) {
      return intent({ kind: 'scalar', fn: 'count', column: null }, 'boolean', {
        kind: 'unique',
        column: firstSubject?.column ?? null,
      })
    }
    if (cues.all && !checkComparator) {
      const condition = filters.length > 0 ? [filters[filters.length - 1] as Filter] : []
      if (condition.length === 0) {
        const lastWord = [...tokens].reverse().findIndex((t) => !FILLERS.has(t.text))
        const closing = firstSubject && subjects.length === 1 && firstSubject.end === tokens.length - 1 - lastWord
        if (!firstSubject || !closing || cues.superlatives.length > 0) {
          return decline('the question does not say which condition every row should meet')
        }
        condition.push({ kind: 'present', column: firstSubject.column, present: true })
      }
      const population = filters.slice(0, Math.max(0, filters.length - 1))
      return {
        kind: 'intent',
        intent: {
          table,
          filters: population,
          shape: { kind: 'scalar', fn: 'count', column: null },
          check: { kind: 'all', condition },
          resultType: 'boolean',
        },
      }
    }
    const thanIndex = tokens.findIndex((t) => THAN_WORDS.has(t.text))
    if (valueFilters.length === 2 && thanIndex >= 0 && !checkComparator && !countComparator) {
      const comparative = tokens.slice(0, thanIndex).find((t) => COMPARATIVE_WORDS.has(t.text))
      if (comparative) {
        const op = FEWER_WORDS.has(comparative.text) ? '<' : '>'
        const [first, second] = valueFilters as [Filter, Filter]
        const rest = filters.filter((f) => f !== first && f !== second)
        return {
          kind: 'intent',
          intent: {
            table,
            filters: [...rest, first],
            shape: { kind: 'scalar', fn: 'count', column: null },
            check: { kind: 'more', op, other: [...rest, second] },
            resultType: 'boolean',
          },
        }
      }
    }
    if (checkComparator) {
      const measure =
        attach(checkComparator)?.column ??
        orderColumn(new Set()) ??
        subjects.find((m) => isNumeric(m.column))?.column ??
        null
      let fn: ScalarFunction | null = null
      if (count >= 0 && count < checkComparator.start) fn = cues.distinct && firstSubject ? 'count_distinct' : 'count'
      else if (simpleAggregate && simpleAggregate.index < checkComparator.start) fn = simpleAggregate.fn
      else if (superlative) fn = superlative.direction === 'desc' ? 'max' : 'min'
      if (!fn) return decline('the question compares a number but does not say which computation it is compared with')
      const column = fn === 'count' ? null : fn === 'count_distinct' ? (firstSubject?.column ?? null) : measure
      if (fn !== 'count' && !column)
        return decline('the question compares a computation but names no column it could be computed on')
      const value = column ? percentAdjusted(column, checkComparator) : checkComparator.value
      return intent({ kind: 'scalar', fn, column }, 'boolean', { kind: 'compare', op: checkComparator.op, value })
    }
    if (countComparator) {
      const distinctColumn = cues.distinct
        ? (subjects.find((m) => !isNumeric(m.column) || m.column.distinctCount < 50)?.column ?? null)
        : null
      if (cues.distinct && !distinctColumn)
        return decline('the question counts different values but names no column to count them in')
      return intent(
        { kind: 'scalar', fn: distinctColumn ? 'count_distinct' : 'count', column: distinctColumn },
        'boolean',
        { kind: 'compare', op: countComparator.op, value: countComparator.value },
      )
    }
    if (filters.length === 0) {
      return decline('the question asks whether something exists but names no value or condition that could be checked')
    }
    return intent({ kind: 'scalar', fn: 'count', column: null }, 'boolean', { kind: 'exists', negated: cues.negated })
  }

  // ---- percentages and shares
  if (cues.share) {
    if (filters.length === 0) return decline('the question asks for a percentage but names no condition to measure')
    return {
      kind: 'intent',
      intent: {
        table,
        filters: [],
        shape: { kind: 'share', condition: [...filters] },
        check: null,
        resultType: 'number',
      },
    }
  }

  // ---- most / least frequent values
  if (mode) {
    const column =
      subjects.find((m) => m.start > mode.index)?.column ??
      [...subjects].reverse().find((m) => m.end < mode.index)?.column ??
      (who ? entityColumn(table) : null)
    if (!column) return decline('the question asks for the most frequent value but names no column')
    if (count >= 0 && cues.list) {
      // "the number of stores for the two most frequent store names": the counts themselves
      return intent(
        {
          kind: 'group',
          group: column,
          fn: 'count',
          measure: null,
          direction: mode.direction,
          limit,
          returnMetric: true,
        },
        'list[number]',
      )
    }
    return intent({ kind: 'mode', column, direction: mode.direction, limit }, resultOf(column, wantsList))
  }

  // ---- counts
  if (count >= 0 && !superlative && (cues.list || cues.position)) {
    const named = subjects.find((m) => m.start > count && m.start - count <= 3 && numericOf(m))
    if (named) count = -1
  }
  if (count >= 0 && !superlative) {
    const after = subjects.find((m) => m.start > count && m.start - count <= 4)
    if (after && isIdLike(after.column, table) && !cues.distinct) {
      return intent({ kind: 'scalar', fn: 'count_distinct', column: after.column }, 'number')
    }
    if (cues.distinct) {
      const distinctAt = tokens.findIndex((t) => DISTINCT_WORDS.has(t.text))
      const column =
        subjects.find((m) => m.start > distinctAt && m.start - distinctAt <= 3)?.column ??
        subjects.find((m) => m.start > count && m.coverage === 1)?.column ??
        after?.column ??
        firstSubject?.column
      if (!column) return decline('the question counts different values but names no column to count them in')
      return intent({ kind: 'scalar', fn: 'count_distinct', column }, 'number')
    }
    if (after && isNumeric(after.column) && !isIdLike(after.column, table) && after.start <= count + 3) {
      return intent({ kind: 'scalar', fn: 'sum', column: after.column }, 'number')
    }
    if (cues.nonEmpty && firstSubject)
      return intent({ kind: 'scalar', fn: 'count_values', column: firstSubject.column }, 'number')
    if (filters.length === 0 && subjects.some((m) => m !== after)) {
      return decline('the question names a column but not a condition the counted rows should meet')
    }
    return intent({ kind: 'scalar', fn: 'count', column: null }, 'number')
  }

  // ---- closest to a number
  const closest = cues.closest
  if (closest) {
    const order =
      subjects.find((m) => isNumeric(m.column) && m.start > closest.index - 5)?.column ??
      subjects.find((m) => isNumeric(m.column))?.column
    const target =
      whichNoun?.column ?? (who ? entityColumn(table) : null) ?? subjects.find((m) => !isNumeric(m.column))?.column
    if (!order || !target) return decline('the question asks for the closest value but the columns could not be mapped')
    return intent({ kind: 'closest', target, order, value: closest.value }, resultOf(target, false))
  }

  // ---- superlatives: extreme rows, ranked groups, top values
  if (superlative) {
    const rankers = cues.superlatives.filter((sup) => !sup.mode && !TOP_WORDS.has(tokens[sup.index]?.text ?? ''))
    const group =
      whichNoun?.column ??
      byMention?.column ??
      (who ? entityColumn(table) : null) ??
      (byMeasure ? (subjects.find((m) => m.end < byIndex && !isNumeric(m.column))?.column ?? null) : null)
    const order = orderColumn(new Set(group ? [group] : []))
    if (avg && cues.limit !== null && cues.limit > 1 && !group) {
      return decline('an average over the top rows is not supported by the offline planner')
    }
    if (rankers.length > 1 && new Set(rankers.map((sup) => orderFor(sup, new Set(group ? [group] : [])))).size > 1) {
      return decline('the question ranks by two different things at once')
    }
    const perRow = tokens.some((t) => SINGLE_ROW_WORDS.has(t.text)) || superlative.hints.length > 0
    const direction: Direction = superlative.direction
    const countMeasure =
      count >= 0 &&
      !(
        order &&
        count < superlative.index &&
        subjects.some((m) => m.start > count && m.start <= count + 3 && numericOf(m) === order)
      )
    const offset = cues.offset
    if (group && !order && !countMeasure) {
      // "which country has the most products": the group with the most rows
      return intent({ kind: 'mode', column: group, direction, limit }, resultOf(group, wantsList))
    }
    if (group && (order || countMeasure)) {
      const unique = group.distinctCount >= table.rowCount * 0.9
      if (avg && unique) return decline('an average over the top rows is not supported by the offline planner')
      if (!countMeasure && order && (unique || perRow)) {
        return intent(
          { kind: 'rows', target: group, order, direction, limit, distinct: false, offset },
          resultOf(group, wantsList),
        )
      }
      const fn: ScalarFunction = countMeasure ? 'count' : avg ? 'avg' : 'sum'
      const returnMetric = byMention !== null && whichNoun === null && order !== null && !who
      return intent(
        { kind: 'group', group, fn, measure: countMeasure ? null : order, direction, limit, returnMetric },
        returnMetric ? (wantsList ? 'list[number]' : 'number') : resultOf(group, wantsList),
      )
    }
    if (!order) return decline('the question asks for a highest or lowest value but names no numeric column to rank by')
    // what is asked for is named before the superlative ("the age of the woman with the lowest BMI")
    const target =
      subjects.find(
        (m) =>
          m.end < superlative.index &&
          m.column !== order &&
          numericOf(m) !== order &&
          !(count >= 0 && m.start <= count),
      )?.column ??
      subjects.find((m) => m.end < superlative.index && count >= 0 && m.start > count && numericOf(m) !== order)
        ?.column ??
      null
    const rowWords = tokens.slice(Math.max(0, superlative.index - 3), superlative.index).map((t) => t.text)
    if (!target && rowWords.some((word) => ROW_RELATIVE_WORDS.has(word)) && !wantsList) {
      return decline(
        'the question asks about the row with the highest or lowest value but the column it wants could not be mapped',
      )
    }
    if (target && target !== order) {
      const unique = target.distinctCount >= table.rowCount * 0.9
      if (!isNumeric(target) && !unique && !perRow && !avg) {
        return intent(
          { kind: 'group', group: target, fn: 'sum', measure: order, direction, limit, returnMetric: false },
          resultOf(target, wantsList),
        )
      }
      if (avg && (!isNumeric(target) || target.distinctCount <= Math.max(12, table.rowCount / 20))) {
        return intent(
          { kind: 'group', group: target, fn: 'avg', measure: order, direction, limit, returnMetric: false },
          resultOf(target, wantsList),
        )
      }
      return intent(
        { kind: 'rows', target, order, direction, limit, distinct: false, offset },
        resultOf(target, wantsList),
      )
    }
    if (avg && !wantsList) return intent({ kind: 'scalar', fn: 'avg', column: order }, 'number')
    if (wantsList || cues.limit !== null || offset > 0) {
      return intent(
        { kind: 'rows', target: order, order, direction, limit, distinct: cues.distinct, offset },
        resultOf(order, wantsList),
      )
    }
    return intent({ kind: 'scalar', fn: direction === 'desc' ? 'max' : 'min', column: order }, resultOf(order, false))
  }

  // ---- plain aggregates
  if (simpleAggregate) {
    const after = subjects.find((m) => m.start > simpleAggregate.index && numericOf(m))
    const any = subjects.find((m) => numericOf(m))
    const column = (after ? numericOf(after) : null) ?? (any ? numericOf(any) : null)
    if (!column)
      return decline(`the question asks for an aggregate (${simpleAggregate.fn}) but names no numeric column`)
    const asksWhich =
      WHICH_ONE_OPENERS.has(tokens[0]?.text ?? '') ||
      (FRENCH_WHICH_OPENERS.has(tokens[0]?.text ?? '') && !FRENCH_WHICH_VERBS.has(tokens[1]?.text ?? ''))
    if (asksWhich && !byMention) {
      return decline('the question asks which one, but the thing it asks about could not be matched to a column')
    }
    if (byMention && byMention.column !== column) {
      return intent(
        {
          kind: 'group',
          group: byMention.column,
          fn: simpleAggregate.fn,
          measure: column,
          direction: 'desc',
          limit: cues.limit ?? 1000,
          returnMetric: true,
        },
        'list[number]',
      )
    }
    return intent({ kind: 'scalar', fn: simpleAggregate.fn, column }, 'number')
  }

  // ---- lists and lookups
  const target = (who ? entityColumn(table) : null) ?? firstSubject?.column ?? null
  if (!target) return decline('no column of the table could be matched to the question')
  if (cues.distinct && (cues.list || whichIndex >= 0)) {
    return intent({ kind: 'distinct', column: target, limit: cues.limit }, resultOf(target, true))
  }
  if (cues.position) {
    return intent(
      { kind: 'rows', target, order: null, direction: cues.position, limit, distinct: false },
      resultOf(target, wantsList),
    )
  }
  if (cues.list || (whichIndex >= 0 && tokens.some((t) => PLURAL_VERBS.has(t.text)))) {
    if (filters.length === 0 && !cues.distinct) {
      return intent({ kind: 'distinct', column: target }, resultOf(target, true))
    }
    return intent(
      { kind: 'rows', target, order: null, direction: 'asc', limit: cues.limit, distinct: false },
      resultOf(target, true),
    )
  }
  if (filters.length > 0 && (whichIndex >= 0 || who)) {
    return intent(
      { kind: 'rows', target, order: null, direction: 'asc', limit: 1, distinct: false },
      resultOf(target, false),
    )
  }
  return decline(
    'the question does not match a supported shape (count, sum, average, median, minimum/maximum, most frequent, top N, list, yes/no)',
  )
}

/**
 * Two tables joined on the column they share (same header, case-insensitive), many-to-one: the
 * table whose copy of that column is unique is looked up from the other. The result reads as one
 * table (a subquery) whose rows, and row numbers, are those of the many side.
 */
export function joinTables(a: TableSchema, b: TableSchema): TableSchema | null {
  for (const [many, one] of [
    [a, b],
    [b, a],
  ] as const) {
    for (const key of many.columns) {
      const other = one.columns.find((column) => fold(column.name) === fold(key.name))
      if (!other || other.distinctCount < one.rowCount - other.nullCount || one.rowCount === 0) continue
      const taken = new Set(many.columns.map((column) => fold(column.name)))
      const extra = one.columns.filter((column) => !taken.has(fold(column.name)))
      const select = extra.map((column) => `o.${quoteIdentifier(column.name)}`).join(', ')
      const sqlName = `(SELECT m.*${select ? `, ${select}` : ''} FROM ${many.sqlName} AS m LEFT JOIN ${one.sqlName} AS o ON m.${quoteIdentifier(key.name)} = o.${quoteIdentifier(other.name)}) AS joined`
      return {
        sqlName,
        documentId: many.documentId,
        filename: `${many.filename} + ${one.filename} (${key.name})`,
        sheet: null,
        rowCount: many.rowCount,
        columns: [...many.columns, ...extra],
      }
    }
  }
  return null
}
