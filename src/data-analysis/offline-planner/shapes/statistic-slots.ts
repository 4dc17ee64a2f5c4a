import type { StatisticItem } from '../intent.js'
import type { Statistic } from '../lexicon/statistics.js'
import { fold, splitHeader } from '../tokenise.js'

/** The words a slot name uses for each statistic (`std_dev_fare` → std; `r_squared` → r²). */
const SLOT_WORDS: Readonly<Record<Statistic, readonly string[]>> = {
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
}

/** A name's words, lower case, split at underscores, case changes and digits, plus the whole name joined. */
function wordsOf(name: string): string[] {
  const words = fold(splitHeader(name).replace(/(\d+)/g, ' $1 '))
    .split(/[^a-z0-9]+/)
    .filter(Boolean)
  return [...words, words.join('')]
}

/** Whether every slot of an answer format names a statistic the planner computes. */
export function slotsNameStatistics(slots: readonly string[]): boolean {
  const stats = Object.keys(SLOT_WORDS) as Statistic[]
  return slots.length > 0 && slots.every((slot) => stats.some((stat) => namedBySlots([slot], stat)))
}

/** Whether some slot's name uses a word of the statistic: statistics no slot names are not asked for. */
export function namedBySlots(slots: readonly string[], stat: Statistic): boolean {
  return slots.some((slot) => {
    const words = new Set(wordsOf(slot))
    return SLOT_WORDS[stat].some((word) => words.has(word))
  })
}

/** How well a slot's words name an item: its statistic's words, then its columns' words to tell equal statistics apart. */
function slotFit(slotWords: readonly string[], item: StatisticItem): [number, number] {
  const words = new Set(slotWords)
  const statistic = SLOT_WORDS[item.stat].filter((word) => words.has(word)).length
  if (statistic > 0 && item.stat === 'percentile' && !percentileFits(slotWords, item.percentile)) return [0, 0]
  const columns = item.columns.flatMap((column) => wordsOf(column.name)).filter((word) => words.has(word)).length
  return [statistic, columns]
}

/** `p90`, `percentile_90`, `q3` (third quartile): a number in the slot's name must be the item's percentile. */
function percentileFits(slotWords: readonly string[], percentile: number | null): boolean {
  const numbers = slotWords.filter((word) => /^\d+$/.test(word)).map(Number)
  if (numbers.length === 0) return true
  const quartile = slotWords.includes('q') || slotWords.includes('quartile')
  return numbers.some((n) => n === percentile || (quartile && n * 25 === percentile))
}

/**
 * The items an answer format's slots ask for, in the slots' order and under their names: each slot
 * takes the item its words name best (the statistic first, the column to tell two means apart).
 * A slot no item fits, or two items fit equally, is the reason the planner declines.
 */
export function slotOwners(slots: readonly string[], items: readonly StatisticItem[]): StatisticItem[] | string {
  const owned: StatisticItem[] = []
  for (const slot of slots) {
    const slotWords = wordsOf(slot)
    const scored = items
      .filter((item) => !owned.some((taken) => taken.stat === item.stat && taken.columns === item.columns))
      .map((item) => ({ item, score: slotFit(slotWords, item) }))
      .filter(({ score }) => score[0] > 0)
      .sort((a, b) => b.score[0] - a.score[0] || b.score[1] - a.score[1])
    const [best, next] = scored
    if (!best) return `the answer format asks for "${slot}", which no statistic the planner computes fills`
    if (next && next.score[0] === best.score[0] && next.score[1] === best.score[1]) {
      return `the answer format's "${slot}" could be the ${best.item.stat} of "${best.item.columns[0]?.name}" or of "${next.item.columns[0]?.name}"`
    }
    owned.push({ ...best.item, slot })
  }
  return owned
}
