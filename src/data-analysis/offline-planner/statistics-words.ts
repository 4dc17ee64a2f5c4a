import { type ColumnSchema, nullIsAffirmative, type VerdictCase, type VerdictCondition } from '../types.js'
import type { StatisticItem, StatisticsMethod, StatisticsTest } from './intent.js'
import { type Statistic, TEST_STATISTICS } from './lexicon/statistics.js'

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
    pvalue: 'p-value',
    test_statistic: 'statistic',
    verdict: 'verdict',
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
    pvalue: 'p-valeur',
    test_statistic: 'statistique',
    verdict: 'verdict',
  },
}

const quoted = (column: ColumnSchema | undefined): string => (column ? `"${column.name}"` : '')

/** The test's name in words. */
const TEST_NAMES: Readonly<Record<Language, Readonly<Record<StatisticsTest['kind'], string>>>> = {
  en: {
    correlation: 'two-sided test of the correlation (Student t, n − 2 degrees of freedom)',
    shapiro: 'Shapiro-Wilk test',
    dagostino: 'D’Agostino-Pearson normality test (K²)',
    kolmogorov:
      'Kolmogorov-Smirnov normality test (its verdict only when the standard normal law and the normal law of the values’ mean and standard deviation give it clearly)',
    ttest: 'two-sample t-test (Student, equal variances)',
    welch: 'two-sample t-test (Welch, unequal variances)',
    anova: 'one-way ANOVA (F)',
    chisquare: 'chi-square test of independence (Yates’ correction for a 2×2 table)',
  },
  fr: {
    correlation: 'test bilatéral de la corrélation (t de Student, n − 2 degrés de liberté)',
    shapiro: 'test de Shapiro-Wilk',
    dagostino: 'test de normalité de D’Agostino-Pearson (K²)',
    kolmogorov:
      'test de normalité de Kolmogorov-Smirnov (son verdict seulement, quand la loi normale centrée réduite et celle de la moyenne et de l’écart type des valeurs le donnent nettement)',
    ttest: 'test t à deux échantillons (Student, variances égales)',
    welch: 'test t à deux échantillons (Welch, variances inégales)',
    anova: 'ANOVA à un facteur (F)',
    chisquare: 'test d’indépendance du khi-deux (correction de Yates pour un tableau 2×2)',
  },
}

/** A test's p-value, statistic or verdict in words, with the rule the verdict follows and the level used. */
function testWords(item: StatisticItem, test: StatisticsTest, lang: Language): string {
  const fr = lang === 'fr'
  const [measured, grouped] = item.columns
  const between = test.groups ? ` (${test.groups.map((value) => `"${value}"`).join(', ')})` : ''
  const columns =
    test.kind === 'ttest' || test.kind === 'welch' || test.kind === 'anova'
      ? `${quoted(measured)} ${fr ? 'entre les groupes de' : 'between the groups of'} ${quoted(grouped)}${between}`
      : item.columns.map(quoted).join(fr ? ' et ' : ' and ')
  const name = `${TEST_NAMES[lang][test.kind]}${fr ? ' de ' : ' of '}${columns}`
  if (item.stat === 'pvalue') return `${item.slot} = ${fr ? 'p-valeur du' : 'p-value of the'} ${name}`
  if (item.stat === 'test_statistic')
    return `${item.slot} = ${fr ? 'statistique du' : 'statistic of the'} ${name}${test.kind === 'shapiro' ? ' (W)' : ''}`
  const verdict = item.verdict
  if (!verdict) return `${item.slot} = verdict`
  if ('cases' in verdict) return `${item.slot} = ${casesWords(verdict.cases, name, lang)}`
  const level = `${test.alpha}${test.alphaSaid ? '' : fr ? ', seuil par défaut' : ', the default level'}`
  const below = nullIsAffirmative(test.kind) ? verdict.negative : verdict.affirmative
  const above = nullIsAffirmative(test.kind) ? verdict.affirmative : verdict.negative
  return fr
    ? `${item.slot} = "${below}" si la p-valeur du ${name} est inférieure à ${level}, sinon "${above}"`
    : `${item.slot} = "${below}" if the p-value of the ${name} is below ${level}, else "${above}"`
}

const QUANTITY_WORDS: Readonly<Record<Language, Record<VerdictCondition['quantity'], string>>> = {
  en: { p: 'p', r: 'r', abs_r: '|r|' },
  fr: { p: 'p', r: 'r', abs_r: '|r|' },
}

/** A ruled verdict in words: `"linear" if p < 0.05 and |r| ≥ 0.5 (p and r of the …); "none" otherwise`. */
function casesWords(cases: readonly VerdictCase[], name: string, lang: Language): string {
  const fr = lang === 'fr'
  const op = { '<': '<', '<=': '≤', '>': '>', '>=': '≥' } as const
  const rule = (c: VerdictCase) =>
    c.when.length === 0
      ? `"${c.answer}" ${fr ? 'sinon' : 'otherwise'}`
      : `"${c.answer}" ${fr ? 'si' : 'if'} ${c.when
          .map((condition) => `${QUANTITY_WORDS[lang][condition.quantity]} ${op[condition.op]} ${condition.value}`)
          .join(fr ? ' et ' : ' and ')}`
  return `${cases.map(rule).join('; ')} (${fr ? 'règles de la question, p et r du' : "the question's rules, p and r of the"} ${name})`
}

/** How one value is computed, with the method when it matters (sample or population, Spearman, the outlier rule). */
function itemWords(item: StatisticItem, method: StatisticsMethod, lang: Language): string {
  const fr = lang === 'fr'
  if (method.test && TEST_STATISTICS.includes(item.stat)) return testWords(item, method.test, lang)
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
  const afterwards = method.test
    ? fr
      ? ' ; le test est calculé après la requête, à partir des valeurs qu’elle renvoie'
      : '; the test is computed after the query, from the values it returns'
    : ''
  const removal = method.withoutOutliers
  const rule = !removal
    ? ''
    : removal.rule.kind === 'iqr'
      ? fr
        ? 'au-delà de 1,5 écart interquartile des quartiles'
        : 'beyond 1.5 IQR from the quartiles'
      : `|z| > ${removal.rule.threshold}${fr ? ', écart type de population' : ', population standard deviation'}`
  const without = removal
    ? fr
      ? `, sans les valeurs aberrantes de ${quoted(removal.column)} (${rule})`
      : `, without the outliers of ${quoted(removal.column)} (${rule})`
    : ''
  return `${items.map((item) => itemWords(item, method, lang)).join('; ')}${without}${rounding}${afterwards}`
}
