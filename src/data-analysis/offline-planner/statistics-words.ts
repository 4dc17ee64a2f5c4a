import type { ColumnSchema } from '../types.js'
import type { StatisticItem, StatisticsMethod } from './intent.js'
import type { Statistic } from './lexicon/statistics.js'

export type Language = 'en' | 'fr'

/** What each statistic is called in an explanation. */
const NAMES: Readonly<Record<Language, Readonly<Record<Statistic, string>>>> = {
  en: {
    mean: 'mean',
    median: 'median',
    mode: 'most frequent value',
    std: 'standard deviation',
    variance: 'variance',
    skewness: 'skewness',
    kurtosis: 'excess kurtosis',
    percentile: 'percentile',
    iqr: 'interquartile range',
    missing: 'number of missing values',
    correlation: 'correlation',
    covariance: 'covariance',
    outliers: 'number of outliers',
    slope: 'regression slope',
    intercept: 'regression intercept',
    r2: 'r²',
    min: 'minimum',
    max: 'maximum',
    sum: 'sum',
    range: 'range',
    growth: 'change in percent from the first to the last row',
  },
  fr: {
    mean: 'moyenne',
    median: 'médiane',
    mode: 'valeur la plus fréquente',
    std: 'écart type',
    variance: 'variance',
    skewness: 'asymétrie',
    kurtosis: "kurtosis (excès d'aplatissement)",
    percentile: 'centile',
    iqr: 'écart interquartile',
    missing: 'nombre de valeurs manquantes',
    correlation: 'corrélation',
    covariance: 'covariance',
    outliers: 'nombre de valeurs aberrantes',
    slope: 'pente de la régression',
    intercept: 'ordonnée à l’origine de la régression',
    r2: 'r²',
    min: 'minimum',
    max: 'maximum',
    sum: 'somme',
    range: 'étendue',
    growth: 'variation en pourcentage de la première à la dernière ligne',
  },
}

const quoted = (column: ColumnSchema | undefined): string => (column ? `"${column.name}"` : '')

/** How one value is computed, with the method when it matters (sample or population, Spearman, the outlier rule). */
function itemWords(item: StatisticItem, method: StatisticsMethod, lang: Language): string {
  const fr = lang === 'fr'
  const [first, second] = item.columns
  let name = NAMES[lang][item.stat]
  if (item.stat === 'percentile') name = fr ? `${item.percentile}e centile` : `${item.percentile}th percentile`
  if (item.stat === 'std' || item.stat === 'variance' || item.stat === 'covariance')
    name += method.population ? (fr ? ' (population)' : ' (population)') : fr ? ' (échantillon)' : ' (sample)'
  if (item.stat === 'correlation') name += method.correlation === 'spearman' ? ' (Spearman)' : ' (Pearson)'
  if ((item.stat === 'skewness' || item.stat === 'kurtosis') && method.biasedMoments)
    name += fr ? ' (moments biaisés, comme SciPy)' : ' (biased moments, as SciPy)'
  if (item.stat === 'outliers' && method.outliers)
    name +=
      method.outliers.kind === 'iqr'
        ? fr
          ? ' (au-delà de 1,5 écart interquartile des quartiles)'
          : ' (beyond 1.5 IQR from the quartiles)'
        : fr
          ? ` (|z| > ${method.outliers.threshold})`
          : ` (|z| > ${method.outliers.threshold})`
  const regression = item.stat === 'slope' || item.stat === 'intercept' || item.stat === 'r2'
  const joiner = regression
    ? fr
      ? ' selon '
      : ' on '
    : item.stat === 'growth'
      ? fr
        ? ' dans l’ordre de '
        : ' in the order of '
      : fr
        ? ' et '
        : ' and '
  const columns =
    item.columns.length > 2 || (item.stat === 'missing' && second)
      ? fr
        ? 'toutes les colonnes'
        : 'every column'
      : second
        ? `${quoted(first)}${joiner}${quoted(second)}`
        : quoted(first)
  const of = fr ? ' de ' : ' of '
  return `${item.slot} = ${name}${of}${columns}`
}

/** The values of a statistics question in plain words, with the rounding asked for. */
export function statisticsWords(items: readonly StatisticItem[], method: StatisticsMethod, lang: Language): string {
  const fr = lang === 'fr'
  const rounding =
    method.decimals === null
      ? ''
      : fr
        ? `, arrondis à ${method.decimals} décimales`
        : `, rounded to ${method.decimals} decimals`
  return `${items.map((item) => itemWords(item, method, lang)).join('; ')}${rounding}`
}
