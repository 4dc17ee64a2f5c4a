import { quoteIdentifier, ROW_COLUMN, type TableSchema } from '../types.js'
import type { Filter, StatisticItem, StatisticsMethod } from './intent.js'
import { IQR_OUTLIER_FACTOR } from './lexicon/statistics.js'
import { col, sqlNumber, whereClause } from './sql-conditions.js'

/**
 * SQL for a statistics shape: one row, one column per value asked for, each a scalar subquery
 * over the filtered rows computed with DuckDB's own functions (docs/data-analysis.md,
 * "Statistics"), rounded as asked.
 */

/** Values that are counts are never rounded. */
const COUNTS = new Set(['missing', 'outliers'])

/** One value's expression: a scalar subquery over `from` and the filters. */
function itemSql(
  item: StatisticItem,
  method: StatisticsMethod,
  table: TableSchema,
  filters: readonly Filter[],
): string {
  const [first, second] = item.columns
  if (!first) throw new Error(`no column for ${item.stat}`)
  const c = col(first)
  const from = table.sqlName
  const over = (expression: string, extra: readonly string[] = []) =>
    `(SELECT ${expression} FROM ${from}${whereClause(filters, extra)})`
  const present = [`${c} IS NOT NULL`]
  const pair = (): [string, string] => {
    if (!second) throw new Error(`${item.stat} needs two columns`)
    return [c, col(second)]
  }
  switch (item.stat) {
    case 'mean':
      return over(`avg(${c})`)
    case 'median':
      return over(`median(${c})`)
    case 'mode':
      // The most frequent value; among equally frequent ones the smallest, as pandas' mode()[0].
      return `(SELECT ${c} FROM ${from}${whereClause(filters, present)} GROUP BY ${c} ORDER BY count(*) DESC, ${c} LIMIT 1)`
    case 'std':
      return over(`${method.population ? 'stddev_pop' : 'stddev_samp'}(${c})`)
    case 'variance':
      return over(`${method.population ? 'var_pop' : 'var_samp'}(${c})`)
    case 'skewness':
      return method.biasedMoments ? centralMoments(c, from, filters, 3) : over(`skewness(${c})`)
    case 'kurtosis':
      return method.biasedMoments ? centralMoments(c, from, filters, 4) : over(`kurtosis(${c})`)
    case 'percentile':
      return over(`quantile_cont(${c}, ${sqlNumber((item.percentile ?? Number.NaN) / 100)})`)
    case 'iqr':
      return over(`quantile_cont(${c}, 0.75) - quantile_cont(${c}, 0.25)`)
    case 'missing':
      // Over several columns (the whole table), the empty cells of them all.
      return over(item.columns.map((column) => `(count(*) - count(${col(column)}))`).join(' + '))
    case 'correlation': {
      const [y, x] = pair()
      if (method.correlation === 'pearson') return over(`corr(${y}, ${x})`)
      // Spearman: Pearson's correlation of the ranks, tied values sharing their mean rank.
      const rank = (v: string) => `rank() OVER (ORDER BY ${v}) + (count(*) OVER (PARTITION BY ${v}) - 1) / 2.0`
      return `(SELECT corr(__ry, __rx) FROM (SELECT ${rank(y)} AS __ry, ${rank(x)} AS __rx FROM ${from}${whereClause(filters, [`${y} IS NOT NULL`, `${x} IS NOT NULL`])}))`
    }
    case 'covariance': {
      const [y, x] = pair()
      return over(`${method.population ? 'covar_pop' : 'covar_samp'}(${y}, ${x})`)
    }
    case 'slope':
      return over(`regr_slope(${pair().join(', ')})`)
    case 'intercept':
      return over(`regr_intercept(${pair().join(', ')})`)
    case 'r2':
      return over(`regr_r2(${pair().join(', ')})`)
    case 'outliers':
      return outliersSql(c, method, from, filters)
    case 'min':
      return over(`min(${c})`)
    case 'max':
      return over(`max(${c})`)
    case 'sum':
      return over(`sum(${c})`)
    case 'range':
      return over(`max(${c}) - min(${c})`)
  }
}

/** Skewness (3) or excess kurtosis (4) from the biased central moments, as SciPy computes them by default. */
function centralMoments(c: string, from: string, filters: readonly Filter[], order: 3 | 4): string {
  const moments = `(SELECT avg(${c}) AS __m FROM ${from}${whereClause(filters)}) AS __mean`
  const ratio =
    order === 3
      ? `avg(power(${c} - __m, 3)) / power(avg(power(${c} - __m, 2)), 1.5)`
      : `avg(power(${c} - __m, 4)) / power(avg(power(${c} - __m, 2)), 2) - 3`
  return `(SELECT ${ratio} FROM ${from}, ${moments}${whereClause(filters, [`${c} IS NOT NULL`])})`
}

/** How many rows are outliers: beyond 1.5 IQR from the quartiles, or beyond a z-score (population standard deviation, as SciPy's zscore). */
function outliersSql(c: string, method: StatisticsMethod, from: string, filters: readonly Filter[]): string {
  const outliers = method.outliers
  if (!outliers) throw new Error('no outlier method')
  if (outliers.kind === 'iqr') {
    const bounds = `(SELECT quantile_cont(${c}, 0.25) AS __q1, quantile_cont(${c}, 0.75) AS __q3 FROM ${from}${whereClause(filters)}) AS __bounds`
    const k = sqlNumber(IQR_OUTLIER_FACTOR)
    return `(SELECT count(*) FROM ${from}, ${bounds}${whereClause(filters, [`(${c} < __q1 - ${k} * (__q3 - __q1) OR ${c} > __q3 + ${k} * (__q3 - __q1))`])})`
  }
  const spread = `(SELECT avg(${c}) AS __m, stddev_pop(${c}) AS __s FROM ${from}${whereClause(filters)}) AS __spread`
  return `(SELECT count(*) FROM ${from}, ${spread}${whereClause(filters, [`abs(${c} - __m) > ${sqlNumber(outliers.threshold)} * __s`])})`
}

/** The statistics' SELECT: every value under its slot's name, rounded as asked (counts and modes of text kept). */
export function statisticsSql(
  table: TableSchema,
  filters: readonly Filter[],
  items: readonly StatisticItem[],
  method: StatisticsMethod,
): string {
  const columns = items.map((item) => {
    const expression = itemSql(item, method, table, filters)
    const numeric = item.stat !== 'mode' || item.columns[0]?.type !== 'text'
    const rounded =
      method.decimals !== null && numeric && !COUNTS.has(item.stat)
        ? `round(${expression}, ${sqlNumber(method.decimals)})`
        : expression
    return `${rounded} AS ${quoteIdentifier(item.slot)}`
  })
  return `SELECT ${columns.join(', ')}`
}

/** The rows the statistics are computed from: those where every column they use is filled (for missing values, those lacking one). */
export function statisticsEvidenceSql(
  table: TableSchema,
  filters: readonly Filter[],
  items: readonly StatisticItem[],
): string {
  const used = [...new Set(items.flatMap((item) => item.columns))]
  if (items.every((item) => item.stat === 'missing')) {
    // Missing values are cited by the rows that lack them.
    const lacking = `(${used.map((column) => `${col(column)} IS NULL`).join(' OR ')})`
    return `SELECT ${ROW_COLUMN} FROM ${table.sqlName}${whereClause(filters, [lacking])} ORDER BY ${ROW_COLUMN} LIMIT 20`
  }
  return `SELECT ${ROW_COLUMN} FROM ${table.sqlName}${whereClause(
    filters,
    used.map((column) => `${col(column)} IS NOT NULL`),
  )} ORDER BY ${ROW_COLUMN} LIMIT 20`
}
