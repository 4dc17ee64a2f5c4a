import type { ColumnSchema, QueryPlan, TableSchema } from '../types.js'
import { ROW_COLUMN } from '../types.js'
import type { Check, Filter, Intent, ScalarFunction, Shape, StatisticsMethod } from './intent.js'
import type { Statistic } from './lexicon/statistics.js'
import { col, condition, itemsOf, sqlNumber, whereClause } from './sql-conditions.js'
import { aggregateOf, derivedTestOf, statisticsEvidenceSql, statisticsSql } from './statistics-sql.js'
import { isListColumn } from './values.js'

/**
 * SQL for an intent: one read-only SELECT over the table's sqlName, its conditions from
 * sql-conditions.ts.
 */

/** The scalar functions that are statistics too: computed by the statistics' own aggregates. */
const AS_STATISTIC: Readonly<Partial<Record<ScalarFunction, Statistic>>> = {
  avg: 'mean',
  sum: 'sum',
  median: 'median',
  min: 'min',
  max: 'max',
  std: 'std',
  range: 'range',
}

/** A scalar function's default method: the sample standard deviation, as pandas gives. */
const SAMPLE: StatisticsMethod = {
  population: false,
  biasedMoments: false,
  correlation: 'pearson',
  outliers: null,
  decimals: null,
}

function aggregate(fn: ScalarFunction, column: ColumnSchema | null): string {
  if (!column) return 'count(*)'
  const stat = AS_STATISTIC[fn]
  if (stat) {
    const sql = aggregateOf({ slot: fn, stat, columns: [column], percentile: null }, SAMPLE)
    if (sql === null) throw new Error(`no aggregate for ${fn}`)
    return sql
  }
  const c = col(column)
  switch (fn) {
    case 'count':
      return 'count(*)'
    case 'count_values':
      return `count(${c})`
    case 'count_distinct':
      return `count(DISTINCT ${c})`
    default:
      throw new Error(`no aggregate for ${fn}`)
  }
}

function shapeSql(table: TableSchema, filters: readonly Filter[], shape: Shape): string {
  const from = ` FROM ${table.sqlName}`
  switch (shape.kind) {
    case 'statistics':
      return statisticsSql(table, filters, shape.items, shape.method, shape.group)
    case 'frequencies': {
      const c = col(shape.column)
      return `SELECT ${c} AS value, count(*) AS count${from}${whereClause(filters, [`${c} IS NOT NULL`])} GROUP BY ${c} ORDER BY count(*) DESC, ${c} LIMIT ${shape.limit}`
    }
    case 'scalar':
      return `SELECT ${aggregate(shape.fn, shape.column)} AS value${from}${whereClause(filters)}`
    case 'mode': {
      const order = shape.direction === 'desc' ? 'DESC' : 'ASC'
      if (isListColumn(shape.column)) {
        return `SELECT item AS value FROM (SELECT trim(unnest(${itemsOf(shape.column)})) AS item, ${ROW_COLUMN}${from}${whereClause(filters)}) WHERE item <> '' GROUP BY item ORDER BY count(*) ${order}, min(${ROW_COLUMN}) LIMIT ${shape.limit}`
      }
      const c = col(shape.column)
      return `SELECT ${c} AS value${from}${whereClause(filters, [`${c} IS NOT NULL`])} GROUP BY ${c} ORDER BY count(*) ${order}, min(${ROW_COLUMN}) LIMIT ${shape.limit}`
    }
    case 'group': {
      const g = col(shape.group)
      const metric = aggregate(shape.fn, shape.measure)
      const order = shape.direction === 'desc' ? 'DESC NULLS LAST' : 'ASC NULLS LAST'
      const select = shape.returnMetric ? metric : g
      if (isListColumn(shape.group) && shape.fn === 'count') {
        // list-like cells: every item counts once
        return `SELECT ${shape.returnMetric ? 'count(*)' : 'item'} AS value FROM (SELECT trim(unnest(${itemsOf(shape.group)})) AS item, ${ROW_COLUMN}${from}${whereClause(filters)}) WHERE item <> '' GROUP BY item ORDER BY count(*) ${shape.direction === 'desc' ? 'DESC' : 'ASC'}, min(${ROW_COLUMN}) LIMIT ${shape.limit}`
      }
      return `SELECT ${select} AS value${from}${whereClause(filters, [`${g} IS NOT NULL`])} GROUP BY ${g} ORDER BY ${metric} ${order}, min(${ROW_COLUMN}) LIMIT ${shape.limit}`
    }
    case 'rows': {
      const t = col(shape.target)
      const extra = [`${t} IS NOT NULL`]
      if (shape.order) extra.push(`${col(shape.order)} IS NOT NULL`)
      const orderBy = shape.order
        ? `${col(shape.order)} ${shape.direction === 'desc' ? 'DESC' : 'ASC'}, ${ROW_COLUMN}`
        : `${ROW_COLUMN} ${shape.direction === 'desc' ? 'DESC' : 'ASC'}`
      const limit =
        (shape.limit === null ? '' : ` LIMIT ${shape.limit}`) + (shape.offset ? ` OFFSET ${shape.offset}` : '')
      if (shape.distinct) {
        const groupOrder = shape.order
          ? `${shape.direction === 'desc' ? 'max' : 'min'}(${col(shape.order)}) ${shape.direction === 'desc' ? 'DESC' : 'ASC'}`
          : `min(${ROW_COLUMN})`
        return `SELECT ${t} AS value${from}${whereClause(filters, extra)} GROUP BY ${t} ORDER BY ${groupOrder}${limit}`
      }
      if (!shape.order && shape.direction === 'desc') {
        return `SELECT value FROM (SELECT ${t} AS value, ${ROW_COLUMN}${from}${whereClause(filters, extra)} ORDER BY ${orderBy}${limit}) ORDER BY ${ROW_COLUMN}`
      }
      return `SELECT ${t} AS value${from}${whereClause(filters, extra)} ORDER BY ${orderBy}${limit}`
    }
    case 'distinct': {
      const c = col(shape.column)
      const limit = shape.limit ? ` LIMIT ${shape.limit}` : ''
      return `SELECT ${c} AS value${from}${whereClause(filters, [`${c} IS NOT NULL`])} GROUP BY ${c} ORDER BY min(${ROW_COLUMN})${limit}`
    }
    case 'share': {
      const cond = shape.condition.length === 0 ? 'true' : shape.condition.map(condition).join(' AND ')
      return `SELECT round(100.0 * count(*) FILTER (WHERE ${cond}) / nullif(count(*), 0), 2) AS value${from}${whereClause(filters)}`
    }
    case 'groupsByRows': {
      const g = col(shape.group)
      const groups = `SELECT ${g} AS value${from}${whereClause(filters, [`${g} IS NOT NULL`])} GROUP BY ${g} HAVING count(*) ${shape.op} ${sqlNumber(shape.value)}`
      return shape.counted ? `SELECT count(*) AS value FROM (${groups})` : `${groups} ORDER BY min(${ROW_COLUMN})`
    }
    case 'closest': {
      const o = col(shape.order)
      return `SELECT ${col(shape.target)} AS value${from}${whereClause(filters, [`${o} IS NOT NULL`])} ORDER BY abs(${o} - ${sqlNumber(shape.value)}), ${ROW_COLUMN} LIMIT 1`
    }
  }
}

function checkSql(intent: Intent, check: Check): string {
  const { table, filters, shape } = intent
  const from = ` FROM ${table.sqlName}`
  switch (check.kind) {
    case 'exists':
      return `SELECT ${check.negated ? 'NOT ' : ''}EXISTS (SELECT 1${from}${whereClause(filters)}) AS value`
    case 'compare':
      return `SELECT (${shapeSql(table, filters, shape)}) ${check.op} ${sqlNumber(check.value)} AS value`
    case 'all':
      return `SELECT count(*) > 0 AND count(*) = count(*) FILTER (WHERE ${check.condition.length === 0 ? 'true' : check.condition.map(condition).join(' AND ')}) AS value${from}${whereClause(filters)}`
    case 'unique': {
      if (!check.column) return `SELECT true AS value`
      const c = col(check.column)
      return `SELECT count(DISTINCT ${c}) = count(${c}) AS value${from}${whereClause(filters)}`
    }
    case 'more':
      return `SELECT (SELECT count(*)${from}${whereClause(filters)}) ${check.op} (SELECT count(*)${from}${whereClause(check.other)}) AS value`
    case 'top': {
      // the first row in file order among equal values, as pandas' idxmax/idxmin
      const o = col(check.order)
      const met = check.condition.map(condition).join(' AND ')
      return `SELECT coalesce((SELECT ${met}${from}${whereClause(filters, [`${o} IS NOT NULL`])} ORDER BY ${o} ${check.direction === 'desc' ? 'DESC' : 'ASC'}, ${ROW_COLUMN} LIMIT 1), false) AS value`
    }
  }
}

function evidenceSql(intent: Intent): string {
  const { table, filters, shape, check } = intent
  const from = ` FROM ${table.sqlName}`
  const rows = (extra: readonly string[] = [], order = ROW_COLUMN) =>
    `SELECT ${ROW_COLUMN}${from}${whereClause(filters, extra)} ORDER BY ${order} LIMIT 20`
  if (check?.kind === 'top') {
    const o = col(check.order)
    return `SELECT ${ROW_COLUMN}${from}${whereClause(filters, [`${o} IS NOT NULL`])} ORDER BY ${o} ${check.direction === 'desc' ? 'DESC' : 'ASC'}, ${ROW_COLUMN} LIMIT 1`
  }
  if (check?.kind === 'all') {
    const failing =
      check.condition.length === 0 ? 'false' : `NOT coalesce(${check.condition.map(condition).join(' AND ')}, false)`
    return `SELECT ${ROW_COLUMN}${from}${whereClause(filters)} ORDER BY (${failing}) DESC, ${ROW_COLUMN} LIMIT 20`
  }
  switch (shape.kind) {
    case 'statistics':
      return statisticsEvidenceSql(table, filters, shape.items)
    case 'frequencies':
      return rows([`${col(shape.column)} IS NOT NULL`])
    case 'scalar':
      if ((shape.fn === 'max' || shape.fn === 'min') && shape.column) {
        const c = col(shape.column)
        return rows([`${c} IS NOT NULL`], `${c} ${shape.fn === 'max' ? 'DESC' : 'ASC'}, ${ROW_COLUMN}`)
      }
      return shape.column ? rows([`${col(shape.column)} IS NOT NULL`]) : rows()
    case 'rows': {
      const extra = [`${col(shape.target)} IS NOT NULL`]
      if (shape.order) extra.push(`${col(shape.order)} IS NOT NULL`)
      const order = shape.order
        ? `${col(shape.order)} ${shape.direction === 'desc' ? 'DESC' : 'ASC'}, ${ROW_COLUMN}`
        : `${ROW_COLUMN} ${shape.direction === 'desc' ? 'DESC' : 'ASC'}`
      return rows(extra, order)
    }
    case 'share':
      return rows(shape.condition.map(condition))
    case 'closest': {
      const o = col(shape.order)
      return rows([`${o} IS NOT NULL`], `abs(${o} - ${sqlNumber(shape.value)}), ${ROW_COLUMN}`)
    }
    case 'groupsByRows':
      // the rows of the groups that qualify
      return `SELECT ${ROW_COLUMN}${from}${whereClause(filters, [`${col(shape.group)} IN (${shapeSql(table, filters, { ...shape, counted: false })})`])} ORDER BY ${ROW_COLUMN} LIMIT 20`
    case 'mode':
    case 'group':
    case 'distinct': {
      const c = col(shape.kind === 'group' ? shape.group : shape.column)
      if (shape.kind === 'distinct') return rows([`${c} IS NOT NULL`])
      if (shape.kind === 'mode' && isListColumn(shape.column)) return rows()
      return `SELECT ${ROW_COLUMN}${from}${whereClause(filters, [`${c} IN (${shapeSql(table, filters, { ...shape, limit: 1, ...(shape.kind === 'group' ? { returnMetric: false } : {}) } as Shape)})`])} ORDER BY ${ROW_COLUMN} LIMIT 20`
    }
  }
}

/**
 * The FROM of two tables joined many-to-one: every row of `many`, with the other columns of the
 * `one` row whose `oneKey` equals its `manyKey`.
 */
export function joinedTableSql(
  many: TableSchema,
  one: TableSchema,
  manyKey: ColumnSchema,
  oneKey: ColumnSchema,
  lookedUp: readonly ColumnSchema[],
): string {
  const select = lookedUp.map((column) => `o.${col(column)}`).join(', ')
  return `(SELECT m.*${select ? `, ${select}` : ''} FROM ${many.sqlName} AS m LEFT JOIN ${one.sqlName} AS o ON m.${col(manyKey)} = o.${col(oneKey)}) AS joined`
}

/**
 * The evidence rows of a joined table are those of its many side (see joinedTableSql); of a table
 * read with a column the question defined (derived-column.ts), with its missing values filled
 * (filled-columns.ts) or a column converted to numbers (converted-columns.ts), those of the table itself.
 */
function evidenceTableOf(sqlName: string): string {
  const inner =
    /^\(SELECT m\.\*.* FROM (.+?) AS m LEFT JOIN /.exec(sqlName)?.[1] ??
    /^\(SELECT \*(?:, | REPLACE ).* FROM ([^()\s]+|\(SELECT .*\))\)$/.exec(sqlName)?.[1]
  return inner ? evidenceTableOf(inner) : sqlName
}

export function buildPlan(intent: Intent, explanation: string): QueryPlan {
  const sql = intent.check ? checkSql(intent, intent.check) : shapeSql(intent.table, intent.filters, intent.shape)
  const test =
    intent.shape.kind === 'statistics' && !intent.check
      ? derivedTestOf(intent.shape.items, intent.shape.method)
      : undefined
  return {
    sql,
    resultType: intent.resultType,
    explanation,
    evidenceSql: evidenceSql(intent),
    evidenceTable: evidenceTableOf(intent.table.sqlName),
    ...(test ? { test } : {}),
  }
}
