import { wordsOf } from '../cues/slots.js'
import type { StatisticItem } from '../intent.js'
import { SLOT_WORDS } from '../lexicon/statistics.js'
import { joinedName } from './statistic-columns.js'

/** How well a slot's words name an item: its statistic's words, then its columns' words to tell equal statistics apart. */
function slotFit(slotWords: readonly string[], item: StatisticItem): [number, number] {
  const words = new Set(slotWords)
  const statistic = SLOT_WORDS[item.stat].filter((word) => words.has(word)).length
  if (statistic > 0 && item.stat === 'percentile' && !percentileFits(slotWords, item.percentile)) return [0, 0]
  const columns = item.columns.flatMap((column) => wordsOf(column.name)).filter((word) => words.has(word)).length
  // A pair written as one word (`correlation_XY`) names both its columns.
  const joined = item.columns.length === 2 && words.has(joinedName(item.columns)) ? 2 : 0
  return [statistic, columns + joined]
}

function verdictFit(isVerdict: boolean, item: StatisticItem): [number, number] {
  return isVerdict && item.stat === 'verdict' ? [1, 0] : [0, 0]
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
export function slotOwners(
  slots: readonly string[],
  items: readonly StatisticItem[],
  verdictSlots: ReadonlyMap<string, unknown>,
): StatisticItem[] | string {
  const owned: StatisticItem[] = []
  for (const slot of slots) {
    const slotWords = wordsOf(slot)
    // A slot offering two answers takes the verdict, and only it.
    const isVerdict = verdictSlots.has(slot)
    const scored = items
      .filter((item) => !owned.some((taken) => taken.stat === item.stat && taken.columns === item.columns))
      .map((item) => ({
        item,
        score: isVerdict || item.stat === 'verdict' ? verdictFit(isVerdict, item) : slotFit(slotWords, item),
      }))
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
