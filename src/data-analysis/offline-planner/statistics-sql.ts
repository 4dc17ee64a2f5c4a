import {
  type ColumnSchema,
  type DerivedTest,
  quoteIdentifier,
  ROW_COLUMN,
  type TableSchema,
  TEST_INPUTS,
  type TestOutput,
} from '../types.js'
import type { OutlierMethod } from './cues/types.js'
import type { Filter, StatisticItem, StatisticsMethod } from './intent.js'
import { IQR_OUTLIER_FACTOR, TEST_STATISTICS } from './lexicon/statistics.js'
import { col, sqlNumber, sqlString, whereClause } from './sql-conditions.js'

/**
 * SQL for a statistics shape: one row, one column per value asked for, each a scalar subquery
 * over the filtered rows computed with DuckDB's own functions (docs/data-analysis.md,
 * "Statistics"), rounded as asked; per group, one row per group of plain aggregates.
 */

/** Values that are counts are never rounded (a test's are rounded once computed). */
const COUNTS = new Set(['missing', 'outliers'])

/**
 * A value as one aggregate over a set of rows, when it is one (so that it also works per group),
 * else null: a mode, an outlier count, Spearman's correlation and SciPy's moments need a query of
 * their own.
 */
export function aggregateOf(item: StatisticItem, method: StatisticsMethod): string | null {
  const [first, second] = item.columns
  if (!first) throw new Error(`no column for ${item.stat}`)
  const c = col(first)
  const pair = (): string => {
    if (!second) throw new Error(`${item.stat} needs two columns`)
    return `${c}, ${col(second)}`
  }
  switch (item.stat) {
    case 'mean':
      return `avg(${c})`
    case 'median':
      return `median(${c})`
    case 'std':
      return `${method.population ? 'stddev_pop' : 'stddev_samp'}(${c})`
    case 'variance':
      return `${method.population ? 'var_pop' : 'var_samp'}(${c})`
    case 'skewness':
      return method.biasedMoments ? null : `skewness(${c})`
    case 'kurtosis':
      return method.biasedMoments ? null : `kurtosis(${c})`
    case 'percentile':
      return `quantile_cont(${c}, ${sqlNumber((item.percentile ?? Number.NaN) / 100)})`
    case 'iqr':
      return `quantile_cont(${c}, 0.75) - quantile_cont(${c}, 0.25)`
    case 'missing':
      // Over several columns (the whole table), the empty cells of them all.
      return item.columns.map((column) => `(count(*) - count(${col(column)}))`).join(' + ')
    case 'correlation':
      return method.correlation === 'pearson' ? `corr(${pair()})` : null
    case 'covariance':
      return `${method.population ? 'covar_pop' : 'covar_samp'}(${pair()})`
    case 'slope':
      return `regr_slope(${pair()})`
    case 'intercept':
      return `regr_intercept(${pair()})`
    case 'r2':
      return `regr_r2(${pair()})`
    case 'min':
      return `min(${c})`
    case 'max':
      return `max(${c})`
    case 'sum':
      return `sum(${c})`
    case 'range':
      return `max(${c}) - min(${c})`
    case 'growth': {
      // From the earliest to the latest row in the order of the time column, in percent.
      if (!second) throw new Error('a growth needs its time column')
      const known = `FILTER (WHERE ${c} IS NOT NULL)`
      const [last, first] = [`arg_max(${c}, ${col(second)}) ${known}`, `arg_min(${c}, ${col(second)}) ${known}`]
      return `100.0 * (${last} - ${first}) / nullif(${first}, 0)`
    }
    case 'mode':
    case 'outliers':
    case 'pvalue':
    case 'test_statistic':
    case 'verdict':
      return null
  }
}

/** One value's expression over the filtered rows: its aggregate in a scalar subquery, or a query of its own. */
function itemSql(
  item: StatisticItem,
  method: StatisticsMethod,
  table: TableSchema,
  filters: readonly Filter[],
): string {
  const from = table.sqlName
  const aggregate = aggregateOf(item, method)
  if (aggregate !== null) return `(SELECT ${aggregate} FROM ${from}${whereClause(filters)})`
  const [first, second] = item.columns
  if (!first) throw new Error(`no column for ${item.stat}`)
  const c = col(first)
  switch (item.stat) {
    case 'mode':
      // The most frequent value; among equally frequent ones the smallest, as pandas' mode()[0].
      return `(SELECT ${c} FROM ${from}${whereClause(filters, [`${c} IS NOT NULL`])} GROUP BY ${c} ORDER BY count(*) DESC, ${c} LIMIT 1)`
    case 'skewness':
      return centralMoments(c, from, filters, 3)
    case 'kurtosis':
      return centralMoments(c, from, filters, 4)
    case 'correlation': {
      if (!second) throw new Error('a correlation needs two columns')
      const [y, x] = [c, col(second)]
      // Spearman: Pearson's correlation of the ranks, tied values sharing their mean rank.
      const rank = (v: string) => `rank() OVER (ORDER BY ${v}) + (count(*) OVER (PARTITION BY ${v}) - 1) / 2.0`
      return `(SELECT corr(__ry, __rx) FROM (SELECT ${rank(y)} AS __ry, ${rank(x)} AS __rx FROM ${from}${whereClause(filters, [`${y} IS NOT NULL`, `${x} IS NOT NULL`])}))`
    }
    case 'outliers':
      return outliersSql(c, method, from, filters)
    case 'pvalue':
    case 'test_statistic':
      // Filled in after the query (testInputsSql).
      return 'CAST(NULL AS DOUBLE)'
    case 'verdict':
      return 'CAST(NULL AS VARCHAR)'
    default:
      throw new Error(`no query for ${item.stat}`)
  }
}

/**
 * The rows whose `column` is filled and no outlier, among those the filters keep, as a FROM item:
 * within 1.5 IQR of the quartiles, or a z-score (population standard deviation, as SciPy's zscore)
 * at most the threshold. The filters hold inside, so they may be applied again outside.
 */
function keptRowsSql(
  table: TableSchema,
  filters: readonly Filter[],
  removal: { readonly column: ColumnSchema; readonly rule: OutlierMethod },
): string {
  const c = col(removal.column)
  const from = table.sqlName
  if (removal.rule.kind === 'iqr') {
    const k = sqlNumber(IQR_OUTLIER_FACTOR)
    const bounds = `(SELECT quantile_cont(${c}, 0.25) AS __q1, quantile_cont(${c}, 0.75) AS __q3 FROM ${from}${whereClause(filters)}) AS __bounds`
    return `(SELECT ${from}.* FROM ${from}, ${bounds}${whereClause(filters, [`${c} BETWEEN __q1 - ${k} * (__q3 - __q1) AND __q3 + ${k} * (__q3 - __q1)`])}) AS __kept`
  }
  const spread = `(SELECT avg(${c}) AS __m, stddev_pop(${c}) AS __s FROM ${from}${whereClause(filters)}) AS __spread`
  return `(SELECT ${from}.* FROM ${from}, ${spread}${whereClause(filters, [`abs(${c} - __m) <= ${sqlNumber(removal.rule.threshold)} * __s`])}) AS __kept`
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

/** Groups listed at most by a statistics-per-group answer. */
const MAX_GROUPS = 1000

/**
 * The statistics' SELECT: every value under its slot's name, rounded as asked (counts and modes
 * of text kept); with a group column, one row per value of it, in its order.
 */
export function statisticsSql(
  source: TableSchema,
  filters: readonly Filter[],
  items: readonly StatisticItem[],
  method: StatisticsMethod,
  group: ColumnSchema | null,
): string {
  let table = source
  const rounded = (item: StatisticItem, expression: string) => {
    const numeric = item.stat !== 'mode' || item.columns[0]?.type !== 'text'
    return method.decimals !== null && numeric && !COUNTS.has(item.stat)
      ? `round(${expression}, ${sqlNumber(method.decimals)})`
      : expression
  }
  if (group) {
    const g = col(group)
    const values = items.map((item) => {
      const aggregate = aggregateOf(item, method)
      if (aggregate === null) throw new Error(`the ${item.stat} is not computed per group`)
      return `${rounded(item, aggregate)} AS ${quoteIdentifier(item.slot)}`
    })
    return `SELECT ${g} AS ${quoteIdentifier(group.name)}, ${values.join(', ')} FROM ${table.sqlName}${whereClause(filters, [`${g} IS NOT NULL`])} GROUP BY ${g} ORDER BY ${g} LIMIT ${MAX_GROUPS}`
  }
  // Outliers removed first: the same statistics over a table of the rows kept.
  if (method.withoutOutliers) table = { ...table, sqlName: keptRowsSql(table, filters, method.withoutOutliers) }
  const columns = items.map((item) =>
    TEST_STATISTICS.includes(item.stat)
      ? `${itemSql(item, method, table, filters)} AS ${quoteIdentifier(item.slot)}`
      : `${rounded(item, itemSql(item, method, table, filters))} AS ${quoteIdentifier(item.slot)}`,
  )
  const tested = items.find((item) => TEST_STATISTICS.includes(item.stat))
  if (tested && method.test) columns.push(...testInputsSql(tested.columns, method, table, filters))
  return `SELECT ${columns.join(', ')}`
}

/**
 * The inputs of a test, computed by DuckDB and named by TEST_INPUTS (derived-test.ts computes the
 * rest): a correlation's unrounded value and its number of complete pairs; a column's sorted
 * values (Shapiro-Wilk); its count and biased moments g₁ and b₂ (D'Agostino, as SciPy's).
 */
function testInputsSql(
  columns: readonly ColumnSchema[],
  method: StatisticsMethod,
  table: TableSchema,
  filters: readonly Filter[],
): string[] {
  const [first, second] = columns
  if (!first || !method.test) throw new Error('a test needs its column')
  const from = table.sqlName
  const c = col(first)
  const present = [first, second].flatMap((column) => (column ? [`${col(column)} IS NOT NULL`] : []))
  const n = `(SELECT count(*) FROM ${from}${whereClause(filters, present)}) AS ${TEST_INPUTS.n}`
  switch (method.test.kind) {
    case 'correlation': {
      const r = itemSql({ slot: TEST_INPUTS.r, stat: 'correlation', columns, percentile: null }, method, table, filters)
      return [n, `${r} AS ${TEST_INPUTS.r}`]
    }
    case 'shapiro':
    case 'kolmogorov':
      return [
        n,
        `(SELECT list(CAST(${c} AS DOUBLE) ORDER BY ${c}) FROM ${from}${whereClause(filters, present)}) AS ${TEST_INPUTS.values}`,
      ]
    case 'dagostino':
      return [
        n,
        `${centralMoments(c, from, filters, 3)} AS ${TEST_INPUTS.skewness}`,
        `${centralMoments(c, from, filters, 4)} + 3 AS ${TEST_INPUTS.kurtosis}`,
      ]
    case 'ttest':
    case 'welch':
    case 'anova': {
      // Per group of the second column (the values named, in their order, else every value in order): count, mean, sample variance.
      if (!second) throw new Error('a test between groups needs its group column')
      const g = col(second)
      const named = method.test.groups
      const kept = named ? [`${g} IN (${named.map(sqlString).join(', ')})`] : []
      const order = named ? `list_position([${named.map(sqlString).join(', ')}], CAST(__g AS VARCHAR))` : '__g'
      const summaries = `SELECT ${g} AS __g, count(${c}) AS __n, avg(${c}) AS __m, var_samp(${c}) AS __v FROM ${from}${whereClause(filters, [...present, ...kept])} GROUP BY ${g}`
      return [n, `(SELECT list([__n, __m, __v] ORDER BY ${order}) FROM (${summaries})) AS ${TEST_INPUTS.groups}`]
    }
    case 'chisquare': {
      if (!second) throw new Error('a chi-square test needs two columns')
      const cells = `SELECT CAST(${c} AS VARCHAR) AS __a, CAST(${col(second)} AS VARCHAR) AS __b, count(*) AS __n FROM ${from}${whereClause(filters, present)} GROUP BY ALL`
      return [n, `(SELECT list([__a, __b, CAST(__n AS VARCHAR)]) FROM (${cells})) AS ${TEST_INPUTS.cells}`]
    }
  }
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

/** The test a statistics shape's values need finished after the query, or undefined. */
export function derivedTestOf(items: readonly StatisticItem[], method: StatisticsMethod): DerivedTest | undefined {
  if (!method.test) return undefined
  const outputs: TestOutput[] = items.flatMap((item): TestOutput[] => {
    if (item.stat === 'pvalue') return [{ slot: item.slot, value: 'p' }]
    if (item.stat === 'test_statistic') return [{ slot: item.slot, value: 'statistic' }]
    if (item.stat === 'verdict' && item.verdict) return [{ slot: item.slot, value: 'verdict', ...item.verdict }]
    return []
  })
  if (outputs.length === 0) return undefined
  return { kind: method.test.kind, outputs, alpha: method.test.alpha, decimals: method.decimals }
}
