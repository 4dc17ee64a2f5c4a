/**
 * The words of the computations the planner reads, English and French, folded (lower case, no
 * accents): aggregates, counts, shares, and what it declines to compute. Phrases are
 * space-separated word sequences matched against the question's folded tokens.
 */

export type Aggregate = 'avg' | 'sum' | 'median' | 'max' | 'min' | 'std' | 'range' | 'count' | 'distinct'

export const AGGREGATE_PHRASES: Readonly<Record<Exclude<Aggregate, 'max' | 'min' | 'count' | 'distinct'>, string[]>> = {
  avg: ['average', 'mean', 'avg', 'moyenne', 'moyen', 'moyens', 'moyennes', 'on average', 'en moyenne'],
  sum: ['sum', 'total', 'sum of', 'somme', 'cumul', 'cumule', 'combined', 'altogether', 'overall'],
  median: ['median', 'mediane', 'median value'],
  std: ['standard deviation', 'std', 'stdev', 'ecart type', 'ecart-type'],
  range: ['range', 'etendue', 'amplitude'],
}

export const COUNT_PHRASES = [
  'how many',
  'number of',
  'count',
  'count of',
  'combien',
  'nombre de',
  'nombre d',
  'total number',
]

export const DISTINCT_WORDS = new Set([
  'unique',
  'distinct',
  'different',
  'distincts',
  'distinctes',
  'differents',
  'differentes',
  'uniques',
  'various',
])

/** "average number of": a count phrase right after these is the measure of an aggregate, not a count. */
export const AGGREGATE_WORDS_BEFORE_COUNT = new Set(['average', 'mean', 'moyen', 'moyenne', 'median'])

/** "difference between the highest and the lowest": a range. */
export const DIFFERENCE_PHRASES = ['difference between', 'ecart entre', 'difference entre']

/** A share of the rows ("what percentage of", "quelle part de"). */
export const SHARE_PHRASES = [
  'what percentage',
  'what percent',
  'what share',
  'what proportion',
  'what fraction',
  'percentage of',
  'share of',
  'proportion of',
  'quel pourcentage',
  'quelle part',
  'quelle proportion',
  'pourcentage de',
  'pourcentage des',
  'part de',
  'part des',
  'proportion de',
  'proportion des',
]

/** Counting the filled values of a column, not its rows. */
export const NON_EMPTY_PHRASES = [
  'non empty',
  'non null',
  'not empty',
  'not null',
  'non vide',
  'non nul',
  'non nulle',
  'filled',
]

/** "more than 3 different brands": the number counts different values. */
export const DISTINCT_WORDS_AFTER_NUMBER = new Set([
  'unique',
  'different',
  'distinct',
  'differents',
  'differentes',
  'distincts',
])

/** A quoted text searched inside the cells rather than compared with them whole. */
export const CONTAINING_WORDS = new Set([
  'contain',
  'contains',
  'containing',
  'including',
  'includes',
  'contient',
  'contenant',
  'comprenant',
])

/**
 * Questions the planner does not compute: tests and p-values, modelling, cleaning, transforms.
 * The statistics it does compute are in statistics.ts.
 */
export const UNSUPPORTED_WORDS = [
  'p value',
  'p-value',
  'pvalue',
  't test',
  't-test',
  'anova',
  'chi square',
  'chi-square',
  'shapiro',
  // Tests the planner does not compute (their p-value is never a correlation's or a normality
  // test's), by phrases no name shares ("anderson darling", not Anderson).
  'kolmogorov',
  'anderson darling',
  'lilliefors',
  'jarque',
  'mann whitney',
  'wilcoxon',
  'kruskal wallis',
  'levene test',
  "levene's test",
  'bartlett test',
  "bartlett's test",
  'ttest',
  'chi2',
  'f test',
  'z test',
  'dickey fuller',
  'adfuller',
  'granger causality',
  'log transformed',
  'transformed',
  'transformation',
  'normality',
  'normally distributed',
  'predict',
  'prediction model',
  'forecast',
  'impute',
  'imputation',
  'normalize',
  'normalise',
  'standardize',
  'feature',
  'features',
  'machine learning',
  'train',
  'cluster',
  'clustering',
  'moving average',
  'rolling',
  'log transformation',
  'logarithm',
  'hypothesis',
  'significance',
  'significant',
  'fill',
  'replace',
  'replaced',
  'replacing',
  'substitute',
  'handle missing',
  'handling missing',
  'remplacer',
  // Last, so that it is reported only when nothing else is: a "distribution analysis" often just
  // means summary statistics, which an answer format's slots can say (grounding/index.ts).
  'distribution',
]
