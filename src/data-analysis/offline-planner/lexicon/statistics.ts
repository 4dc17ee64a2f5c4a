import type { TestKind } from '../../types.js'
/**
 * The statistics the planner computes beyond plain aggregates, by the words that ask for them
 * (English and French, folded: lower case, no accents). Each phrase is a space-separated word
 * sequence; longer phrases are listed before the shorter ones they contain.
 */

export type Statistic =
  | 'mean'
  | 'median'
  | 'mode'
  | 'std'
  | 'variance'
  | 'skewness'
  | 'kurtosis'
  | 'percentile'
  | 'iqr'
  | 'missing'
  | 'correlation'
  | 'covariance'
  | 'outliers'
  | 'slope'
  | 'intercept'
  | 'r2'
  | 'min'
  | 'max'
  | 'sum'
  | 'range'
  | 'growth'
  /** A test's p-value, statistic and verdict (the test from TEST_WORDS; docs/data-analysis.md, "Tests"). */
  | 'pvalue'
  | 'test_statistic'
  | 'verdict'

export const STATISTIC_PHRASES: readonly (readonly [Statistic, string])[] = [
  ['iqr', 'interquartile range'],
  ['iqr', 'ecart interquartile'],
  ['iqr', 'iqr'],
  ['std', 'standard deviation'],
  ['std', 'std dev'],
  ['std', 'stdev'],
  ['std', 'std'],
  ['std', 'ecart type'],
  ['variance', 'variance'],
  ['skewness', 'skewness'],
  ['skewness', 'skew'],
  ['skewness', 'asymetrie'],
  ['kurtosis', 'kurtosis'],
  ['kurtosis', 'aplatissement'],
  ['correlation', 'correlation coefficient'],
  ['correlation', 'coefficient de correlation'],
  ['correlation', 'correlation'],
  ['correlation', 'correlated'],
  ['covariance', 'covariance'],
  ['slope', 'slope'],
  ['slope', 'pente'],
  ['intercept', 'intercept'],
  ['intercept', 'ordonnee a l origine'],
  ['r2', 'coefficient of determination'],
  ['r2', 'coefficient de determination'],
  ['r2', 'r squared'],
  ['r2', 'r2'],
  ['outliers', 'outliers'],
  ['outliers', 'outlier'],
  ['outliers', 'valeurs aberrantes'],
  ['missing', 'missing values'],
  ['missing', 'missing value'],
  ['missing', 'null values'],
  ['missing', 'valeurs manquantes'],
  ['missing', 'missing'],
  ['percentile', 'percentile'],
  ['percentile', 'centile'],
  ['percentile', 'quantile'],
  ['percentile', 'quartile'],
  ['median', 'median'],
  ['median', 'mediane'],
  ['mean', 'arithmetic mean'],
  ['mean', 'mean'],
  ['mean', 'average'],
  ['mean', 'avg'],
  ['mean', 'moyenne'],
  ['mode', 'mode'],
  ['min', 'minimum'],
  ['max', 'maximum'],
  ['range', 'range'],
  ['growth', 'growth rate'],
  ['growth', 'percentage change'],
  ['growth', 'percent change'],
  ['growth', 'relative change'],
  ['growth', 'taux de croissance'],
  ['growth', 'variation en pourcentage'],
  ['sum', 'sum'],
  ['pvalue', 'p values'],
  ['pvalue', 'p value'],
  ['pvalue', 'pvalue'],
]

/**
 * Statistics the other shapes never compute: one of them, or two statistics of any kind, or an
 * answer format naming its slots, makes a question a statistics question.
 */
export const OWN_STATISTICS: ReadonlySet<Statistic> = new Set([
  'mode',
  'std',
  'variance',
  'skewness',
  'kurtosis',
  'percentile',
  'iqr',
  'missing',
  'correlation',
  'covariance',
  'outliers',
  'slope',
  'intercept',
  'r2',
  'growth',
  'pvalue',
  'test_statistic',
  'verdict',
])

/** A growth over periods ("annual growth rate", "CAGR") has more than one reading: declined. */
export const PERIODIC_GROWTH_WORDS = new Set([
  'annual',
  'annualized',
  'yearly',
  'compound',
  'cagr',
  'monthly',
  'annuel',
])
/** Header words of a column that orders rows in time, when it is not typed as a date. */
export const TIME_HEADER = /\b(?:year|date|time|month|period|quarter|day|annee|mois|periode)\b/i

/** "population standard deviation" (divide by n) against "sample" (n − 1, pandas' default). */
export const POPULATION_WORDS = new Set(['population', 'biased'])
export const SAMPLE_WORDS = new Set(['sample', 'unbiased'])

/** Libraries whose moments are the biased (population) ones: SciPy's skew and kurtosis. */
export const BIASED_MOMENT_LIBRARIES = new Set(['scipy'])

export const SPEARMAN_WORDS = new Set(['spearman'])

/** "z-score" and its spellings, after the tokeniser split the hyphen. */
export const Z_SCORE_PHRASES = ['z score', 'zscore', 'z scores', 'zscores', 'standard score']
/** "missing values in each column": one count per column of the table. */
export const EVERY_COLUMN_PHRASES = [
  'each column',
  'every column',
  'per column',
  'all columns',
  'all the columns',
  'each of the columns',
  'chaque colonne',
  'toutes les colonnes',
  'par colonne',
]
/** "missing values in the dataset": one count over every column. */
export const WHOLE_TABLE_WORDS = new Set(['dataset', 'table', 'file', 'data', 'overall', 'jeu', 'tableau', 'fichier'])

/** "the value counts of Embarked": each value of a column with its number of rows. */
export const VALUE_COUNT_PHRASES = [
  'value counts',
  'value count',
  'frequency table',
  'frequency counts',
  'frequency count',
  'frequencies',
  'count of each value',
  'counts of each value',
  'number of occurrences of each',
  'occurrences of each',
  'effectifs',
]

/** "for each class", "per region": statistics by group, which the planner does not compute (it declines). */
export const GROUPING_WORDS = new Set(['each', 'per', 'every', 'chaque'])
/** "per capita", "per cent": a rate's unit after "per", not a column to group by. */
export const RATE_UNITS = new Set(['capita', 'cent', 'head'])

/** Rows taken out before computing ("after removing the outliers"): a step the statistics do not take. */
export const REMOVAL_WORDS = new Set([
  'remove',
  'removing',
  'removed',
  'removal',
  'drop',
  'dropping',
  'dropped',
  'exclude',
  'excluding',
  'excluded',
  'eliminate',
  'eliminating',
  'supprimer',
  'exclure',
])

/** "do not remove", "without removing": no rows taken out. */
export const REMOVAL_NEGATIONS = new Set(['not', 'without', 'no', 'never', 'sans', 'pas'])
/** "how many rows are left" after removing rows: not the number removed. */
export const REMAINING_WORDS = new Set(['left', 'remaining', 'remain', 'remains', 'restantes', 'restants'])

/** The interquartile method of outliers ("1.5 times the IQR"). */
export const IQR_OUTLIER_FACTOR = 1.5
/** A z-score beyond this marks an outlier when the question sets no threshold. */
export const DEFAULT_Z_THRESHOLD = 3

export const QUARTILE_PERCENTILES: Readonly<Record<string, number>> = {
  first: 25,
  lower: 25,
  '1st': 25,
  premier: 25,
  second: 50,
  '2nd': 50,
  third: 75,
  upper: 75,
  '3rd': 75,
  troisieme: 75,
}

/**
 * Linear regression asked as such: its slope, intercept and r² unless the answer format names
 * fewer. "predict Y from X", "regress Y on X": the first column named is the dependent one.
 */
export const REGRESSION_PHRASES = ['linear regression', 'regression lineaire', 'regression', 'line of best fit']
/** "predict Y based on X", "Y as a function of X": the words between the dependent and the explanatory column. */
export const EXPLANATORY_WORDS = new Set(['on', 'from', 'using', 'based', 'against', 'versus', 'vs', 'by', 'with'])

/** The words a slot name uses for each statistic (`std_dev_fare` → std; `r_squared` → r²). */
export const SLOT_WORDS: Readonly<Record<Statistic, readonly string[]>> = {
  mean: ['mean', 'average', 'avg', 'mu', 'moyenne'],
  median: ['median', 'med', 'mediane'],
  mode: ['mode'],
  std: ['std', 'stdev', 'stddev', 'sd', 'standard', 'deviation', 'dev', 'sigma'],
  variance: ['var', 'variance'],
  skewness: ['skew', 'skewness'],
  kurtosis: ['kurt', 'kurtosis'],
  percentile: ['percentile', 'quantile', 'quartile', 'pct', 'centile'],
  iqr: ['iqr', 'interquartile'],
  missing: ['missing', 'null', 'nulls', 'nan', 'na'],
  correlation: ['corr', 'correlation', 'coefficient', 'coef', 'r', 'rho', 'pearson', 'spearman'],
  covariance: ['cov', 'covariance'],
  outliers: ['outlier', 'outliers'],
  slope: ['slope', 'beta'],
  intercept: ['intercept'],
  r2: ['r2', 'rsquared', 'squared', 'determination'],
  min: ['min', 'minimum', 'lowest'],
  max: ['max', 'maximum', 'highest'],
  sum: ['sum', 'total'],
  range: ['range'],
  growth: ['growth', 'change', 'increase', 'pct', 'percent', 'percentage'],
  pvalue: ['p', 'pvalue', 'pval'],
  test_statistic: ['w', 'statistic', 'stat', 'k2', 't', 'f', 'chi2', 'chi', 'chisquare'],
  // A verdict slot is told by its two answers, not by its name (cues/slot-options.ts).
  verdict: [],
}

/**
 * The tests a question may name (folded words after the tokeniser split hyphens). A normality
 * test the planner does not compute, or normality asked without naming the test (the tests
 * disagree near the threshold), is declined.
 */
export const SHAPIRO_WORDS = new Set(['shapiro'])
export const DAGOSTINO_WORDS = new Set(['normaltest', 'agostino', 'dagostino'])
/** Kolmogorov-Smirnov: only its verdict is given (src/data-analysis/kolmogorov-smirnov.ts). */
export const KOLMOGOROV_WORDS = new Set(['kolmogorov', 'smirnov', 'ks', 'kstest'])
export const OTHER_NORMALITY_TEST_WORDS = new Set(['darling', 'lilliefors', 'jarque'])
export const NORMALITY_PHRASES = [
  'normal distribution',
  'normally distributed',
  'normality',
  'gaussian',
  'loi normale',
  'distribution normale',
  'normalite',
]
/** A correlation's significance asked without naming its p-value. */
export const SIGNIFICANCE_WORDS = new Set([
  'significant',
  'significance',
  'significantly',
  'significative',
  'significatif',
])
/** "a significance level (alpha) of 0.05": a number at most this is the level, not a condition. */
export const MAX_SIGNIFICANCE_LEVEL = 0.2
/** Words right before a significance level ("alpha of 0.05", "at the 0.01 level", "significant at 0.05"). */
export const LEVEL_WORDS = new Set(['alpha', 'level', 'significance', 'significant', 'pvalue', 'seuil', 'niveau'])
/** The level a verdict uses when the question says none (said in the explanation). */
export const DEFAULT_SIGNIFICANCE_LEVEL = 0.05
/** "two-tailed", "two-sided": the test's kind, not a number of rows. */
export const TAIL_WORDS = new Set(['tailed', 'sided', 'tail'])
/** "two-sample", "one-way": a test's design, not a number of rows. */
export const DESIGN_WORDS = new Set(['sample', 'samples', 'way'])
/** The words of the unsupported list (lexicon/computations.ts) a test the planner computes answers. */
export const TEST_WORDS = new Set([
  'p value',
  'p-value',
  'pvalue',
  'shapiro',
  'kolmogorov',
  'normality',
  'normally distributed',
  'significance',
  'significant',
  'hypothesis',
  'distribution',
])
/** Words that negate a verdict's answer ("Not Normal", "non-significant", "not_correlated"). */
export const NEGATION_WORDS = new Set(['not', 'non', 'no', 'pas', 'ne'])
/** Words a verdict's two answers may differ by besides the negation ("Not a normal distribution"). */
export const ARTICLE_WORDS = new Set(['a', 'an', 'the', 'un', 'une', 'la', 'le'])
/** The statistics of a test, computed after the query (src/data-analysis/derived-test.ts). */
export const TEST_STATISTICS: readonly Statistic[] = ['pvalue', 'test_statistic', 'verdict']
/** A verdict's answers when no answer format offers any. */
export const DEFAULT_VERDICTS: Readonly<Record<TestKind, { readonly affirmative: string; readonly negative: string }>> =
  {
    correlation: { affirmative: 'significant', negative: 'not significant' },
    shapiro: { affirmative: 'normal', negative: 'not normal' },
    dagostino: { affirmative: 'normal', negative: 'not normal' },
    kolmogorov: { affirmative: 'normal', negative: 'not normal' },
    ttest: { affirmative: 'significant', negative: 'not significant' },
    welch: { affirmative: 'significant', negative: 'not significant' },
    anova: { affirmative: 'significant', negative: 'not significant' },
    chisquare: { affirmative: 'significant', negative: 'not significant' },
  }
/**
 * Tests between groups, by the phrases that name them (folded tokens: "t-test" is `t test`), with
 * the words of the unsupported list (computations.ts) each answers. Welch's is a t-test with
 * unequal variances ("equal_var=False").
 */
export const GROUP_TESTS: ReadonlyArray<{
  readonly kind: 'ttest' | 'welch' | 'anova' | 'chisquare'
  readonly phrases: readonly string[]
  readonly answers: readonly string[]
}> = [
  {
    kind: 'welch',
    phrases: ["welch's", 'welch', 'unequal variances', 'equal var false'],
    answers: ['t test', 't-test', 'ttest'],
  },
  { kind: 'ttest', phrases: ['t test', 'ttest', 'ttest ind'], answers: ['t test', 't-test', 'ttest'] },
  { kind: 'anova', phrases: ['anova', 'analysis of variance', 'f oneway'], answers: ['anova'] },
  {
    kind: 'chisquare',
    phrases: ['chi square', 'chi squared', 'chi2', 'chi2 contingency'],
    answers: ['chi square', 'chi-square', 'chi2'],
  },
]
/** A t-test of another design than two independent samples: declined. */
export const OTHER_T_TEST_PHRASES = [
  'paired',
  'one sample',
  'related samples',
  'dependent samples',
  'ttest rel',
  'ttest 1samp',
]
/** A verdict of a test between groups says a difference or an association. */
export const GROUP_VERDICT_WORDS = new Set([
  'significant',
  'significance',
  'difference',
  'different',
  'differ',
  'differs',
  'associated',
  'association',
  'related',
  'relationship',
  'dependent',
  'dependence',
])
/** A verdict's affirmative answer must say what the test decides: a correlation's significance, or normality. */
export const CORRELATION_VERDICT_WORDS = new Set([
  'significant',
  'significance',
  'correlated',
  'correlation',
  'related',
])
export const NORMALITY_VERDICT_WORDS = new Set(['normal', 'normality', 'normally', 'gaussian', 'normale'])
/** A verdict that is a boolean. */
export const TRUE_WORDS = new Set(['true', 'yes', 'vrai', 'oui'])
export const FALSE_WORDS = new Set(['false', 'no', 'faux', 'non'])
