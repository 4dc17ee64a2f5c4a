import {
  BIASED_MOMENT_LIBRARIES,
  DEFAULT_Z_THRESHOLD,
  IQR_OUTLIER_FACTOR,
  POPULATION_WORDS,
  QUARTILE_PERCENTILES,
  REGRESSION_PHRASES,
  SAMPLE_WORDS,
  SPEARMAN_WORDS,
  STATISTIC_PHRASES,
  Z_SCORE_PHRASES,
} from '../lexicon/statistics.js'
import { ordinalValue, type Token } from '../tokenise.js'
import { findPhrase } from './phrases.js'
import type { OutlierMethod, Reading, StatisticCue, StatisticsCues } from './types.js'

/** A token's word without a possessive (`pearson's` → `pearson`). */
const word = (token: Token | undefined): string => token?.text.replace(/'s$/, '') ?? ''

/** The percentile a percentile or quartile word names, from the word or number next to it. */
function percentileAt(tokens: readonly Token[], index: number, end: number, used: number[]): number | null {
  const before = tokens[index - 1]
  const after = tokens[end + 1]
  const isQuartile = tokens[index]?.text.startsWith('quartile')
  if (isQuartile) {
    const named = QUARTILE_PERCENTILES[word(before)]
    if (named !== undefined) used.push(index - 1)
    return named ?? null
  }
  for (const [token, at] of [
    [before, index - 1],
    [after, end + 1],
  ] as const) {
    if (!token) continue
    const value = token.number ?? ordinalValue(token.text)
    if (value !== null && value > 0 && value < 100) {
      used.push(at)
      return value
    }
  }
  return null
}

/** "z-score above 2.5", "a threshold of 3": the first number after a z-score that can bound one. */
function zThreshold(tokens: readonly Token[], at: number): number {
  for (let i = at; i < Math.min(tokens.length, at + 8); i++) {
    const value = tokens[i]?.number
    if (value !== null && value !== undefined && value > 0 && value <= 10) return value
  }
  return DEFAULT_Z_THRESHOLD
}

/** Every number of the rule's own value ("greater than 3 or less than -3", "1.5 × IQR"): part of the rule, never a condition. */
function takeRuleNumbers(tokens: readonly Token[], value: number, used: number[]): void {
  for (const [index, token] of tokens.entries()) {
    if (token.number !== null && Math.abs(token.number) === value) used.push(index)
  }
}

/**
 * The statistics a question asks for and how it wants them computed (population or sample,
 * Pearson or Spearman, the outlier method). The numbers read are taken, so that "the 90th
 * percentile" or "a z-score above 3" never becomes a condition on the rows; the statistic words
 * are not, since a column may be named by them ("Mean Temp"), as aggregate words are not.
 */
export function readStatistics(tokens: readonly Token[], quoted: ReadonlySet<number>): Reading<StatisticsCues> {
  const used: number[] = []
  const requested: StatisticCue[] = []
  for (let i = 0; i < tokens.length; i++) {
    if (quoted.has(i)) continue
    const match = STATISTIC_PHRASES.find(([, phrase]) =>
      phrase.split(' ').every((w, offset) => word(tokens[i + offset]) === w),
    )
    if (!match) continue
    const [stat, phrase] = match
    const end = i + phrase.split(' ').length - 1
    const percentile = stat === 'percentile' ? percentileAt(tokens, i, end, used) : null
    requested.push({ stat, index: i, end, percentile })
    i = end
  }
  const words = new Set(tokens.map(word))
  const zAt = findPhrase(tokens, Z_SCORE_PHRASES)
  const outlierAsked = requested.some((cue) => cue.stat === 'outliers')
  let outliers: OutlierMethod | null = null
  if (outlierAsked && zAt >= 0) {
    outliers = { kind: 'z', threshold: zThreshold(tokens, zAt) }
    takeRuleNumbers(tokens, outliers.threshold, used)
  } else if (outlierAsked && requested.some((cue) => cue.stat === 'iqr' || cue.stat === 'percentile')) {
    outliers = { kind: 'iqr' }
    takeRuleNumbers(tokens, IQR_OUTLIER_FACTOR, used)
  }
  const regressionAt = findPhrase(tokens, REGRESSION_PHRASES)
  const regression =
    regressionAt >= 0 ? { stat: 'slope' as const, index: regressionAt, end: regressionAt, percentile: null } : null
  const population = dispersionKind(tokens, requested)
  return {
    found: {
      // The quartiles and IQR that state the outlier rule are not values asked for.
      requested:
        outliers?.kind === 'iqr'
          ? requested.filter((cue) => cue.stat !== 'iqr' && cue.stat !== 'percentile')
          : requested,
      population,
      biasedMoments: [...words].some((w) => BIASED_MOMENT_LIBRARIES.has(w)),
      correlation: [...words].some((w) => SPEARMAN_WORDS.has(w)) ? 'spearman' : 'pearson',
      kendall: words.has('kendall'),
      outliers,
      regression,
    },
    used,
  }
}

/** Statistics that divide by n (population) or n − 1 (sample). */
const DISPERSIONS = new Set(['std', 'variance', 'covariance'])

/** "population standard deviation" / "sample variance": the word next to a dispersion statistic (a column may be named Population). */
function dispersionKind(tokens: readonly Token[], requested: readonly StatisticCue[]): boolean | null {
  for (const cue of requested) {
    if (!DISPERSIONS.has(cue.stat)) continue
    for (let i = Math.max(0, cue.index - 2); i <= cue.end + 2; i++) {
      if (POPULATION_WORDS.has(word(tokens[i]))) return true
      if (SAMPLE_WORDS.has(word(tokens[i]))) return false
    }
  }
  return null
}
